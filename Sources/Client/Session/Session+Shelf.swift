import Catalog
import Foundation
import Localization
import Logging
import Reader
import Shelf
import Synchronization
import Terminal

/// The session's shelf: its database, the library profile, the card whose loans it shows, syncs
/// and the books on disk.
extension Session {
    /// The shelf's database, opened on first use.
    /// - Throws: `UserError` naming the file and what to do when it is not a bok database.
    func shelfStore() throws -> ShelfStore {
        if let opened = shelfState.openedShelf { return opened }
        let database: ShelfDatabase
        do {
            if let paths {
                database = try ShelfDatabase.open(at: paths.shelfDatabase)
            } else {
                database = try ShelfDatabase.inMemory()
            }
        } catch let error as ShelfError {
            throw error
        } catch {
            // The system's own words for it are for the debug log; the patron gets the file and what to do.
            logger.debug("cannot open the shelf database", metadata: ["error": "\(error)"])
            guard let file = paths?.shelfDatabase.path else {
                throw UserError(
                    tr("Could not open the shelf's database. Try again; if it keeps happening, restart bok."))
            }
            // A full disk (or a read-only one) is said as such, as when a later write fails.
            if let saving = ShelfError.saving(error, path: file) { throw saving }
            throw UserError(
                tr(
                    "Could not open your shelf's file {file}. Check that its folder is yours and writable.",
                    ["file": file]))
        }
        let store = ShelfStore(database: database, collation: Collation(library.alphabet))
        keep(store)
        return store
    }

    /// Makes `store` the session's open shelf, with the shelf order saved in it.
    private func keep(_ store: ShelfStore) {
        shelfState.openedShelf = store
        if let saved = try? store.setting(Self.shelfSortSetting), let sort = Self.parseShelfSort(saved) {
            shelfState.shelfSort = sort
        }
    }

    /// Where the reader keeps positions and notes: the shelf's database, or memory when it cannot be opened.
    var readerStore: any PositionStore { (try? shelfStore()) ?? shelfState.memoryStore }

    /// The reader's store for a book opened from a file: the open shelf, or the shelf's database
    /// opened on a thread of its own while the book is read and laid out (memory when it cannot
    /// be opened). On a first start the database is made there, and the first page does not wait
    /// for it. Give it back to ``keepReaderStore(_:)`` when the reader closes.
    func openingReaderStore() -> any PositionStore {
        if let opened = shelfState.openedShelf { return opened }
        guard let file = paths?.shelfDatabase else { return readerStore }
        let (alphabet, memory, logger) = (library.alphabet, shelfState.memoryStore, logger)
        return OpeningPositionStore(startsEmpty: access(file.path, F_OK) != 0) {
            do {
                let store = ShelfStore(database: try ShelfDatabase.open(at: file), collation: Collation(alphabet))
                store.prepareReaderReads()
                return store
            } catch {
                logger.debug("cannot open the shelf database", metadata: ["error": "\(error)"])
                return memory
            }
        }
    }

    /// Keeps the shelf an ``openingReaderStore()`` opened, so the session does not open it again.
    func keepReaderStore(_ store: any PositionStore) {
        guard shelfState.openedShelf == nil, let opening = store as? OpeningPositionStore,
            let shelf = opening.store as? ShelfStore
        else { return }
        keep(shelf)
    }

    /// The saved profile of this session's library.
    func shelfProfile() throws -> (store: ShelfStore, profileID: Int64) {
        let store = try shelfStore()
        if let profileID = shelfState.profileID { return (store, profileID) }
        let profile = try store.saveLibrary(
            name: library.name, baseURL: library.identity.baseURL, serviceID: library.identity.serviceID)
        guard let id = profile.id else {
            throw UserError(tr("Your shelf could not save this library's details. Try again."))
        }
        shelfState.profileID = id
        return (store, id)
    }

    /// The card whose loans the shelf shows: the one logged in, else the remembered one, else the
    /// last one synced on this computer (so the shelf works offline after a restart).
    func shelfCard() -> String? {
        if let card = account.card { return card }
        if let remembered = try? account.credentialStore.load() { return remembered.card }
        guard let (store, profileID) = try? shelfProfile() else { return nil }
        return try? store.lastSyncedCard(profileID: profileID)
    }

    /// Whose samples and to-be-read list the commands use: the card in use, or '' (everyone's)
    /// when none is known.
    var listCard: String { shelfCard() ?? "" }

    /// The shelf as it is stored, for the card in use.
    func currentShelf() throws -> Shelf {
        let (store, profileID) = try shelfProfile()
        // With no card known, no loans are shown: `` matches nobody's.
        let scope = ShelfScope(profileID: profileID, card: shelfCard() ?? "")
        return try store.shelf(today: library.today, sort: shelfState.shelfSort, scope: scope)
    }

    /// Brings the shelf up to date with the library, for the card in use.
    /// - Returns: nil when no card is known yet.
    /// - Throws: the service's error (then the shelf keeps its last synced state), `UserError` for the database.
    /// - Parameter expected: the product the patron just changed here (no notice for it).
    @discardableResult
    func syncShelf(expected: String? = nil) async throws -> SyncSummary? {
        guard let card = shelfCard() else { return nil }
        let (store, profileID) = try shelfProfile()
        let profile = LibraryRecord(
            id: profileID, name: library.name, baseURL: library.identity.baseURL, serviceID: library.identity.serviceID)
        let (now, today) = await library.readyClock()
        do {
            let summary = try await store.sync(
                from: library.service, card: card, profile: profile, now: now, today: today,
                expected: Set(expected.map { [$0] } ?? []), listsAreWhole: library.listsAreWhole)
            shelfState.syncProblem = nil
            notices.post(summary.notices)
            return summary
        } catch let error as LendingError {
            shelfState.syncProblem = error.message
            throw error
        }
    }

    /// Syncs after a borrow, reserve, return or cancel; a failure is logged, not shown (the
    /// command itself worked, and the next `shelf` says the shelf is behind).
    func syncAfterChange(expected: String? = nil) async {
        do {
            try await syncShelf(expected: expected)
        } catch {
            logger.notice("shelf sync after a change failed", metadata: ["error": "\(error)"])
        }
    }

    /// `mock reset`: the shelf goes back with the library. The rehearsal's loans, reservations and
    /// notices go; the seed's state is synced, a fresh start and not news.
    func shelfFollowsReset(at now: Date) async {
        let shelf = try? shelfProfile()
        do {
            try shelf.map { try $0.store.forgetLending(profileID: $0.profileID, from: now) }
        } catch {
            logger.notice("the shelf could not forget the reset library's loans", metadata: ["error": "\(error)"])
        }
        await syncAfterChange()
        _ = notices.take()
        try? shelf.map { try $0.store.forgetNotices(profileID: $0.profileID, from: now) }
    }

    /// Starts a sync that never delays the prompt; the first `shelf` waits for it.
    ///
    /// Everything, opening the database included, runs off the main actor: readline holds the
    /// main thread while the patron types, and start-up should not wait for SQLite. The task has
    /// its own connection; the session opens its own when a command needs the shelf. A database
    /// that cannot be opened is left for that command to report.
    func startSyncInBackground() {
        guard shelfState.startupSync == nil, let paths else { return }
        let (card, credentials) = (account.card, account.credentialStore)
        let (key, name, service, collation) = (
            library.identity, library.name, library.service, Collation(library.alphabet)
        )
        let (notices, listsAreWhole) = (notices, library.listsAreWhole)
        let (readyNow, zone) = (library.readyNow, library.clock.timeZone)
        shelfState.startupSync = Task.detached {
            do {
                // By the library's clock, which the built-in mock tells once it has started.
                let now = await readyNow()
                let today = DayDate(now, in: zone)
                let store = ShelfStore(database: try ShelfDatabase.open(at: paths.shelfDatabase), collation: collation)
                let profile = try store.saveLibrary(name: name, baseURL: key.baseURL, serviceID: key.serviceID)
                guard let profileID = profile.id,
                    let card = try card ?? credentials.load()?.card ?? store.lastSyncedCard(profileID: profileID)
                else {
                    return .skipped
                }
                let summary = try await store.sync(
                    from: service, card: card, profile: profile, now: now, today: today, listsAreWhole: listsAreWhole)
                notices.post(summary.notices)
                return .synced
            } catch let error as LendingError {
                return .failed(error.message)
            } catch {
                return .skipped
            }
        }
    }

    /// Where downloaded books go: `$XDG_DATA_HOME/bok/books/`.
    var booksDirectory: URL {
        (paths?.data ?? FileManager.default.temporaryDirectory.appendingPathComponent("bok-\(getpid())"))
            .appendingPathComponent("books")
    }

    // MARK: Books on disk

    /// Takes the lock held while the book file `name` is looked at, fetched and recorded
    /// (`$XDG_DATA_HOME/bok/locks/NAME.lock`, out of the books folder), waiting while another
    /// bok holds it.
    func lockDownload(_ name: String, title: String) async throws -> DownloadLock {
        let file = booksDirectory.deletingLastPathComponent().appendingPathComponent("locks").appendingPathComponent(
            name + ".lock")
        let spinner = spinner
        let quoted = theme.marks.quoted(title)
        return try await DownloadLock(file: file, timeout: BookDownloader().maxDuration) { holder, over in
            if over {
                spinner?.ended()
                return
            }
            let words =
                holder.map {
                    tr(
                        "Another bok (process {pid}) is downloading {title}; waiting for it… Ctrl-C stops waiting",
                        ["pid": $0, "title": quoted])
                }
                ?? tr("Another bok is downloading {title}; waiting for it… Ctrl-C stops waiting", ["title": quoted])
            // At a terminal the spinner says it; piped, one line on stderr.
            if let spinner {
                spinner.began(saying: words)
            } else {
                FileHandle.standardError.write(Data((words + "\n").utf8))
            }
        }
    }

    /// The file of a product on disk, downloaded (or downloaded again) when it is missing or damaged.
    ///
    /// - Parameters:
    ///   - productID: the book.
    ///   - loanID: the loan it is read under; nil for a sample.
    ///   - title: for the progress bar.
    ///   - statedSize: the EPUB's size as the library states it, when known: a server sending
    ///     more than that (plus slack) is refused while it streams.
    ///   - retry: the command that tries again (`read 3`), for a failed download's message.
    ///   - url: where to fetch it when it has to be (asked for only then: it may need the network).
    /// - Throws: `DownloadError` naming the book, with its technical detail in the debug log.
    func bookOnDisk(
        productID: String, loanID: String?, title: String, statedSize: Int? = nil, retry: String? = nil,
        url: () async throws -> URL
    ) async throws -> URL {
        do {
            return try await fetchBook(
                productID: productID, loanID: loanID, title: title, statedSize: statedSize, url: url)
        } catch let error as DownloadError {
            logger.debug(
                "download failed",
                metadata: ["product": "\(productID)", "path": "\(error.path)", "detail": "\(error.detail)"])
            throw error.about(book: theme.marks.quoted(title), retry: retry)
        }
    }

    private func fetchBook(
        productID: String, loanID: String?, title: String, statedSize: Int?, url: () async throws -> URL
    ) async throws -> URL {
        // An empty id would name the file `.epub`: hidden, and shared by every such book.
        guard !productID.allSatisfy({ $0.isWhitespace || $0 == "." }) else {
            throw UserError(
                tr(
                    "The library gave {title} no product id, so bok cannot keep a copy of it; nothing was downloaded.",
                    ["title": theme.marks.quoted(title)]))
        }
        let store = try shelfStore()
        // Another bok may be fetching this book right now: wait for it, then find its file recorded.
        let lock = try await lockDownload(Self.fileName(productID: productID, sample: false), title: title)
        defer { lock.release() }
        // A loan's file opens for any loan of the book (borrowed again: same book); a sample only as a sample.
        if let record = try store.download(productID: productID), FileManager.default.fileExists(atPath: record.path),
            (record.format == .sample) == (loanID == nil)
        {
            let file = URL(fileURLWithPath: record.path)
            if let sha = try? BookDownloader.sha256(of: file), sha == record.sha256 { return file }
            // Changed on disk since it was downloaded: refuse it and fetch a good copy.
            logger.notice(
                "downloaded file does not match its checksum; downloading again", metadata: ["path": "\(record.path)"])
            try? FileManager.default.removeItem(at: file)
            try store.removeDownload(productID: productID)
        }
        let source = try await url()
        let name = Self.fileName(productID: productID, sample: loanID == nil)
        let target = booksDirectory.appendingPathComponent(name)
        let bar = progress?.start(title: title)
        let result: BookDownloader.Result
        do {
            // A library that lends through OPDS sends a loan's file only with the patron's login.
            let authorization = await library.opdsLending()?.authorization(for: source, card: shelfCard())
            result = try await BookDownloader().download(
                from: source, to: target, statedSize: statedSize.map(Int64.init), authorization: authorization,
                expecting: .epub, progress: bar)
            progress?.finish()
        } catch {
            progress?.finish()
            throw error
        }
        try recordDownload(
            result.file, size: result.size, sha256: result.sha256, productID: productID, loanID: loanID, in: store)
        return result.file
    }

    /// Records a loan's file that was fetched elsewhere (an OPDS borrow downloads at once) on the
    /// shelf, so that it shows its ↓ and `read N` opens it without fetching it again. Best effort:
    /// the file is there either way, and `read N` records it when it is not yet.
    func recordLoanFile(_ file: URL, productID: String, loanID: String) {
        do {
            let store = try shelfStore()
            let size =
                (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
            try recordDownload(
                file, size: size, sha256: try BookDownloader.sha256(of: file), productID: productID, loanID: loanID,
                in: store)
        } catch {
            logger.notice("the loan's file was not recorded on the shelf", metadata: ["error": "\(error)"])
        }
    }

    /// This file is that product, and holds that book (as the reader names it): recorded together.
    private func recordDownload(
        _ file: URL, size: Int64, sha256: String, productID: String, loanID: String?, in store: ShelfStore
    ) throws {
        let book = (try? EPUBBook.open(path: file.path)).map { BookID.opening($0, in: store) }
        try store.recordDownload(
            DownloadRecord(
                productID: productID, loanID: loanID, path: file.path, size: size, sha256: sha256,
                format: loanID == nil ? .sample : .epub, downloadedAt: library.clock.now()),
            book: book)
    }

    /// The URL of a loan's EPUB (format 4104), from the library's list of loans.
    func loanBookURL(loanID: String, title: String) async throws -> URL {
        guard let card = shelfCard() else {
            throw UserError(
                tr(
                    "Log in first (login) so bok can fetch {title} from the library.",
                    ["title": theme.marks.quoted(title)]))
        }
        let loans = try await library.service.loans(card: card, onlyActive: true)
        guard let loan = loans.first(where: { $0.id == loanID && $0.active }) else {
            throw UserError(
                tr(
                    "The library no longer lists the loan of {title}; type shelf --sync to see why.",
                    ["title": theme.marks.quoted(title)]))
        }
        guard let link = loan.epubURL, let url = URL(string: link) else {
            throw UserError(
                tr("The library offers no EPUB to download for {title}.", ["title": theme.marks.quoted(title)]))
        }
        return url
    }

    /// `3575457.epub`, `3575457-sample.epub`: product ids are digits and letters, safe as names.
    static func fileName(productID: String, sample: Bool) -> String {
        let safe = String(productID.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        return safe + (sample ? "-sample.epub" : ".epub")
    }

    // MARK: Settings

    static let shelfSortSetting = "shelf.sort"

    /// `author asc` → a sort.
    static func parseShelfSort(_ text: String) -> ShelfSort? {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first, let key = ShelfSort.Key(rawValue: first) else { return nil }
        let order: Catalog.SortOrder? = words.count > 1 ? (words[1] == "desc" ? .descending : .ascending) : nil
        return ShelfSort(key, order)
    }
}

/// How the start-up sync ended.
enum StartupSync: Sendable {
    /// The shelf is up to date.
    case synced
    /// Nothing to sync (no card known yet) or no database to sync into: the first `shelf` tries itself.
    case skipped
    /// The library could not be reached; why.
    case failed(String)
}

extension Paths {
    /// The shelf's SQLite database.
    var shelfDatabase: URL { data.appendingPathComponent("shelf.sqlite") }
}

/// Notices a sync found and the patron has not seen yet; the REPL prints them before its next
/// prompt. A class with a lock, because the start-up sync posts from its own task.
final class NoticeInbox: Sendable {
    private let waiting = Mutex<[Notice]>([])

    func post(_ notices: [Notice]) {
        guard !notices.isEmpty else { return }
        waiting.withLock { $0 += notices }
    }

    /// The notices not shown yet, oldest first; afterwards none.
    func take() -> [Notice] {
        waiting.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }
}
