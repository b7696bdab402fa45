import Catalog
import Foundation
import Localization
import Logging
import Shelf
import Terminal

/// `shelf`, `tbr`, `sample` and `remove`: the patron's bookshelf.
@MainActor
enum ShelfCommands {
    nonisolated static let shelf = Command(
        typedName: TypedWord("typed: command", "shelf"), aliases: ["books", "bookshelf"],
        synopsis: N_(
            "shelf [--sync] [--covers] [--library NAME] | shelf sort title|author|days|recent [asc|desc]"),
        summary: N_("Your loans with days left, reservations, samples and to-be-read list"),
        details: [
            N_(
                "Sections: Loans (12 days, 3 days in yellow, today in red), Ended, Ready to borrow, "
                    + "Reserved (#2 in queue · ~9 Jan), Samples, To be read. ↓ marks a book on this computer, "
                    + "42% how much of it you have read. Its numbers become the ones read N, notes N, remove N, "
                    + "info N, borrow N, return N and cancel N use, until another list is shown."),
            N_(
                "The shelf syncs when bok starts and after borrow, reserve, return and cancel; --sync syncs now. "
                    + "With the library out of reach it shows the shelf as last synced, and books on disk still open."
            ),
            N_(
                "view grid shows cards instead of lines. Loans and reservations at your other libraries follow, "
                    + "each under its library's name as last synced; shelf --library NAME shows one library's alone."
            ),
            N_(
                "--covers shows each book's small cover at its left (above its card in view grid), in real pixels "
                    + "where the terminal draws them; a book whose cover bok has not kept yet gets a card with its "
                    + "title, and its cover is fetched after the shelf is shown, for the next time."),
            N_("Examples:  shelf     shelf --sync     shelf --covers     shelf --library home"),
            N_("           shelf sort author asc     shelf sort days"),
        ],
        valued: PatronCommands.patronOptions.union(["library"]), flags: ["sync", "covers", "pin-stdin"],
        completion: .typedWords([SearchCommands.sort.typedName], then: ShelfSort.Key.allCases.map(\.typedWord)),
        run: { arguments, session in
            if let word = arguments.positional.first, SearchCommands.sort.typedName.isNamed(word) {
                return try sort(Array(arguments.positional.dropFirst()), session: session)
            }
            guard arguments.positional.isEmpty else {
                throw UserError.usage(tr("Usage: shelf [--sync], or shelf sort title|author|days|recent [asc|desc]."))
            }
            if arguments.option("card") != nil {
                _ = try await PatronCommands.ensurePatron(arguments, command: "shelf", session: session)
            }
            return try await show(
                session: session, forceSync: arguments.flag("sync"), library: arguments.option("library"),
                covers: arguments.flag("covers"))
        })

    /// Syncs when asked (or when nothing has synced yet this session), then shows the shelf.
    static func show(
        session: Session, forceSync: Bool, library narrowed: String? = nil, covers: Bool = false
    ) async throws -> CommandOutput {
        if let pending = session.shelfState.startupSync {
            session.shelfState.startupSync = nil
            switch await pending.value {
            case .synced:
                session.shelfState.syncProblem = nil
                session.shelfState.syncedThisSession = true
            case .failed(let problem):
                session.shelfState.syncProblem = problem
            case .skipped:
                break
            }
        }
        var offline = false
        // A shelf the disk will not save (full, read-only) is shown as last saved, with why.
        var saveProblem = try session.shelfStore().database.readOnlyBecause
        if forceSync || !session.shelfState.syncedThisSession {
            do {
                if try await session.syncShelf() != nil { session.shelfState.syncedThisSession = true }
            } catch let error as LendingError {
                // The shelf as last synced is still worth showing; the status line says why it may be behind.
                session.logger.info("shelf sync failed", metadata: ["error": "\(error)"])
                offline = true
            } catch let error as ShelfError where error.isCannotSave {
                saveProblem = error
            }
        }
        var shelf = try session.currentShelf()
        let (store, profileID) = try session.shelfProfile()
        var others = try otherLibraries(session: session, store: store, profileID: profileID)
        if let narrowed {
            if narrowed == session.library.identity.profileName || narrowed == session.library.name {
                others = []
            } else if let one = others.first(where: { $0.library.profile == narrowed || $0.library.name == narrowed }) {
                shelf = Shelf(sections: [])
                others = [one]
            } else {
                throw UserError(
                    tr(
                        "No library called {name} has books on your shelf. library list shows your libraries.",
                        ["name": narrowed]))
            }
        }
        let items = ShelfRenderer.items(shelf, others: others)
        session.lists.shelfList = items
        let notice = session.numbersNow(.shelf, count: items.count)
        var renderer = session.shelfRenderer
        var missingCovers: [(id: String, url: URL)] = []
        if covers, CoverArt.shown(in: session) {
            (renderer.covers, missingCovers) = session.shelfCovers(items)
        }
        let synced = try store.lastSync(profileID: profileID)
        let card = session.shelfCard()
        let m = session.theme.marks
        var status: [String]
        let order = session.theme.dim(
            " \(m.middleDot) "
                + tr("sorted by {order}", ["order": label(session.shelfState.shelfSort, session: session)]))
        if let card {
            status = [
                session.theme.bold(tr("Shelf")) + " \(m.middleDot) " + tr("card {card}", ["card": card])
                    + " \(m.middleDot) " + renderer.syncedWords(synced) + order
            ]
            if let saveProblem { status.append(session.theme.yellow(saveProblem.description)) }
            if offline || session.shelfState.syncProblem != nil {
                let why = session.shelfState.syncProblem ?? tr("the library did not answer.")
                status.append(
                    session.theme.yellow(
                        tr(
                            "Offline: {why} This is your shelf as last synced; books on disk still open.",
                            ["why": why])))
            }
        } else {
            status = [
                session.theme.bold(tr("Shelf")) + " \(m.middleDot) "
                    + session.theme.dim(tr("not logged in: login shows your loans and reservations here")) + order
            ]
        }
        var lines = renderer.lines(shelf, status: status, others: others)
        if let notice, !items.isEmpty {
            lines += [
                "",
                notice
                    + session.theme.dim(
                        " " + tr("read N, info N, borrow N, return N, cancel N and remove N use them.")),
            ]
        }
        if !missingCovers.isEmpty {
            lines += [
                "",
                session.theme.dim(
                    trn(
                        "{n} cover is on its way; shelf --covers shows it next time.",
                        "{n} covers are on their way; shelf --covers shows them next time.", missingCovers.count)),
            ]
        }
        var output = CommandOutput(
            lines: lines,
            json: ShelfJSON(
                items: items, card: card, syncedAt: synced, offline: offline || session.shelfState.syncProblem != nil,
                sort: session.shelfState.shelfSort))
        if renderer.covers != nil, let pixels = CoverArt.pixels(in: session) {
            output.pictures = CoverArt.pictures(renderer.coverBoxes(items), pixels: pixels, theme: session.theme)
        }
        // After the shelf is on screen: it never waits for a cover.
        session.fetchShelfCovers(missingCovers)
        return output
    }

    /// The loans and reservations at the patron's other libraries, as last synced there (each
    /// with the card last used at it); samples and the to-be-read list are the card's, shown above.
    static func otherLibraries(
        session: Session, store: ShelfStore, profileID: Int64
    ) throws -> [(library: OtherLibrary, shelf: Shelf)] {
        let configured =
            (try? LibraryProfiles.load(file: session.paths?.configFile ?? URL(fileURLWithPath: "/nonexistent")))?.named
            ?? []
        var others: [(library: OtherLibrary, shelf: Shelf)] = []
        for profile in try store.libraries() where profile.id != profileID {
            guard let id = profile.id, let card = try store.lastSyncedCard(profileID: id) else { continue }
            let full = try store.shelf(
                today: session.library.today, sort: session.shelfState.shelfSort,
                scope: ShelfScope(profileID: id, card: card))
            let lending = Shelf(
                sections: full.sections.filter { [.loans, .ended, .ready, .reserved].contains($0.kind) })
            guard !lending.isEmpty else { continue }
            let name =
                profile.baseURL.hasPrefix("mock://")
                ? LibraryProfiles.mockName
                : configured.first {
                    $0.url?.absoluteString == profile.baseURL && ($0.serviceID ?? "opds") == profile.serviceID
                }?.profile
            others.append((OtherLibrary(name: profile.name, profile: name), lending))
        }
        return others
    }

    /// `shelf sort author asc`: kept for the next session too.
    static func sort(_ words: [String], session: Session) throws -> CommandOutput {
        guard let keyWord = words.first else {
            return CommandOutput(
                lines: [
                    tr(
                        "The shelf is sorted by {order}. Keys: {keys}; add asc or desc.",
                        [
                            "order": label(session.shelfState.shelfSort, session: session),
                            "keys": ShelfSort.Key.allCases.map(\.word).joined(separator: ", "),
                        ])
                ],
                json: ["sort": session.shelfState.shelfSort.key.rawValue])
        }
        // Named in the interface language; both languages' words are understood.
        let keys = ShelfSort.Key.allCases.map(\.word)
        guard words.count <= 2 else {
            throw UserError.usage(tr("Usage: shelf sort {keys} [asc|desc].", ["keys": keys.joined(separator: "|")]))
        }
        guard let key = ShelfSort.Key(word: keyWord) else {
            throw UserError.usage(
                tr(
                    "Unknown shelf order \"{word}\". Use {keys}.",
                    ["word": keyWord, "keys": Words.list(keys, last: tr("or"))]))
        }
        let order: Catalog.SortOrder
        if words.count == 2 {
            order = try SearchCommands.parseOrder(words[1])
        } else if key == session.shelfState.shelfSort.key {
            order = session.shelfState.shelfSort.order.flipped
        } else {
            order = key.defaultOrder
        }
        session.shelfState.shelfSort = ShelfSort(key, order)
        let store = try session.shelfStore()
        try store.setSetting(Session.shelfSortSetting, to: "\(key.rawValue) \(order == .ascending ? "asc" : "desc")")
        let shelf = try session.currentShelf()
        let items = ShelfRenderer.items(shelf)
        session.lists.shelfList = items
        if !items.isEmpty { session.lists.numbered = .shelf }
        let status = [tr("Shelf sorted by {order}.", ["order": label(session.shelfState.shelfSort, session: session)])]
        return CommandOutput(
            lines: session.shelfRenderer.lines(shelf, status: status),
            json: ShelfJSON(
                items: items, card: session.shelfCard(), syncedAt: nil, offline: false,
                sort: session.shelfState.shelfSort))
    }

    /// `author, A→Ö`, `days, fewest days first`, `recent, newest first`: in the library's alphabet.
    static func label(_ sort: ShelfSort, session: Session) -> String {
        sort.label(alphabet: session.library.alphabet, arrow: session.theme.marks.arrow)
    }

    // MARK: To be read

    nonisolated static let tbr = Command(
        typedName: TypedWord("typed: command", "tbr"), aliases: ["toread"],
        synopsis: N_("tbr | tbr add N | tbr rm N"),
        summary: N_("Your to-be-read list: add books from the last list, remove them by their number"),
        details: [
            N_("tbr add N takes N from the last search or top list; tbr rm N takes N from the tbr list."),
            N_("Examples:  tbr add 3     tbr     tbr rm 1"),
        ],
        completion: .words(["add", "rm"], then: []),
        run: { arguments, session in
            let words = arguments.positional
            let store = try session.shelfStore()
            let q = session.theme.marks
            switch words.first?.lowercased() {
            case nil:
                return try listToBeRead(session: session)
            case "add"?:
                guard words.count == 2 else {
                    throw UserError.usage(tr("Usage: tbr add N (a number from the last list)."))
                }
                let picked = try await session.pick(words[1], command: "tbr add")
                let (id, known) = (picked.productID, picked.known)
                let product = try await session.product(id, known: known)
                try store.addToBeRead(
                    card: session.listCard, productID: id, title: product.title,
                    authors: ShelfStore.authorLine(product),
                    now: session.library.clock.now())
                session.keepCoverAddress(of: product)
                let count = try store.toBeRead(card: session.listCard).count
                return CommandOutput(
                    lines: [
                        trn(
                            "Added {title} to your to-be-read list ({n} book).",
                            "Added {title} to your to-be-read list ({n} books).", count,
                            ["title": q.quoted(product.title)])
                    ],
                    json: ["added": id])
            case "rm"?, "remove"?, "del"?:
                guard words.count == 2 else { throw UserError.usage(tr("Usage: tbr rm N (a number from tbr).")) }
                let list = try store.toBeRead(card: session.listCard)
                let record: ToBeReadRecord
                if let id = try Session.productID(words[1], command: "tbr rm") {
                    guard let found = list.first(where: { $0.productID == id }) else {
                        throw UserError(
                            tr("Product {id} is not on your to-be-read list. Type tbr to see it.", ["id": id]))
                    }
                    record = found
                } else {
                    record = try Session.item(
                        Int(words[1]) ?? 0, of: list,
                        empty: tr("Your to-be-read list is empty. tbr add N adds a book from the last search."),
                        missing: {
                            trn(
                                "No book on the to-be-read list {number} (there is {n}). Type tbr to see them.",
                                "No book on the to-be-read list {number} (there are {n}). Type tbr to see them.", $0,
                                ["number": words[1]])
                        })
                }
                try store.removeToBeRead(card: session.listCard, productID: record.productID)
                return CommandOutput(
                    lines: [tr("Took {title} off your to-be-read list.", ["title": q.quoted(record.title)])],
                    json: ["removed": record.productID])
            default:
                throw UserError.usage(tr("Usage: tbr, tbr add N or tbr rm N."))
            }
        })

    static func listToBeRead(session: Session) throws -> CommandOutput {
        let shelf = try session.currentShelf()
        let entries = shelf.entries(.toBeRead)
        session.lists.shelfList = entries.map { ShelfItem(kind: .toBeRead, entry: $0) }
        let notice = session.numbersNow(.shelf, count: entries.count)
        guard !entries.isEmpty else {
            return CommandOutput(
                lines: [tr("Your to-be-read list is empty. tbr add N adds a book from the last search.")],
                json: ShelfJSON(items: [], card: nil, syncedAt: nil, offline: false, sort: session.shelfState.shelfSort)
            )
        }
        let renderer = session.shelfRenderer
        let width = max(2, String(entries.count).count)
        let badgeWidth = entries.compactMap { $0.badge.map { DisplayWidth.of($0.text) } }.max() ?? 0
        var lines = [session.theme.bold(tr("To be read")) + session.theme.dim(" (\(entries.count))")]
        lines += entries.enumerated().map {
            renderer.row($0.offset + 1, $0.element, numberWidth: width, badgeWidth: badgeWidth)
        }
        lines += [
            "",
            (notice.map { $0 + " " } ?? "")
                + session.theme.dim(tr("borrow N, sample N and info N use them; tbr rm N takes one off.")),
        ]
        return CommandOutput(
            lines: lines,
            json: ShelfJSON(
                items: session.lists.shelfList, card: nil, syncedAt: nil, offline: false,
                sort: session.shelfState.shelfSort))
    }

    // MARK: Samples and files

    nonisolated static let sample = Command(
        typedName: TypedWord("typed: command", "sample"), aliases: ["teaser"],
        synopsis: N_("sample N | sample id:PRODUCT"),
        summary: N_("Download a book's free sample to your shelf (no loan needed)"),
        details: [
            N_("The sample goes on the shelf with the Sample badge; read N opens it."),
            N_("Examples:  sample 2     sample id:100042"),
        ],
        completion: .resultNumbers,
        run: { arguments, session in
            let word = try LoanCommands.single(
                arguments, usage: tr("Usage: sample N (a number from the last list) or sample id:PRODUCT."))
            let picked = try await session.pick(word, command: "sample")
            let (id, known) = (picked.productID, picked.known)
            let product = try await session.product(id, known: known)
            let q = session.theme.marks
            guard let teaser = product.teaser, let url = URL(string: teaser.url) else {
                throw UserError(
                    tr(
                        "{title} has no sample. borrow {number} or tbr add {number} instead.",
                        ["title": q.quoted(product.title), "number": word]))
            }
            let file = try await session.bookOnDisk(
                productID: id, loanID: nil, title: product.title, retry: tr("sample {number}", ["number": word])
            ) { url }
            let store = try session.shelfStore()
            try store.addSample(
                card: session.listCard, productID: id, title: product.title, authors: ShelfStore.authorLine(product),
                path: file.path,
                now: session.library.clock.now())
            session.keepCoverAddress(of: product)
            let size = Words.bytes(Int(BookDownloader.size(of: file)))
            var line = tr(
                "The sample of {title} is on your shelf ({size}).", ["title": q.quoted(product.title), "size": size])
            if session.lists.numbered == .shelf {
                // The shelf on screen gains a line: its numbers are renewed, and the sample's is given.
                let items = ShelfRenderer.items(try session.currentShelf())
                session.lists.shelfList = items
                if let number = items.firstIndex(where: { $0.kind == .samples && $0.entry.productID == id }) {
                    line += " " + tr("read {number} opens it.", ["number": number + 1])
                }
            } else {
                line += " " + tr("read {number} opens it.", ["number": Int(word) == nil ? "id:\(id)" : word])
            }
            return CommandOutput(lines: [line], json: ["sample": id, "path": file.path])
        })

    nonisolated static let remove = Command(
        typedName: TypedWord("typed: command", "remove"), aliases: ["rm", "delete"],
        synopsis: N_("remove N"),
        summary: N_("Delete a book's file from this computer (N from shelf); a sample leaves the shelf"),
        details: [N_("A loan stays a loan: read N downloads it again. Example:  remove 2")],
        run: { arguments, session in
            let word = try LoanCommands.single(arguments, usage: tr("Usage: remove N (a number from shelf)."))
            let item = try await session.shelfItem(
                for: session.pick(word, command: "remove", fallback: .shelf), word: word, command: "remove")
            let store = try session.shelfStore()
            let q = session.theme.marks
            let title = item.entry.title
            let record = try store.download(productID: item.entry.productID)
            if let record { try? FileManager.default.removeItem(atPath: record.path) }
            try store.removeDownload(productID: item.entry.productID)
            var line: String
            if item.kind == .samples {
                try store.removeSample(card: session.listCard, productID: item.entry.productID)
                line = tr("Removed the sample of {title}.", ["title": q.quoted(title)])
            } else if let record {
                line = tr(
                    "Deleted {title} from this computer ({size}).",
                    ["title": q.quoted(title), "size": Words.bytes(Int(record.size))])
                if item.kind == .loans {
                    line += " " + tr("It is still on loan: read {number} downloads it again.", ["number": word])
                }
            } else {
                line = tr("{title} has no file on this computer.", ["title": q.quoted(title)])
            }
            session.lists.shelfList = []
            return CommandOutput(lines: [line], json: ["removed": item.entry.productID])
        })

}
