/// An EPUB Canonical Fragment Identifier (EPUB CFI 1.1): the form in which calibre, Thorium,
/// Readium and Palace exchange a place in a book, read and written.
///
/// `epubcfi(/6/14[chap07]!/4/2[p12]/3:120)` names the 14th child of the package's spine (the
/// seventh itemref, whose id is `chap07`), then, inside that content document, the body (`/4`),
/// its first element (`/2`, which has the id `p12`), the text after that element's first child
/// element (`/3`), and the 120th character of it. Even steps are elements, odd steps the text
/// between them; `[…]` are assertions (ids, or the text around the place) that let a reader find
/// the place again when the book changed.
///
/// Two forms are read: the standard one above, and calibre's, which has no package steps and no
/// `!` — `epubcfi(/14/2/4/2[p12]/3:120)`: the spine item's even index, then a path from the
/// document itself, so its first step (`/2`) is the `html` element. A range
/// (`epubcfi(/6/4!/4/2,/1:0,/1:20)`) is read as its start. Spatial and temporal offsets
/// (`@x:y`, `~s`) are accepted and ignored: they mean nothing to a reader of text.
public struct EPUBCFI: Sendable, Hashable {
    /// One step of a path.
    public struct Step: Sendable, Hashable {
        /// Even: the (index / 2)th child element; odd: the text before or between elements.
        public var index: Int
        /// The id asserted for the element, if any.
        public var assertion: String?

        public init(index: Int, assertion: String? = nil) {
            self.index = index
            self.assertion = assertion
        }
    }

    /// Which form the identifier was written in, and is written in.
    public enum Form: Sendable, Hashable {
        /// `epubcfi(/6/N[idref]!/4/…)`: the package's spine, then the document from its root element.
        case standard
        /// calibre's `epubcfi(/N/2/4/…)`: the spine item, then the document from the document node.
        case calibre
    }

    /// The spine item's index in bok's spine (0-based).
    public var spineIndex: Int
    /// The id of the itemref, when the identifier asserts one (it wins over the index).
    public var spineItemID: String?
    /// The path inside the content document, from the root element (`/4` is the body).
    public var path: [Step]
    /// The character offset into the text the last step names, in UTF-16 units.
    public var offset: Int?
    /// The form it was written in.
    public var form: Form

    public init(spineIndex: Int, spineItemID: String? = nil, path: [Step], offset: Int?, form: Form = .standard) {
        self.spineIndex = spineIndex
        self.spineItemID = spineItemID
        self.path = path
        self.offset = offset
        self.form = form
    }

    /// The longest identifier read: a real one is well under a kilobyte.
    static let maxLength = 8192
    /// The deepest path read.
    static let maxSteps = 256

    /// Reads an identifier, with or without `epubcfi(…)` around it (a URL's `#epubcfi(…)` too).
    ///
    /// - Returns: `nil` when it is not an EPUB CFI at all.
    public init?(_ text: String) {
        var body = Substring(text.trimmed)
        guard body.utf8.count <= Self.maxLength else { return nil }
        if let hash = body.firstIndex(of: "#") { body = body[body.index(after: hash)...] }
        if body.hasPrefix("epubcfi(") {
            guard body.hasSuffix(")") else { return nil }
            body = body.dropFirst("epubcfi(".count).dropLast()
        }
        var scanner = CFIScanner(Array(body.unicodeScalars))
        guard let parsed = scanner.readPaths(), parsed.first.count >= 1 else { return nil }
        let spineStep: Step
        if let document = parsed.indirect {
            // The package's steps: the spine element, then the itemref.
            guard parsed.first.count >= 2, parsed.first[0].index % 2 == 0 else { return nil }
            spineStep = parsed.first[1]
            path = document
            form = .standard
        } else if parsed.first.count >= 2, parsed.first[0].index == 6, parsed.first[1].assertion != nil,
            parsed.first.count == 2
        {
            // An itemref with no document steps: `/6/4[chap02]`.
            spineStep = parsed.first[1]
            path = []
            form = .standard
        } else {
            spineStep = parsed.first[0]
            // calibre's path starts at the document: its first step (`/2`) is the `html` element.
            let fromDocument = parsed.first.dropFirst()
            path = Array(fromDocument.first?.index == 2 ? fromDocument.dropFirst() : fromDocument)
            form = .calibre
        }
        guard spineStep.index >= 2, spineStep.index % 2 == 0 else { return nil }
        spineIndex = spineStep.index / 2 - 1
        spineItemID = spineStep.assertion
        offset = parsed.offset
    }

    /// Reads an identifier that a link into one content document carries as its fragment
    /// (`chapter.xhtml#epubcfi(/4/2/1:0)`): a path from that document's root element.
    public init?(_ text: String, inDocument spineIndex: Int) {
        var body = Substring(text.trimmed)
        guard body.utf8.count <= Self.maxLength, body.hasPrefix("epubcfi("), body.hasSuffix(")") else { return nil }
        body = body.dropFirst("epubcfi(".count).dropLast()
        var scanner = CFIScanner(Array(body.unicodeScalars))
        guard let parsed = scanner.readPaths(), parsed.indirect == nil else { return nil }
        self.init(spineIndex: spineIndex, path: parsed.first, offset: parsed.offset)
    }

    /// The identifier in its form, with `epubcfi(…)` around it.
    public var string: String {
        var text = "epubcfi("
        switch form {
        case .standard:
            text += "/6/\(2 * (spineIndex + 1))"
            if let spineItemID { text += "[\(Self.escape(spineItemID))]" }
            text += "!"
        case .calibre:
            text += "/\(2 * (spineIndex + 1))/2"
        }
        for step in path {
            text += "/\(step.index)"
            if let assertion = step.assertion, !assertion.isEmpty { text += "[\(Self.escape(assertion))]" }
        }
        if let offset { text += ":\(offset)" }
        return text + ")"
    }

    /// The same place in the other form.
    public func inForm(_ form: Form) -> EPUBCFI {
        var copy = self
        copy.form = form
        return copy
    }

    /// Escapes the characters a CFI gives a meaning to, with `^`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "^[](),;=".contains(character) { escaped.append("^") }
            escaped.append(character)
        }
        return escaped
    }
}
