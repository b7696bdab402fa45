/// A stretch of one laid-out line in one style.
public struct LineRun: Sendable, Hashable {
    /// The text to draw (justification spaces and a break hyphen included).
    public var text: String
    /// Its style.
    public var style: InlineStyle
    /// Where it links to.
    public var link: LinkDestination?
    /// The offset in the chapter's plain text where the run's text starts, or `nil` for text
    /// the layout added (a list marker, a rule, an image label). Justification spaces and a
    /// break hyphen inside the run are not in the plain text.
    public var sourceOffset: Int? = nil
    /// Whether `text` is the source text backwards, as right-to-left text is drawn: its last
    /// character is the one at `sourceOffset` (brackets in it are mirrored).
    public var isReversed = false
}

/// One row of a laid-out chapter, with the stretch of the chapter's plain text it shows.
public struct LayoutLine: Sendable, Hashable {
    /// What the row shows, for the renderer's choice of style.
    public enum Role: Sendable, Hashable {
        case text
        case heading(level: Int)
        case preformatted
        case note
        case tableRow
        case horizontalRule
        case image(ImageReference)
        /// A row kept free under an image's first row, for the picture when it is drawn.
        case imageSpace
        case blank
    }

    /// What the row shows.
    public var role: Role
    /// Empty cells before the first run (margin, quote and list indent, first-line indent).
    public var indent: Int
    /// The styled text.
    public var runs: [LineRun]
    /// Which UTF-16 offsets of the chapter's plain text the row shows; empty for blank rows,
    /// rules and images, placed where the next text begins.
    public var sourceRange: Range<Int>
    /// Cells the runs take (without the indent).
    public var width: Int

    /// The row's text without styles or indent.
    public var text: String { runs.map(\.text).joined() }

    /// The row as it appears on screen without styles: indent and text.
    public var rendered: String { String(repeating: " ", count: indent) + text }

    /// What cutting pages needs to know of a row.
    enum PageKind: UInt8, Sendable {
        case other, blank, imageSpace, heading
    }

    /// What cutting pages needs to know of this row.
    var pageKind: PageKind {
        switch role {
        case .blank: .blank
        case .imageSpace: .imageSpace
        case .heading: .heading
        default: .other
        }
    }
}
