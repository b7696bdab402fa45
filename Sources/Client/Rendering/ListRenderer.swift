import Catalog
import Localization
import Reader
import Shelf
import Terminal

/// List or grid layout of results (`view list|grid`).
enum ViewMode: String, Sendable, CaseIterable {
    case list, grid
}

/// Renders a result list as rows or a grid of cards, with the count line and a paging hint.
///
/// It is given values: the session composes a page from its parts (`Session.output(for:)`).
struct ListRenderer {
    let theme: Theme
    /// The library's alphabet, for the direction of text orders (`A→Ö`).
    let alphabet: Collation.Alphabet
    /// The filters searches use, said in the count line.
    let filters: SearchFilters
    /// Availability in this patron's words.
    let availability: AvailabilityWords
    /// Covers drawn on the cards of `view grid`, by product (nil: none known, a generated card);
    /// nil when covers are not drawn.
    var covers: [String: RasterImage?]?

    /// `42 hits for “thriller” · sorted by author, Ö→A`.
    func countLine(_ list: ResultList) -> String {
        let sortLabel = theme.sortLabel(list.sort, alphabet: alphabet)
        let m = theme.marks
        var parts: [String]
        switch list.source {
        case .search(let query):
            let what = m.quoted(query)
            if list.total == 0 { return noHits(what, suggestion: list.suggestion) }
            parts = [
                trn("{n} hit for {query}", "{n} hits for {query}", list.total, ["query": what]),
                tr("sorted by {order}", ["order": sortLabel]),
            ]
        case .top:
            parts = [tr("Top {n} by popularity", ["n": list.highestNumber])]
            if let category = list.category { parts.append(tr("category {name}", ["name": category])) }
            if list.sort != SortSpec(.popularity) { parts.append(tr("sorted by {order}", ["order": sortLabel])) }
        case .newest:
            parts = [trn("The {n} newest book", "The {n} newest books", list.highestNumber)]
            if let category = list.category { parts.append(tr("category {name}", ["name": category])) }
            if list.sort != SortSpec(.date) { parts.append(tr("sorted by {order}", ["order": sortLabel])) }
        case .libraryPage:
            parts = [tr("Top and newest books"), tr("sorted by {order}", ["order": sortLabel])]
        case .related(let heading):
            if list.total == 0 { return heading + tr(": none in this library.") }
            parts = [heading]
        }
        if let filters = Self.describe(filters), case .search = list.source { parts.append(filters) }
        return theme.bold(parts.joined(separator: " \(m.middleDot) "))
    }

    private func noHits(_ what: String, suggestion: String?) -> String {
        if let suggestion {
            return tr(
                "No hits for {query}. Did you mean {suggestion}?",
                ["query": what, "suggestion": theme.marks.quoted(suggestion)])
        }
        let line: String
        if let filters = Self.describe(filters) {
            line = tr(
                "No hits for {query} with {filters}. Try filter clear, or fewer words.",
                ["query": what, "filters": filters])
        } else {
            line = tr(
                "No hits for {query}. Try fewer words, a prefix such as author:Å*, or another spelling.",
                ["query": what])
        }
        return line
    }

    /// `only available · language sv`, or nil with no filters.
    static func describe(_ filters: SearchFilters) -> String? {
        var parts: [String] = []
        if filters.availableOnly { parts.append(tr("only available")) }
        if let language = filters.language { parts.append(tr("language {code}", ["code": language])) }
        if let category = filters.category { parts.append(tr("category {name}", ["name": category])) }
        if let publisher = filters.publisher { parts.append(tr("publisher {name}", ["name": publisher])) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    func footer(_ list: ResultList, shown: Int) -> String? {
        guard list.isPaged, list.total > 0 else { return nil }
        let last = list.pageOffset + shown
        let paging = Self.paging(
            first: list.pageOffset + 1, last: last, total: list.total, hasMore: last < list.total,
            hasPrevious: list.pageOffset > 0)
        return theme.dim(paging + " " + tr("info N for details."))
    }

    /// `Showing 21–40 of 46. Type more for the next page, back for the previous.`: where a page
    /// of a list is, and how to reach the others; `total` nil when the list does not say.
    static func paging(first: Int, last: Int, total: Int?, hasMore: Bool, hasPrevious: Bool) -> String {
        var text =
            total.map { tr("Showing {first}–{last} of {total}.", ["first": first, "last": last, "total": $0]) }
            ?? tr("Showing {first}–{last}.", ["first": first, "last": last])
        if hasMore && hasPrevious {
            text += " " + tr("Type more for the next page, back for the previous.")
        } else if hasMore {
            text += " " + tr("Type more for the next page.")
        } else if hasPrevious {
            text += " " + tr("Type back for the previous page.")
        }
        return text
    }

    /// One book a row: number, availability mark with its words, title; then authors, year, category.
    ///
    /// On a narrow terminal the reason shortens (`on loan · 2 waiting`) before the title is cut.
    /// - Parameter own: the patron's own loans and reservations, with their shelf badges.
    func rows(_ page: [(number: Int, product: Product)], own: [String: Badge] = [:]) -> [String] {
        let numberWidth = max(2, String(page.last?.number ?? 0).count)
        var lines: [String] = []
        let indent = String(repeating: " ", count: numberWidth + 2)
        let m = theme.marks
        let words = availability
        for (number, product) in page {
            let label = String(repeating: " ", count: numberWidth - String(number).count) + String(number)
            var mark = self.mark(product, own: own)
            let room = theme.width > 0 ? theme.width - numberWidth - 2 : Int.max
            // On a narrow terminal the reason shortens, then loses its estimate, then leaves only
            // the mark, so that at least 12 cells of the title stay (info N has the rest).
            func fits(_ mark: String) -> Bool { DisplayWidth.of(Ansi.strip(mark)) + 3 + 12 <= room }
            if !fits(mark), own[product.id] == nil, let a = product.availability, !a.available {
                let shorter = [words.short(a), a.shortExplanation].compactMap { $0 }.map { theme.red(m.bad($0)) }
                mark = shorter.first(where: fits) ?? theme.red(m.cross)
            }
            let markWidth = DisplayWidth.of(Ansi.strip(mark))
            var title = product.title
            if theme.width > 0 {
                title = DisplayWidth.truncate(title, to: max(1, room - markWidth - 3), ellipsis: m.ellipsis)
            }
            lines.append("\(label)  \(mark) \(m.middleDot) \(theme.bold(title))")
            lines.append(indent + theme.dim(theme.fit(byline(product), used: numberWidth + 2)))
        }
        return lines
    }

    /// The book's mark with its words: the patron's own loan or reservation first (theirs,
    /// whatever the copies say: `✓ on loan to you`, `reserved by you · #2 in queue · ~9 Jan`,
    /// `✓ reserved by you · Ready · borrow by 23 Nov`), else what the library says of it.
    /// - Parameter width: cut the words to this many cells (a grid card), mark included.
    func mark(_ product: Product, own: [String: Badge], width: Int = .max) -> String {
        let m = theme.marks
        func cut(_ text: String) -> String { DisplayWidth.truncate(text, to: width, ellipsis: m.ellipsis) }
        switch own[product.id] {
        case .daysLeft?, .fewDaysLeft?, .lastDay?: return theme.green(cut(m.good(tr("on loan to you"))))
        case let badge? where badge.isReservation:
            let words = tr("reserved by you") + " \(m.middleDot) " + badge.text
            if case .ready = badge { return theme.green(cut(m.good(words))) }
            return theme.yellow(cut(words))
        default: return availability.mark(product.availability)
        }
    }

    /// `Anna Åberg · 2021 · Thriller`.
    func byline(_ product: Product) -> String {
        var parts: [String] = []
        let authors = product.authors.map(\.fullName)
        if !authors.isEmpty {
            parts.append(
                authors.count > 3
                    ? authors.prefix(3).joined(separator: ", ") + " " + tr("et al.") : authors.joined(separator: ", "))
        }
        if let year = product.year { parts.append(String(year)) }
        if let category = product.categories.first { parts.append(category) }
        return parts.joined(separator: " \(theme.marks.middleDot) ")
    }

    /// Compact cards across the width: number and mark, title, author, year and category.
    func grid(_ page: [(number: Int, product: Product)], own: [String: Badge] = [:]) -> [String] {
        CardGrid.lines(page, width: theme.width > 0 ? theme.width : 80, widest: 40) {
            card($0.number, $0.product, width: $1, own: own)
        }
    }

    private func card(_ number: Int, _ product: Product, width: Int, own: [String: Badge]) -> [String] {
        let m = theme.marks
        let status: String
        if own[product.id] != nil {
            status = mark(product, own: own, width: width - String(number).count - 1)
        } else if let a = product.availability {
            let words = availability
            status =
                a.available
                ? theme.green(m.good(tr("Available")))
                : theme.red(
                    m.bad(
                        DisplayWidth.truncate(
                            words.short(a) ?? "", to: width - String(number).count - 3, ellipsis: m.ellipsis)))
        } else {
            status = theme.dim("? " + tr("unknown"))
        }
        func cell(_ text: String, _ style: (String) -> String = { $0 }) -> String {
            style(DisplayWidth.fit(text, to: width, ellipsis: m.ellipsis))
        }
        let headCell = CardGrid.pad("\(number) " + status, to: width)
        let author = product.authors.first?.fullName ?? ""
        var details: [String] = []
        if let year = product.year { details.append(String(year)) }
        if let category = product.categories.first { details.append(category) }
        let detail = details.joined(separator: " \(m.middleDot) ")
        let text = [headCell, cell(product.title, theme.bold), cell(author), cell(detail, theme.dim)]
        guard let covers else { return text }
        return CoverArt.onCard(covers[product.id] ?? nil, title: product.title, width: width, theme: theme) + text
    }

    func json(_ list: ResultList, page: [(number: Int, product: Product)]) -> ListJSON {
        let kind: String
        var query: String?
        switch list.source {
        case .search(let q):
            kind = "search"
            query = q
        case .top: kind = "top"
        case .newest: kind = "new"
        case .libraryPage: kind = "library"
        case .related: kind = "similar"
        }
        return ListJSON(
            list: kind, query: query, total: list.isPaged ? list.total : list.highestNumber,
            offset: list.pageOffset, sort: list.sort.key.rawValue, order: list.sort.order.rawValue,
            filters: FiltersJSON(filters),
            results: page.map { ResultJSON(number: $0.number, product: $0.product) })
    }
}

extension String {
    /// The string without trailing spaces (grid rows end where their last card ends).
    func trimmingTrailingSpaces() -> String {
        // Over the UTF-8 bytes: a shelf trims thousands of lines, and comparing characters cost more than drawing them.
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: " ") {
            end = utf8.index(before: end)
        }
        guard end != utf8.endIndex else { return self }
        // A space joined to the character before it (a prepended mark) is no space of its own: cut characters then.
        guard let cut = end.samePosition(in: self) else {
            var s = self
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        return String(self[..<cut])
    }
}
