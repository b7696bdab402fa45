import Localization

/// Inline styles a run of text can carry.
public struct InlineStyle: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `em`, `i`, `cite`, or italic by CSS.
    public static let emphasis = InlineStyle(rawValue: 1 << 0)
    /// `strong`, `b`, or bold by CSS.
    public static let strong = InlineStyle(rawValue: 1 << 1)
    /// Small caps (the text is already upper-cased).
    public static let smallCaps = InlineStyle(rawValue: 1 << 2)
    /// `code`, `kbd`, `samp`, `tt`.
    public static let code = InlineStyle(rawValue: 1 << 3)
    /// Part of a link; the run's `link` says where to.
    public static let link = InlineStyle(rawValue: 1 << 4)
    /// A footnote reference (`epub:type="noteref"`, or a linked superscript).
    public static let noteReference = InlineStyle(rawValue: 1 << 5)
    /// Right-to-left text (`dir="rtl"` here or on an ancestor), kept in logical order; the layout
    /// orders it for display.
    public static let rightToLeft = InlineStyle(rawValue: 1 << 6)
    /// `sup`.
    public static let superscript = InlineStyle(rawValue: 1 << 7)
    /// `sub`.
    public static let `subscript` = InlineStyle(rawValue: 1 << 8)
    /// A heading's text.
    public static let heading = InlineStyle(rawValue: 1 << 9)
    /// Text declared left-to-right (`dir="ltr"` here or on an ancestor), as an English phrase in
    /// a Hebrew paragraph.
    public static let leftToRight = InlineStyle(rawValue: 1 << 10)
    /// `<bdo dir>`: the declared direction orders every letter, whatever its own direction.
    public static let directionOverride = InlineStyle(rawValue: 1 << 11)
    /// `<bdi>` without `dir`: set apart from the text around it, in the direction its own first
    /// strong letter gives (HTML's `dir=auto` isolate), as a Hebrew name in an English sentence.
    public static let isolate = InlineStyle(rawValue: 1 << 12)
    /// `text-transform: lowercase` (the text is already lower-cased).
    public static let lowercase = InlineStyle(rawValue: 1 << 13)
    /// `text-transform: capitalize` (each word's first letter is already a capital).
    public static let capitalized = InlineStyle(rawValue: 1 << 14)
    /// `hyphens: none`: the words of a block that begins here are never broken.
    public static let noHyphens = InlineStyle(rawValue: 1 << 15)
    /// `hyphens: manual`: only at the book's soft hyphens.
    public static let manualHyphens = InlineStyle(rawValue: 1 << 16)

    /// Where a block's words may break, as `hyphens` says for this text.
    public var hyphenation: Hyphenation {
        contains(.noHyphens) ? .none : contains(.manualHyphens) ? .manual : .auto
    }

    /// The direction the markup declares for this text, if any.
    public var declaredDirection: TextDirection? {
        if contains(.rightToLeft) { return .rightToLeft }
        if contains(.leftToRight) { return .leftToRight }
        return nil
    }
}

/// Which way a paragraph or a passage of text reads.
public enum TextDirection: Sendable, Hashable, Codable {
    case leftToRight
    case rightToLeft

    /// The direction a `dir` attribute gives: `rtl` or `ltr`; nil for `auto`, nothing or anything else.
    public init?(dir: String?) {
        switch dir?.filter({ !$0.isWhitespace }).lowercased() {
        case "rtl"?: self = .rightToLeft
        case "ltr"?: self = .leftToRight
        default: return nil
        }
    }
}

/// Where a link in the book points.
public enum LinkDestination: Sendable, Hashable, Codable {
    /// A place inside the book.
    case `internal`(LinkTarget)
    /// A web address or other link outside the book; never followed by the reader.
    case external(String)
}

/// A place inside the book named by a path and an optional fragment (`text/ch2.xhtml#note3`).
public struct LinkTarget: Sendable, Hashable, Codable {
    /// The normalised path of the document in the archive.
    public var path: String
    /// The fragment identifier, without `#`.
    public var fragment: String?

    /// Creates a target.
    public init(path: String, fragment: String? = nil) {
        self.path = path
        self.fragment = fragment
    }
}

/// A stretch of text with one style.
public struct TextRun: Sendable, Hashable {
    /// The text, exactly as it appears in the chapter's plain text.
    public var text: String
    /// Its style.
    public var style: InlineStyle
    /// Where it links to, for links and footnote references.
    public var link: LinkDestination?

    /// Creates a run.
    public init(text: String, style: InlineStyle = [], link: LinkDestination? = nil) {
        self.text = text
        self.style = style
        self.link = link
    }
}

/// An image in the text, shown as a labelled placeholder until images are drawn.
public struct ImageReference: Sendable, Hashable {
    /// The image's normalised path in the archive, when it resolves inside the book.
    public var path: String?
    /// The alternative text, possibly empty.
    public var alt: String
    /// The language of the alternative text when the markup declares one other than the chapter's
    /// (`xml:lang` on the picture or around it): a span of text cannot hold a picture, which has none.
    public var language: String?

    /// The placeholder shown instead of the image: `[image: alt]`, or `[image]`.
    public var placeholder: String { alt.isEmpty ? tr("[image]") : tr("[image: {description}]", ["description": alt]) }
}

/// One block of a chapter: a paragraph, heading, list item, and so on.
public struct Block: Sendable, Hashable {
    /// What kind of block this is.
    public enum Kind: Sendable, Hashable {
        case paragraph
        case heading(level: Int)
        case preformatted
        case horizontalRule
        case image(ImageReference)
        /// A table row; cells are separated by ` | ` in the text.
        case tableRow
    }

    /// What kind of block this is.
    public var kind: Kind
    /// The styled text; together exactly `plainText[range]`. A `\n` inside is a forced line break.
    public var runs: [TextRun]
    /// The block's place in the chapter's plain text, in UTF-16 code units.
    public var range: Range<Int>
    /// How deeply nested in block quotes.
    public var quoteDepth: Int
    /// How deeply nested in lists (and definition descriptions).
    public var listDepth: Int
    /// The marker shown before the first line of a list item (`•`, `3.`), not part of the text.
    public var listMarker: String?
    /// Whether this block belongs to a footnote or endnote (`aside epub:type="footnote"`).
    public var isNote: Bool
    /// The block's base direction as its markup declares it (`dir` on it or an ancestor); nil
    /// when it does not, and the layout decides from its first strong letter or its language.
    public var declaredDirection: TextDirection?
    /// Offsets (UTF-16, relative to the block's start) where a soft hyphen allows a break.
    public var softHyphens: [Int]
    /// Where its words may break with a hyphen (CSS `hyphens`).
    public var hyphenation = Hyphenation.auto

    /// The block's text.
    public var text: String { runs.map(\.text).joined() }

    /// Whether the markup declares the block right-to-left.
    public var isRightToLeft: Bool { declaredDirection == .rightToLeft }
}

/// A passage of a chapter declared to be in a language (`xml:lang`, `lang`).
public struct LanguageSpan: Sendable, Hashable {
    /// Where it is in the chapter's plain text (UTF-16).
    public var range: Range<Int>
    /// Its BCP 47 tag as the book gives it (`fr`, `en-GB`).
    public var language: String

    /// Creates a span.
    public init(range: Range<Int>, language: String) {
        self.range = range
        self.language = language
    }

    /// The language the markup gives an offset: that of the innermost span holding it (the
    /// shortest), nil when none does and the chapter's own language holds. The one rule the page
    /// (hyphenation, a paragraph's direction) and the voice reading it aloud both follow.
    static func innermost(_ spans: [LanguageSpan], at offset: Int) -> String? {
        guard !spans.isEmpty else { return nil }
        return spans.filter { $0.range.contains(offset) }.min { $0.range.count < $1.range.count }?.language
    }
}

/// A content document turned into blocks of styled text, with its plain text and anchors.
///
/// Offsets everywhere in the reader are UTF-16 code units into `plainText`: stable across
/// platforms, cheap to compute, and the units `NSRegularExpression` reports.
public struct ChapterDocument: Sendable {
    /// The document's path in the archive.
    public let path: String
    /// The first heading's text, or else the `<title>`.
    public let title: String?
    /// The blocks in reading order.
    public let blocks: [Block]
    /// Every block's text followed by `\n`: what search and locators index.
    public let plainText: String
    /// Element ids (and `<a name>`) to their offsets in `plainText`.
    public let anchors: [String: Int]
    /// Whether the book's CSS indents paragraphs' first lines (`text-indent`), when it says.
    public let prefersIndentedParagraphs: Bool?
    /// The document's language (`xml:lang` or `lang` on `html` or `body`), when it says.
    public let language: String?
    /// Passages marked as another language than their surroundings (`<q xml:lang="fr">`), in the
    /// order they end; an inner passage comes before the one around it.
    public let languageSpans: [LanguageSpan]
    /// False when the document is not well-formed XML (an end tag that ends nothing, an element
    /// never closed): it was read as far as it could be, and the reader says so.
    public let isWellFormed: Bool

    /// Length of `plainText` in UTF-16 code units, kept because counting them in a long text
    /// walks all of it (about 3 ms for a 2 MB chapter, before its first frame).
    public let length: Int

    /// Creates a document from its parts.
    public init(
        path: String, title: String?, blocks: [Block], plainText: String, anchors: [String: Int],
        prefersIndentedParagraphs: Bool? = nil, language: String? = nil, isWellFormed: Bool = true,
        languageSpans: [LanguageSpan] = [], length: Int? = nil
    ) {
        assert(length.map { $0 == plainText.utf16.count } ?? true, "the length given is the text's")
        self.length = length ?? plainText.utf16.count
        self.path = path
        self.title = title
        self.blocks = blocks
        self.plainText = plainText
        self.anchors = anchors
        self.prefersIndentedParagraphs = prefersIndentedParagraphs
        self.language = language
        self.languageSpans = languageSpans
        self.isWellFormed = isWellFormed
    }

    /// A one-paragraph chapter standing in for a document that is missing or unreadable.
    public static func placeholder(path: String, message: String) -> ChapterDocument {
        let length = message.utf16.count
        let block = Block(
            kind: .paragraph, runs: [TextRun(text: message, style: .emphasis)], range: 0..<length,
            quoteDepth: 0, listDepth: 0, listMarker: nil, isNote: false, declaredDirection: nil, softHyphens: [])
        return ChapterDocument(path: path, title: nil, blocks: [block], plainText: message + "\n", anchors: [:])
    }

    /// The offset of an anchor (`note3`), or `nil` when the document has no such id.
    public func offset(ofAnchor id: String) -> Int? { anchors[id] }

    /// The plain text in a range of UTF-16 offsets (clamped to the text).
    public func text(in range: Range<Int>) -> String {
        let utf16 = plainText.utf16
        let lower = max(0, min(range.lowerBound, utf16.count))
        let upper = max(lower, min(range.upperBound, utf16.count))
        return String(
            decoding: utf16[
                utf16.index(utf16.startIndex, offsetBy: lower)..<utf16.index(utf16.startIndex, offsetBy: upper)],
            as: UTF16.self)
    }

    /// Up to `length` characters of text starting at `offset`, on one line, for locators and lists.
    public func snippet(at offset: Int, length: Int = 48) -> String {
        let clamped = max(0, min(offset, plainText.utf16.count))
        // Slicing rounds an index inside a surrogate pair down to the scalar's start.
        let text = plainText[String.Index(utf16Offset: clamped, in: plainText)...].prefix(length)
        return String(text.map { $0 == "\n" ? " " : $0 })
    }
}
