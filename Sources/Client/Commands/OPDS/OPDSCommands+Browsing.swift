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
        guard let next = browser.feed?.link("next") else {
            throw UserError(
                browser.feed == nil
                    ? tr("Nothing on screen yet: browse or search first.")
                    : tr("This is the last page; back goes to the one before."))
        }
        return render(try await browser.open(next.href), session: session)
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
        return render(try await browser.open(chosen.href), session: session)
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
        guard let feed = session.library.catalogue!.back() else {
            throw UserError(tr("Nowhere to go back to; browse shows the catalogue's top."))
        }
        return render(feed, session: session)
    }

    /// A feed as a numbered list: sections marked ▸, books with authors and formats.
    static func render(_ feed: OPDSFeed, session: Session) -> CommandOutput {
        let theme = session.theme
        let m = theme.marks
        let books = feed.entries.filter { $0.navigation == nil }.count
        let sections = feed.entries.count - books
        var count: [String] = []
        if books > 0 { count.append(trn("{n} book", "{n} books", books)) }
        if sections > 0 { count.append(trn("{n} section", "{n} sections", sections)) }
        var heading = feed.title.isEmpty ? session.library.name : feed.title
        if let query = session.library.catalogue?.query {
            heading = trn("{n} hit for {query}", "{n} hits for {query}", feed.entries.count, ["query": m.quoted(query)])
        }
        var lines = [
            theme.bold(
                ([heading] + (session.library.catalogue?.query == nil ? count : [])).joined(
                    separator: " \(m.middleDot) ")), "",
        ]
        if feed.entries.isEmpty { lines = [theme.bold(heading)] }
        if feed.entries.isEmpty, let query = session.library.catalogue?.query {
            lines = [
                tr(
                    "No book in this catalogue matches {query}. Try fewer words or another spelling.",
                    ["query": m.quoted(query)])
            ]
        }
        let width = String(feed.entries.count).count
        for (index, entry) in feed.entries.enumerated() {
            let number = DisplayWidth.pad(String(index + 1), to: max(2, width), align: .right)
            if entry.navigation != nil {
                let about = entry.summary ?? entry.content
                lines.append(
                    theme.fit(
                        "\(number)  ▸ \(theme.bold(entry.title))"
                            + (about.map { " \(m.middleDot) \(theme.dim($0))" } ?? "")))
            } else {
                var parts = [theme.bold(entry.title)]
                if let mark = lendingMark(entry, session: session) { parts.insert(mark, at: 0) }
                if !entry.authors.isEmpty { parts.append(entry.authors.joined(separator: ", ")) }
                if !entry.formats.isEmpty { parts.append(theme.dim(entry.formats.joined(separator: ", "))) }
                lines.append(theme.fit("\(number)  " + parts.joined(separator: " \(m.middleDot) ")))
            }
        }
        if !feed.facets.isEmpty { lines += [""] + facetLines(feed.facets, session: session) }
        var hints: [String] = []
        if !feed.facets.isEmpty { hints.append(tr("sort NAME or filter NAME follows one")) }
        if feed.link("next") != nil { hints.append(tr("more for the next page")) }
        if sections > 0 { hints.append(tr("browse N opens a section")) }
        if feed.entries.contains(where: { $0.borrowLink != nil }) {
            hints.append(tr("info N, borrow N, read N for a book"))
        } else if books > 0 {
            hints.append(tr("info N, get N, read N for a book"))
        }
        if !hints.isEmpty { lines += ["", theme.dim(hints.joined(separator: "; ") + ".")] }
        // From here on numbers mean the feed's entries (after the shelf, loans or reservations meant theirs).
        if !feed.entries.isEmpty, let notice = session.numbersNow(.books) { lines.append(notice) }
        return CommandOutput(lines: lines, json: OPDSFeedJSON(feed: feed, query: session.library.catalogue?.query))
    }
}
