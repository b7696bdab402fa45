import Terminal

extension Session {
    /// Hits per page of a list from `source`: 20, or as many as fit the window, so that the count
    /// line (`115 hits for “thriller” · sorted by author, Ö→A`) is still on screen above the last
    /// hit. Never fewer than 3; piped output and scenarios keep 20.
    func pageSize(for source: ResultList.Source) -> Int {
        guard theme.height > 0 else { return lists.pageSize }
        let room = theme.height - linesAroundHits(source)
        let fitting: Int
        switch lists.view {
        case .list:
            // A hit is two lines: number, mark and title; then its byline.
            fitting = room / 2
        case .grid:
            // Rows of cards four lines high with a blank line between them.
            fitting = (room + 1) / 5 * CardGrid.columns(width: theme.width)
        }
        return max(3, min(lists.pageSize, fitting))
    }

    /// The lines a page needs besides its hits: the count line and a blank line above them, a
    /// blank line and the footer below, and the prompt; each as many lines as it wraps to in this
    /// window, measured on a list of a four-digit size (the longest count and footer).
    private func linesAroundHits(_ source: ResultList.Source) -> Int {
        let probe = ResultList(
            source: source, sort: lists.sort, total: 9_999, pageOffset: 20, pageSize: 20, byNumber: [:])
        let renderer = ListRenderer(session: self)
        func height(_ line: String?) -> Int { line.map { DisplayWidth.wrapLine($0, width: theme.width).count } ?? 0 }
        return height(renderer.countLine(probe)) + 1 + 1 + height(renderer.footer(probe, shown: 20)) + 1
    }
}
