import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// Paging through a catalogue: search, more, back, its facets (sort, filter), and the feed on
/// screen rendered with its numbers.
extension OPDSCommands {
    static func search(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        let terms = arguments.positional.joined(separator: " ")
        guard !terms.isEmpty else { throw UserError.usage(tr("Say what to look for: search lagerlöf")) }
        return render(try await session.library.catalogue!.search(terms), session: session)
    }

    static func more(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        let browser = session.library.catalogue!
        guard let page = try await browser.more() else {
            throw UserError(
                browser.feed == nil
                    ? tr("Nothing on screen yet: browse or search first.")
                    : tr("This is the last page; back goes to the one before."))
        }
        return render(page, session: session)
    }

    /// `sort NAME` / `filter NAME` in a catalogue: follows the facet of the feed on screen whose
    /// title begins with NAME (calibre and OPDS 2 feeds offer orders and groups this way);
    /// alone, lists the facets.
    static func facet(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        let browser = session.library.catalogue!
        let facets = browser.feed?.facets ?? []
        let wanted = arguments.positional.joined(separator: " ").lowercased()
        guard !facets.isEmpty else {
            throw UserError(
                browser.feed == nil
                    ? tr("Nothing on screen yet: browse or search first.")
                    : tr("This page of the catalogue offers no orders or filters (facets); browse N and search work."))
        }
        guard !wanted.isEmpty else {
            return CommandOutput(
                lines: facetLines(facets, session: session), json: ["facets": facets.compactMap(\.title)])
        }
        let matches = facets.filter { ($0.title ?? "").lowercased().hasPrefix(wanted) }
        guard let chosen = matches.first(where: { ($0.title ?? "").lowercased() == wanted }) ?? matches.first else {
            let names = facets.compactMap(\.title).joined(separator: ", ")
            throw UserError.usage(
                tr("No facet called \"{name}\" here. This page offers: {names}.", ["name": wanted, "names": names]))
        }
        return render(try await browser.open(chosen.href, keepingQuery: true), session: session)
    }

    /// `Sort by: Title · Newest` — one line a facet group, the one in force in bold.
    static func facetLines(_ facets: [OPDSLink], session: Session) -> [String] {
        let theme = session.theme
        var groups: [(name: String, links: [OPDSLink])] = []
        for facet in facets {
            let name = facet.facetGroup ?? tr("Facets")
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].links.append(facet)
            } else {
                groups.append((name, [facet]))
            }
        }
        return groups.map { group in
            theme.dim(group.name + ": ")
                + group.links.map { link in
                    let title = link.title ?? link.href.lastPathComponent
                    return link.isActiveFacet ? theme.bold(title) : title
                }.joined(separator: " \(theme.marks.middleDot) ")
        }
    }

    static func back(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        guard let page = session.library.catalogue!.back() else {
            throw UserError(tr("Nowhere to go back to; browse shows the catalogue's top."))
        }
        return render(page, session: session)
    }

    /// A page of a feed as a numbered list: sections marked ▸, books with authors and formats;
    /// as many entries as fit the window with the heading, facets, hints and footer, numbered on
    /// from the page before.
    static func render(_ page: OPDSPage, session: Session) -> CommandOutput {
        let theme = session.theme
        let m = theme.marks
        let feed = page.feed
        let browser = session.library.catalogue
        let remaining = Array(feed.entries[min(page.start, feed.entries.count)...])
        var top = [theme.bold(heading(page, session: session))]
        if feed.entries.isEmpty, let query = page.query {
            top = [
                tr(
                    "No book in this catalogue matches {query}. Try fewer words or another spelling.",
                    ["query": m.quoted(query)])
            ]
        }
        var bottom: [String] = []
        if !feed.facets.isEmpty { bottom += [""] + facetLines(feed.facets, session: session) }
        let hints = self.hints(page, canGoBack: browser?.canGoBack == true)
        if !hints.isEmpty { bottom += ["", theme.dim(hints.joined(separator: "; ") + ".")] }
        // As many entries as fit with the lines around them (the footer measured at its longest).
        let footerProbe = footer(page, shown: 1, probe: true)
        let around = [top, bottom, footerProbe.map { ["", $0] } ?? [], ["", NumberedList.books.notice, ""]]
            .joined().reduce(1) { $0 + DisplayWidth.wrapLine(Ansi.strip($1), width: max(20, theme.width)).count }
        let fitting = theme.height > 0 ? max(3, theme.height - around) : remaining.count
        let shown = Array(remaining.prefix(fitting))
        browser?.showing(shown.count)
        let firstShown = page.firstNumber + page.start
        let width = max(2, String(firstShown + shown.count - 1).count)
        var lines = top + (shown.isEmpty ? [] : [""])
        for (offset, entry) in shown.enumerated() {
            let number = DisplayWidth.pad(String(firstShown + offset), to: width, align: .right)
            lines.append(theme.fit("\(number)  " + line(entry, session: session)))
        }
        lines += bottom
        if let footer = footer(page, shown: shown.count, probe: false) { lines += ["", footer] }
        // From here on numbers mean the feed's entries (after the shelf, loans or reservations meant theirs).
        if let notice = session.numbersNow(.books, count: feed.entries.count) { lines.append(notice) }
        return CommandOutput(
            lines: lines, json: OPDSFeedJSON(feed: feed, query: page.query, firstNumber: page.firstNumber))
    }

    /// `46 hits for “lagerlöf”`, or the feed's title with its count of books and sections.
    private static func heading(_ page: OPDSPage, session: Session) -> String {
        let m = session.theme.marks
        let feed = page.feed
        if let query = page.query {
            guard let total = page.total else {
                return tr(
                    "At least {n} hits for {query}",
                    ["n": page.firstNumber - 1 + feed.entries.count, "query": m.quoted(query)])
            }
            return trn("{n} hit for {query}", "{n} hits for {query}", total, ["query": m.quoted(query)])
        }
        let title = feed.title.isEmpty ? session.library.name : feed.title
        guard !feed.entries.isEmpty else { return title }
        let books = feed.entries.filter { $0.navigation == nil }.count
        let sections = feed.entries.count - books
        var count: [String] = []
        // A feed of books only, in pages: the whole list's count where the feed gives it.
        if books > 0 { count.append(trn("{n} book", "{n} books", sections == 0 ? page.total ?? books : books)) }
        if sections > 0 { count.append(trn("{n} section", "{n} sections", sections)) }
        return ([title] + count).joined(separator: " \(m.middleDot) ")
    }

    /// An entry's line after its number: a section with what it holds, a book with its mark,
    /// authors and formats.
    private static func line(_ entry: OPDSEntry, session: Session) -> String {
        let theme = session.theme
        let m = theme.marks
        if entry.navigation != nil {
            let about = entry.summary ?? entry.content
            return "\(m.section) \(theme.bold(entry.title))" + (about.map { " \(m.middleDot) \(theme.dim($0))" } ?? "")
        }
        var parts = [theme.bold(entry.title)]
        if let mark = lendingMark(entry, session: session) { parts.insert(mark, at: 0) }
        if !entry.authors.isEmpty { parts.append(entry.authors.joined(separator: ", ")) }
        if !entry.formats.isEmpty { parts.append(theme.dim(entry.formats.joined(separator: ", "))) }
        return parts.joined(separator: " \(m.middleDot) ")
    }

    /// What can be done with the page: facets, sections, books, and back to where the patron came from.
    private static func hints(_ page: OPDSPage, canGoBack: Bool) -> [String] {
        let feed = page.feed
        var hints: [String] = []
        if !feed.facets.isEmpty { hints.append(tr("sort NAME or filter NAME follows one")) }
        if feed.entries.contains(where: { $0.navigation != nil }) { hints.append(tr("browse N opens a section")) }
        if feed.entries.contains(where: { $0.borrowLink != nil }) {
            hints.append(tr("info N, borrow N, read N for a book"))
        } else if feed.entries.contains(where: { $0.navigation == nil }) {
            hints.append(tr("info N, get N, read N for a book"))
        }
        // The footer says back when it goes to the page before in the same list.
        if canGoBack, page.firstNumber + page.start == 1 { hints.append(tr("back returns to the page before")) }
        return hints
    }

    /// `Showing 21–40 of 46. Type more for the next page, back for the previous.`, when the list
    /// has more than this screen; `probe` gives its longest form, to measure the room it takes.
    private static func footer(_ page: OPDSPage, shown: Int, probe: Bool) -> String? {
        let first = page.firstNumber + page.start
        let last = first + shown - 1
        let hasMore = probe || page.start + shown < page.feed.entries.count || page.feed.link("next") != nil
        let hasPrevious = probe || first > 1
        guard hasMore || hasPrevious else { return nil }
        let total = probe ? 99_999 : page.total
        return ListRenderer.paging(
            first: probe ? 99_999 : first, last: probe ? 99_999 : last, total: total,
            hasMore: hasMore, hasPrevious: hasPrevious)
    }
}
