/// How the reader's preferences lay out a page.
extension ReaderPreferences {
    /// The narrowest screen on which two pages are shown side by side.
    public static let twoPageMinimumColumns = 100

    /// Whether a screen this wide shows two pages.
    public func showsTwoPages(columns: Int) -> Bool {
        twoPage && flow == .paged && columns >= Self.twoPageMinimumColumns
    }

    /// The layout of one page on a screen of `columns` × `rows` text cells (the status line
    /// already taken off): half the width, less a gutter, when two pages are shown.
    public func layoutSettings(columns: Int, rows: Int) -> LayoutSettings {
        let pageWidth = showsTwoPages(columns: columns) ? (columns - Self.gutter) / 2 : columns
        return LayoutSettings(
            width: max(10, pageWidth), rows: max(1, rows), margin: max(0, margin), lineSpacing: lineSpacing,
            justify: justify, paragraphStyle: paragraphStyle, indentWidth: 2,
            maxTextWidth: maxTextWidth.map { max(8, $0) }, showImages: showImages, hyphenate: hyphenate ?? justify)
    }

    /// Cells between two pages shown side by side.
    public static let gutter = 2
}
