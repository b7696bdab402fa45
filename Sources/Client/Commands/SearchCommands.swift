import Catalog
import Localization

/// `search`, `more`, `back`, `sort`, `filter` and `view`: finding books and arranging the list.
@MainActor
enum SearchCommands {
    nonisolated static let search = Command(
        typedName: TypedWord("typed: command", "search"), aliases: ["s", "find"],
        synopsis: N_("search QUERY [--sort KEY] [--order asc|desc]"),
        summary: N_("Search the catalogue by title, author, category, publisher, ISBN or keyword"),
        details: [
            N_(
                "Words match title, authors, categories, publisher, ISBN and keywords; every word must match. "
                    + "Restrict a word to a field with title:, author:, category:, publisher:, language:, isbn:. "
                    + "End a word with * to match its beginning; quote a phrase."),
            N_("Examples:"),
            N_("  search thriller"),
            N_("  search author:Å* category:Thriller"),
            N_("  search \"röda rummet\" --sort date"),
        ],
        valued: ["sort", "order"],
        inCatalogue: OPDSCommands.search,
        run: { arguments, session in
            let query = queryText(arguments.positional)
            // A query too long for a URL would come back as a bare HTTP 400 (or none at all).
            guard query.count <= SearchCommands.maxQueryLength else {
                throw UserError.usage(
                    tr(
                        "A search can be at most {most} characters long (this one has {length}); shorten it.",
                        ["most": SearchCommands.maxQueryLength, "length": query.count]))
            }
            do {
                _ = try SearchQuery.parse(query)
            } catch let error as SearchQuery.ParseError {
                throw UserError.usage(error.localizedMessage)
            }
            if let keyWord = arguments.option("sort") {
                session.lists.sort = SortSpec(try parseKey(keyWord), try arguments.option("order").map(parseOrder))
            } else if let orderWord = arguments.option("order") {
                session.lists.sort = SortSpec(session.lists.sort.key, try parseOrder(orderWord))
            }
            var list = ResultList(
                source: .search(query: query), sort: session.lists.sort, total: 0,
                pageOffset: 0, pageSize: session.pageSize(for: .search(query: query)), byNumber: [:])
            try await fetch(&list, offset: 0, session: session)
            if list.total == 0, session.lists.filters.isEmpty {
                list.suggestion = await SpellingSuggestion.suggest(for: query, session: session)
            }
            session.lists.list = list
            return await session.show(list)
        })

    nonisolated static let more = Command(
        typedName: TypedWord("typed: command", "more"), aliases: ["next", "n"],
        synopsis: N_("more"),
        summary: N_("Show the next page of the last results"),
        details: [N_("Numbers continue across pages, so info 23 works after more.")],
        inCatalogue: OPDSCommands.more,
        run: { _, session in
            guard var list = session.lists.list else { throw noList("more") }
            let next = list.pageOffset + list.pageSize
            guard list.isPaged, next < list.total else {
                throw UserError(
                    trn(
                        "That was the last page ({n} hit). Type back for the previous page.",
                        "That was the last page ({n} hits). Type back for the previous page.", list.total))
            }
            list.pageOffset = next
            try await fillPage(&list, session: session)
            session.lists.list = list
            return await session.show(list)
        })

    nonisolated static let back = Command(
        typedName: TypedWord("typed: command", "back"), aliases: ["prev", "previous", "p"],
        synopsis: N_("back"),
        summary: N_("Show the previous page of the last results"),
        details: [N_("The pages already seen are kept; back does not search again.")],
        inCatalogue: OPDSCommands.back,
        run: { _, session in
            guard var list = session.lists.list else { throw noList("back") }
            guard list.pageOffset > 0 else {
                throw UserError(tr("This is the first page. Type more for the next one."))
            }
            list.pageOffset = max(0, list.pageOffset - list.pageSize)
            try await fillPage(&list, session: session)
            session.lists.list = list
            return await session.show(list)
        })

    nonisolated static let sort = Command(
        typedName: TypedWord("typed: command", "sort"), aliases: ["order"],
        synopsis: N_("sort [KEY [asc|desc]]"),
        summary: N_("Order results by a key, either way (sort alone lists the keys)"),
        details: [
            N_(
                "sort alone shows the current order. sort KEY again flips the direction. "
                    + "Text follows the library's alphabet: in a Swedish library Å, Ä, Ö come after Z."),
            N_("Examples:"),
            N_("  sort author          A→Ö by the first author's last name"),
            N_("  sort author          again: Ö→A"),
            N_("  sort date desc       newest first"),
            N_("  sort popularity      most popular first"),
        ],
        completion: .typedWords(SortKey.allCases.map(\.typedWord), then: SortOrder.allCases.map(\.typedWord)),
        inCatalogue: OPDSCommands.facet,
        run: { arguments, session in
            let words = arguments.positional
            guard let keyWord = words.first else {
                let label = session.theme.sortLabel(session.lists.sort, alphabet: session.library.alphabet)
                let keys = SortKey.allCases.map(\.word).joined(separator: ", ")
                return CommandOutput(
                    lines: [tr("Sorted by {order}. Keys: {keys}; add asc or desc.", ["order": label, "keys": keys])],
                    json: SortJSON(
                        sort: session.lists.sort.key.rawValue, order: session.lists.sort.order.rawValue,
                        label: session.lists.sort.label(alphabet: session.library.alphabet)))
            }
            guard words.count <= 2 else {
                throw UserError.usage(tr("Usage: sort [KEY [asc|desc]], e.g. sort author desc."))
            }
            let key = try parseKey(keyWord)
            let order: SortOrder
            if words.count == 2 {
                order = try parseOrder(words[1])
            } else if key == session.lists.sort.key {
                order = session.lists.sort.order.flipped
            } else {
                order = key.defaultOrder
            }
            session.lists.sort = SortSpec(key, order)
            guard var list = session.lists.list else {
                let label = session.theme.sortLabel(session.lists.sort, alphabet: session.library.alphabet)
                return CommandOutput(
                    lines: [tr("Results will be sorted by {order}.", ["order": label])],
                    json: SortJSON(
                        sort: key.rawValue, order: order.rawValue,
                        label: session.lists.sort.label(alphabet: session.library.alphabet)))
            }
            list.sort = session.lists.sort
            if list.isPaged {
                list.byNumber = [:]
                list.pageOffset = 0
                try await fetch(&list, offset: 0, session: session)
            } else {
                // Top and newest lists are complete: sort them here, in the library's alphabet.
                let products = list.byNumber.keys.sorted().compactMap { list.byNumber[$0] }
                let sorted = session.library.ordering.sorted(products, by: session.lists.sort)
                list.byNumber = Dictionary(
                    uniqueKeysWithValues: sorted.enumerated().map { ($0.offset + 1, $0.element) })
                list.pageOffset = 0
                list.pageSize = max(list.pageSize, sorted.count)
            }
            session.lists.list = list
            return await session.show(list)
        })

    nonisolated static let filter = Command(
        typedName: TypedWord("typed: command", "filter"), aliases: ["f"],
        synopsis: N_("filter [available | language:CODE | category:NAME | publisher:NAME | clear [WHICH]]"),
        summary: N_("Narrow searches to available books, a language, a category or a publisher"),
        details: [
            N_("Filters stay on for later searches until cleared; filter alone shows them."),
            N_("Examples:"),
            N_("  filter available"),
            N_("  filter language:sv category:Deckare"),
            N_("  filter clear            (all)      filter clear language   (one)"),
        ],
        completion: .filters,
        inCatalogue: OPDSCommands.facet,
        run: { arguments, session in
            let words = arguments.positional
            let filters = try FilterWord.apply(words, to: session.lists.filters)
            session.lists.filters = filters
            let description = ListRenderer.describe(filters)
            guard !words.isEmpty, var list = session.lists.list, case .search = list.source else {
                return CommandOutput(
                    lines: [
                        description.map { tr("Filters: {filters}.", ["filters": $0]) }
                            ?? tr("No filters: searches cover the whole catalogue.")
                    ],
                    json: FiltersJSON(filters))
            }
            list.byNumber = [:]
            list.pageOffset = 0
            try await fetch(&list, offset: 0, session: session)
            session.lists.list = list
            return await session.show(list)
        })

    nonisolated static let view = Command(
        typedName: TypedWord("typed: command", "view"),
        synopsis: N_("view [list|grid]"),
        summary: N_("Show results as a list (one book a row) or a grid of cards"),
        details: [N_("view alone shows the current layout.")],
        completion: .words(["list", "grid"], then: []),
        run: { arguments, session in
            guard let word = arguments.positional.first else {
                return CommandOutput(
                    lines: [
                        session.lists.view == .grid
                            ? tr("Results are shown as a grid.") : tr("Results are shown as a list.")
                    ],
                    json: ["view": session.lists.view.rawValue])
            }
            guard let mode = ViewMode(rawValue: word.lowercased()) else {
                throw UserError.usage(tr("Unknown view \"{word}\". Use view list or view grid.", ["word": word]))
            }
            session.lists.view = mode
            guard var list = session.lists.list else {
                return CommandOutput(
                    lines: [
                        mode == .grid ? tr("Results will be shown as a grid.") : tr("Results will be shown as a list.")
                    ],
                    json: ["view": mode.rawValue])
            }
            // Cards take more lines than rows: the page is fitted to the window again.
            if case .search(let query) = list.source {
                list.pageSize = session.pageSize(for: .search(query: query))
                try await fillPage(&list, session: session)
                session.lists.list = list
            }
            return await session.show(list)
        })

    // MARK: Helpers

    /// Fetches what the page on screen lacks (a page fitted to a resized window may reach past
    /// the hits fetched so far).
    static func fillPage(_ list: inout ResultList, session: Session) async throws {
        let offset = list.pageOffset
        let last = min(list.total, offset + list.pageSize)
        guard let missing = (offset + 1...max(offset + 1, last)).first(where: { list.byNumber[$0] == nil }),
            missing <= list.total
        else { return }
        try await fetch(&list, offset: missing - 1, session: session)
        list.pageOffset = offset
    }

    /// Fetches the page at `offset` of `list` into it.
    static func fetch(_ list: inout ResultList, offset: Int, session: Session) async throws {
        let query: String
        switch list.source {
        case .search(let q): query = q
        case .top, .newest, .libraryPage: query = ""
        case .related:
            throw UserError(
                tr("This list is the library's choice of similar books; sort and more work on search, top and new."))
        }
        let page = try await session.library.service.search(
            SearchRequest(
                query: query, sort: list.sort, offset: offset, limit: list.pageSize, filters: session.lists.filters,
                card: session.knownCard))
        list.total = page.total
        for (index, product) in page.products.enumerated() { list.byNumber[offset + index + 1] = product }
        list.pageOffset = offset
    }

    /// The longest query bok sends: far beyond any real search, well inside a URL's limits.
    static let maxQueryLength = 500

    /// Rejoins words into query text, quoting phrases so `author:"Astrid Lindgren"` survives the shell-like split.
    static func queryText(_ words: [String]) -> String {
        words.map { word in
            guard word.contains(where: \.isWhitespace) else { return word }
            if let colon = word.firstIndex(of: ":"),
                SearchQuery.Field(rawValue: word[..<colon].lowercased()) != nil
            {
                return "\(word[...colon])\"\(word[word.index(after: colon)...])\""
            }
            return "\"\(word)\""
        }.joined(separator: " ")
    }

    static func parseKey(_ word: String) throws -> SortKey {
        if let key = SortKey(word: word) { return key }
        let keys = SortKey.allCases.map(\.word)
        let near = keys.min { CommandTable.editDistance(word, $0) < CommandTable.editDistance(word, $1) }
        let hint =
            near.map {
                CommandTable.editDistance(word.lowercased(), $0) <= 2
                    ? " " + tr("Did you mean \"{key}\"?", ["key": $0]) : ""
            } ?? ""
        throw UserError.usage(
            tr("Unknown sort key \"{word}\".", ["word": word]) + hint + " "
                + tr("Keys are {keys}.", ["keys": keys.joined(separator: ", ")]))
    }

    static func parseOrder(_ word: String) throws -> SortOrder {
        guard let order = SortOrder(word: word) else {
            throw UserError.usage(tr("Unknown direction \"{word}\". Use asc or desc.", ["word": word]))
        }
        return order
    }

    static func noList(_ command: String) -> UserError {
        UserError(tr("There are no results to page through yet. Search first, e.g. search thriller."))
    }
}
