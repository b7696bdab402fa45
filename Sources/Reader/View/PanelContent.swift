/// What a panel over the page holds (the contents, bookmarks, links, a paragraph's colours, a
/// footnote, the keys), apart from how it is written: a framed box over the page, or for a
/// screen reader a numbered list written once (``LinearReaderOutput``).
struct PanelContent: Equatable {
    /// Which panel it is.
    enum Kind: Equatable {
        case note, help, contents, bookmarks, links, highlight, definition
    }

    var kind: Kind
    var title: String
    /// Each row's text and its right-hand column (a page number, a chapter, a host), maybe empty.
    var rows: [(String, String)]
    /// The selected row and the first one shown.
    var list: ReaderView.ListState
    /// Whether a row is chosen (a list to choose from), rather than text to scroll.
    var selects: Bool
    /// The keys, as the box's last line says them.
    var footer: String

    static func == (lhs: PanelContent, rhs: PanelContent) -> Bool {
        lhs.kind == rhs.kind && lhs.title == rhs.title && lhs.list == rhs.list && lhs.selects == rhs.selects
            && lhs.footer == rhs.footer && lhs.rows.elementsEqual(rhs.rows) { $0 == $1 }
    }

    /// The same panel with the same rows, whatever is selected: a selection moved, not a new list.
    func hasSameRows(as other: PanelContent) -> Bool {
        kind == other.kind && title == other.title && rows.elementsEqual(other.rows) { $0 == $1 }
    }
}
