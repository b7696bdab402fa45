import Catalog
import Localization
import Terminal

/// `library`, `top` and `new`: the library's page and its lists.
@MainActor
enum LibraryCommands {
    nonisolated static let library = Command(
        typedName: TypedWord("typed: command", "library"), aliases: ["lib", "home"],
        synopsis:
            N_(
                "library | library list | library add NAME URL [--kind elib|opds] | library use NAME "
                    + "| library remove NAME"
            ),
        summary: N_("The library's page (notices, events, top and newest); your libraries: list, add, use, remove"),
        details: [
            N_(
                "library alone shows the page: top list numbered 1–10 and the newest 11–20, so info 12 works "
                    + "afterwards."),
            N_(
                "Several libraries live in the config file as [library NAME] sections; mock is always the built-in "
                    + "one. library list shows them (* the one in use); library add NAME URL adds one (the kind is "
                    + "found out from what the address answers; a lending service needs --service-id ID "
                    + "--service-key KEY); library use NAME switches to it now and from the next start; library "
                    + "remove NAME takes it out."),
            N_("bok --library NAME COMMAND uses one for one command. Service keys are never shown."),
            N_("Examples:  library     library list     library use home"),
            // An examples line is shown as it is when it fits: the long one on a line of its own.
            N_("           library add home http://127.0.0.1:8080/opds"),
        ],
        valued: ["kind", "service-id", "service-key", "name"],
        completion: .words(["list", "add", "use", "remove"], then: []),
        inCatalogue: OPDSCommands.library,
        run: { arguments, session in
            if LibraryProfileCommands.isSubcommand(arguments) {
                return try await LibraryProfileCommands.run(arguments, session: session)
            }
            guard arguments.positional.isEmpty else {
                throw UserError.usage(
                    tr("Usage: library, or library list | add NAME URL | use NAME | remove NAME."))
            }
            async let pageCall = session.library.service.library()
            let card = session.knownCard
            async let topCall = session.library.service.search(
                SearchRequest(query: "", sort: SortSpec(.popularity), limit: 10, card: card))
            async let newCall = session.library.service.search(
                SearchRequest(query: "", sort: SortSpec(.date), limit: 10, card: card))
            let page = try await pageCall
            session.library.adopt(page)
            let top = (try? await topCall)?.products ?? []
            let newest = (try? await newCall)?.products ?? []
            let all = top + newest
            session.lists.list = ResultList(
                source: .libraryPage, sort: SortSpec(.popularity), total: all.count, pageOffset: 0,
                pageSize: max(1, all.count),
                byNumber: Dictionary(uniqueKeysWithValues: all.enumerated().map { ($0.offset + 1, $0.element) }))
            let theme = session.theme
            let m = theme.marks
            var lines = [theme.heading(page.name)]
            var rules: [String] = []
            if let days = page.loanPeriodDays { rules.append(trn("loans last {n} day", "loans last {n} days", days)) }
            if let max = page.maxLoansPerMonth {
                rules.append(trn("{n} loan per patron a month", "{n} loans per patron a month", max))
            }
            if let pace = page.loanPace {
                rules.append(tr("at most {pace}", ["pace": session.availabilityWords.paceWords(pace)]))
            }
            if !rules.isEmpty { lines.append(theme.dim(rules.joined(separator: " \(m.middleDot) ").capitalizedFirst)) }
            if !page.alerts.isEmpty {
                lines += ["", theme.bold(tr("Notices"))]
                for alert in page.alerts {
                    lines.append("  \(m.bullet) " + theme.yellow(alert.title))
                    if let message = alert.message { lines += theme.wrap(message, indent: 4) }
                }
            }
            if !page.events.isEmpty {
                lines += ["", theme.bold(tr("Events"))]
                for event in page.events {
                    let when = event.date.map { Words.shortDay($0) } ?? ""
                    let place = event.place.map { " \(m.middleDot) \($0)" } ?? ""
                    lines.append("  \(DisplayWidth.pad(when, to: 7))\(event.title)" + theme.dim(place))
                }
            }
            let renderer = session.listRenderer
            if top.isEmpty && newest.isEmpty {
                lines += [
                    "", theme.dim(tr("This library has no catalogue search, so there are no top or newest lists.")),
                ]
            } else {
                lines += ["", theme.bold(tr("Top 10"))]
                let mine = session.ownBooks()
                lines += renderer.rows(top.enumerated().map { ($0.offset + 1, $0.element) }, own: mine)
                lines += ["", theme.bold(tr("Newest"))]
                lines += renderer.rows(
                    newest.enumerated().map { ($0.offset + 1 + top.count, $0.element) }, own: mine)
                let notice =
                    session.numbersNow(.books, count: top.count + newest.count).map { Ansi.strip($0) + " " } ?? ""
                lines += [
                    "",
                    theme.dim(notice + tr("info N for details; borrow N, reserve N and read N use the same numbers.")),
                ]
            }
            return CommandOutput(lines: lines, json: LibraryJSON(page: page, top: top, newest: newest))
        })

    nonisolated static let top = Command(
        typedName: TypedWord("typed: command", "top"),
        synopsis: N_("top [N] [category:NAME]"),
        summary: N_("The library's most borrowed books (default 10), numbered for info and borrow"),
        details: [
            N_("A category filter (filter category:NAME) applies too; category:NAME here overrides it."),
            N_("Examples:  top     top 25     top 10 category:Thriller"),
        ],
        inCatalogue: OPDSCommands.notInCatalogue,
        run: { arguments, session in
            try await list(.top, sort: SortSpec(.popularity), arguments: arguments, session: session)
        })

    nonisolated static let newest = Command(
        typedName: TypedWord("typed: command", "new"), aliases: ["newest", "latest"],
        synopsis: N_("new [N] [category:NAME]"),
        summary: N_("The newest books in the catalogue (default 10), numbered for info and borrow"),
        details: [
            N_("A category filter (filter category:NAME) applies too; category:NAME here overrides it."),
            N_("Examples:  new     new 20     new category:Deckare"),
        ],
        inCatalogue: OPDSCommands.notInCatalogue,
        run: { arguments, session in
            try await list(.newest, sort: SortSpec(.date), arguments: arguments, session: session)
        })

    private static func list(
        _ source: ResultList.Source, sort: SortSpec, arguments: Arguments, session: Session
    ) async throws -> CommandOutput {
        var count = 10
        var category = session.lists.filters.category
        var counted = false
        for word in arguments.positional {
            if let named = FilterWord.category(in: word) {
                category = named
                continue
            }
            guard let n = Int(word), (1...100).contains(n), !counted else {
                throw UserError.usage(
                    tr(
                        "Give how many books to show, 1–100, and a category if you like, e.g. {command} 20 "
                            + "{category}:Thriller.",
                        [
                            "command": Command.spoken(source == .top ? "top" : "new"),
                            "category": FilterWord.category.spoken,
                        ]))
            }
            count = n
            counted = true
        }
        let page: SearchPage
        do {
            page = try await session.library.service.search(
                SearchRequest(
                    query: "", sort: sort, limit: count,
                    filters: SearchFilters(category: category), card: session.knownCard))
        } catch let error as LendingError where error.kind == .unsupported {
            throw UserError(
                source == .top
                    ? tr("This library has no catalogue search, so bok cannot list its top books.")
                    : tr("This library has no catalogue search, so bok cannot list its newest books."))
        }
        let list = ResultList(
            source: source, sort: sort, total: page.products.count, pageOffset: 0,
            pageSize: max(1, page.products.count),
            byNumber: Dictionary(uniqueKeysWithValues: page.products.enumerated().map { ($0.offset + 1, $0.element) }),
            category: category)
        session.lists.list = list
        return await session.show(list)
    }
}

/// `library --json`.
struct LibraryJSON: Encodable, Sendable {
    let name: String
    let loanPeriodDays: Int?
    let maxLoansPerMonth: Int?
    /// `3/7`: at most 3 loans in any 7 days; nil when the library has no pace.
    let loanPace: String?
    let alerts: [String]
    let events: [String]
    let top: [ResultJSON]
    let newest: [ResultJSON]

    init(page: LibraryPage, top: [Product], newest: [Product]) {
        name = page.name
        loanPeriodDays = page.loanPeriodDays
        maxLoansPerMonth = page.maxLoansPerMonth
        loanPace = page.loanPace?.description
        alerts = page.alerts.map(\.title)
        events = page.events.map { [$0.date?.description, $0.title].compactMap { $0 }.joined(separator: " ") }
        self.top = top.enumerated().map { ResultJSON(number: $0.offset + 1, product: $0.element) }
        self.newest = newest.enumerated().map { ResultJSON(number: $0.offset + 1 + top.count, product: $0.element) }
    }
}

extension String {
    /// The string with its first letter upper-cased.
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
