import Catalog
import Localization
import Reader
import Shelf
import Terminal

/// What the renderers are given: values taken from the session, and a page composed from them.
extension Session {
    /// Availability in this patron's words: their loan limit (from the patron check or the
    /// library page) and the library's today.
    var availabilityWords: AvailabilityWords {
        AvailabilityWords(
            theme: theme, today: library.today,
            maxLoans: (account.patron?.maxLoansPerMonth).flatMap { $0 > 0 ? $0 : nil }
                ?? library.page?.maxLoansPerMonth)
    }

    /// Draws result lists with this session's theme, alphabet, filters and patron.
    var listRenderer: ListRenderer {
        ListRenderer(
            theme: theme, alphabet: library.alphabet, filters: lists.filters, availability: availabilityWords,
            covers: theme.view(lists.view) == .grid && CoverArt.shown(in: self) ? coverCache : nil)
    }

    /// Draws the shelf in this session's theme, view and calendar.
    var shelfRenderer: ShelfRenderer {
        ShelfRenderer(
            theme: theme, view: theme.view(lists.view), timeZone: library.clock.timeZone, today: library.today)
    }

    /// The known patron's own loans and reservations by product, with their shelf badges, as
    /// last synced (empty when nobody is known): lists mark these books as the patron's, whatever
    /// the copies say.
    func ownBooks() -> [String: Badge] {
        guard knownCard != nil, let shelf = try? currentShelf() else { return [:] }
        var own: [String: Badge] = [:]
        for kind in [Shelf.SectionKind.reserved, .ready, .loans] {
            for entry in shelf.entries(kind) { own[entry.productID] = entry.badge }
        }
        return own
    }

    /// What follows "Numbers now mean the books of this list." under a page of results.
    private var booksNoticeTail: String {
        theme.dim(" " + tr("info N, borrow N, reserve N, sample N and read N use them."))
    }

    /// A page of `list` as ``output(for:)`` gives it, with the covers of `view grid`'s cards: at
    /// once from the cache, from the library together (each within ``CoverArt/deadline``) for at
    /// most ``gridCoverWait``. The cards come then, with a tint card for a cover still on its way;
    /// it is kept when it comes, and drawn the next time the page is shown.
    func show(_ list: ResultList) async -> CommandOutput {
        if theme.view(lists.view) == .grid, CoverArt.shown(in: self) {
            // A session of many searches keeps the last few hundred.
            if coverCache.count > 500 { coverCache.removeAll() }
            let missing = list.currentPage.map(\.product).filter { coverCache[$0.id] == nil }
            if !missing.isEmpty {
                // Together: each waits on the network off the main actor.
                let fetches = missing.map { product in
                    Task { @MainActor in
                        coverCache[product.id] = .some(await CoverArt.cover(of: product, session: self))
                    }
                }
                let deadline = ContinuousClock.now + gridCoverWait
                while ContinuousClock.now < deadline, missing.contains(where: { coverCache[$0.id] == nil }) {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                let before = coverFetch
                coverFetch = Task { @MainActor in
                    await before?.value
                    for fetch in fetches { await fetch.value }
                }
            }
            var output = output(for: list)
            if let pixels = CoverArt.pixels(in: self) {
                let box = min(
                    CardGrid.cardWidth(width: theme.width > 0 ? theme.width : 80, widest: 40), CoverArt.cardColumns)
                let covers = list.currentPage.compactMap { coverCache[$0.product.id] ?? nil }.map { picture in
                    let cells = CoverArt.fitted(picture, columns: box, rows: CoverArt.cardRows)
                    return (picture, cells.columns, cells.rows)
                }
                output.pictures = CoverArt.pictures(covers, pixels: pixels, theme: theme)
            }
            return output
        }
        return output(for: list)
    }

    /// A page of `list`: its count line, its hits as rows or cards, the paging hint, and after
    /// loans, reservations or the shelf, that numbers are this list's again; and its JSON form.
    func output(for list: ResultList) -> CommandOutput {
        let renderer = listRenderer
        let page = list.currentPage
        var lines = [renderer.countLine(list)]
        if !page.isEmpty {
            let mine = ownBooks()
            lines.append("")
            lines += theme.view(lists.view) == .grid ? renderer.grid(page, own: mine) : renderer.rows(page, own: mine)
        }
        if let footer = renderer.footer(list, shown: page.count) { lines += ["", footer] }
        if let notice = numbersNow(.books, count: page.count) { lines += ["", notice + booksNoticeTail] }
        return CommandOutput(lines: lines, json: renderer.json(list, page: page))
    }

    /// Hits per page of a list from `source`: 20, or as many as fit the window, so that the count
    /// line (`115 hits for “thriller” · sorted by author, Ö→A`) is still on screen above the last
    /// hit. Never fewer than 3; piped output and scenarios keep 20.
    func pageSize(for source: ResultList.Source) -> Int {
        guard theme.height > 0 else { return lists.pageSize }
        let room = theme.height - linesAroundHits(source)
        let fitting: Int
        switch theme.view(lists.view) {
        case .list:
            // A hit is two lines: number, mark and title; then its byline.
            fitting = room / 2
        case .grid:
            // Rows of cards four lines high (and a cover's above them) with a blank line between them.
            let card = 4 + (CoverArt.shown(in: self) ? CoverArt.cardRows : 0)
            fitting = (room + 1) / (card + 1) * CardGrid.columns(width: theme.width)
        }
        return max(3, min(lists.pageSize, fitting))
    }

    /// The lines a page needs besides its hits: the count line and a blank line above them, a
    /// blank line and the footer below, and the prompt; each as many lines as it wraps to in this
    /// window, measured on a list of a four-digit size (the longest count and footer).
    private func linesAroundHits(_ source: ResultList.Source) -> Int {
        let probe = ResultList(
            source: source, sort: lists.sort, total: 9_999, pageOffset: 20, pageSize: 20, byNumber: [:])
        let renderer = listRenderer
        func height(_ line: String?) -> Int { line.map { DisplayWidth.wrapLine($0, width: theme.width).count } ?? 0 }
        // After loans, reservations or the shelf, a blank line and the line that says numbers
        // mean this list's books again come below the footer (`output(for:)`).
        let notice =
            lists.numbered.map { $0 != .books } == true
            ? 1 + height(theme.dim(NumberedList.books.notice) + booksNoticeTail) : 0
        return height(renderer.countLine(probe)) + 1 + 1 + height(renderer.footer(probe, shown: 20)) + notice + 1
    }
}
