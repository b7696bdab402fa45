/// One resource the package declares.
public struct ManifestItem: Sendable, Hashable {
    /// The item's id within the package.
    public var id: String
    /// The normalised path in the archive, or `nil` when the href leaves the book.
    public var path: String?
    /// The declared media type.
    public var mediaType: String
    /// EPUB 3 properties (`nav`, `cover-image`, `scripted`, ...).
    public var properties: Set<String>
    /// The id of the fallback item, for resources a reading system may not support.
    public var fallback: String?

    /// Whether this is a content document the reader can show as text.
    public var isContentDocument: Bool {
        mediaType == "application/xhtml+xml" || mediaType == "text/html" || mediaType == "application/x-dtbook+xml"
            || mediaType == "text/x-oeb1-document" || mediaType == "text/plain"
    }

    /// Whether this is an image.
    public var isImage: Bool { mediaType.hasPrefix("image/") }
}

/// One item in the reading order.
public struct SpineItem: Sendable, Hashable {
    /// The manifest item's id.
    public var idref: String
    /// The normalised path in the archive (`nil` when the item leaves the book).
    public var path: String?
    /// The media type of the item shown (after following fallbacks).
    public var mediaType: String
    /// `false` for `linear="no"`: not reached by turning pages, only by links.
    public var isLinear: Bool
    /// Whether the file is missing from the archive (a placeholder chapter stands in).
    public var isMissing: Bool
    /// The paths of the items the spine reached this one through, by their manifest `fallback`
    /// (the item it names, of a type bok cannot show, and any between): a link or a contents
    /// entry to one of them leads here.
    public var fallbackFrom: [String] = []
    /// The item's own `rendition:layout-pre-paginated` (true) or `rendition:layout-reflowable`
    /// (false), over the book's; nil when it says neither.
    public var fixedLayout: Bool?
    /// Where a fixed-layout page goes in a spread (`page-spread-left`, `-right`,
    /// `rendition:page-spread-center` or `rendition:spread-none`: alone), when it says.
    public var spreadSide: SpreadSide?
}

/// Where a fixed-layout page goes when two are shown side by side.
public enum SpreadSide: Sendable, Hashable {
    case left, right
    /// Alone, in the middle (`rendition:page-spread-center`, `rendition:spread-none`).
    case center

    /// The side an itemref's `properties` name, if any.
    init?(properties: some Sequence<Substring>) {
        var side: SpreadSide?
        for property in properties {
            switch property {
            case "page-spread-left", "rendition:page-spread-left": side = .left
            case "page-spread-right", "rendition:page-spread-right": side = .right
            case "rendition:page-spread-center", "rendition:spread-none": side = .center
            default: continue
            }
        }
        guard let side else { return nil }
        self = side
    }
}

/// A table of contents entry, possibly with sub-entries.
public struct TOCEntry: Sendable, Hashable {
    /// The label shown.
    public var title: String
    /// Where it points, or `nil` for a heading without a link.
    public var target: LinkTarget?
    /// The spine index of the target's document, when it is in the spine.
    public var spineIndex: Int?
    /// Nested entries.
    public var children: [TOCEntry]

    /// Creates an entry.
    public init(title: String, target: LinkTarget?, spineIndex: Int?, children: [TOCEntry] = []) {
        self.title = title
        self.target = target
        self.spineIndex = spineIndex
        self.children = children
    }

    /// This entry and all below it, depth first, with their depth (0 for top level).
    public func flattened(depth: Int = 0) -> [(entry: TOCEntry, depth: Int)] {
        [(self, depth)] + children.flatMap { $0.flattened(depth: depth + 1) }
    }
}

/// A page of the print edition the book marks (`page-list`), so readers can cite page numbers.
public struct PageListEntry: Sendable, Hashable {
    /// The print page's label (`xii`, `42`).
    public var label: String
    /// Where that page begins.
    public var target: LinkTarget
    /// The spine index of the target's document.
    public var spineIndex: Int?
}
