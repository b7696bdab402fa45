import Catalog
import Foundation
import Localization
import Logging
import MockLending
import Reader
import Shelf
import Synchronization

/// Everything a command may read or change: the library, the last list, the sort, the filters.
///
/// Commands run one at a time on the main actor, in the REPL, a one-shot invocation or a scenario.
@MainActor
final class Session {
    /// The lending service in use: catalogue and lending calls.
    let service: any LendingService & PatronLending
    /// The in-process mock server (starting or started), when bok runs on the built-in mock library.
    let mock: StartOnDemand<MockLendingServer>?
    /// The library's name, for the prompt and the banner.
    var libraryName: String
    /// The library's alphabet for text order and direction labels.
    var alphabet: Collation.Alphabet
    /// The library page, once fetched (loan period, limits).
    var libraryPage: LibraryPage?
    /// The lists on screen, the sort, the filters.
    var lists = Lists()
    /// The card, the PIN and who to ask for them.
    var account = Account() {
        // A library that lends through OPDS logs in on each request: it learns the PIN with the session.
        didSet { if let card = account.card, let pin = account.pin { pins.keep(pin, for: card) } }
    }
    /// The PINs this session knows, for a library that lends through OPDS (see `OPDSLendingService`).
    let pins: PINKeeper
    /// The shelf's database and sync.
    var shelfState = ShelfState()
    /// How output looks.
    var theme: Theme
    /// Diagnostics (stderr).
    let logger: Logger
    /// The process environment (for `BOK_CARD`).
    var environment: [String: String] = [:]
    /// Where bok keeps its files (history, credentials, the shelf database, books); nil keeps the shelf in memory.
    var paths: Paths?
    /// The library as the shelf names it: base URL (a stable `mock://` name for the mock) and service id.
    var libraryKey = LibraryKey(baseURL: "mock://bok-mock", serviceID: "bok-mock")
    /// The config file's name for this library (`mock`, `home`), nil for the unnamed one.
    var profileName: String?
    /// The patron's own name for the library (`name = …`), which its page does not override.
    var configuredName: String?
    /// Shows that a command waits for the library (at a terminal only).
    var spinner: WaitSpinner?
    /// What syncs found changed at the library, waiting to be told (see `Notice`).
    let notices = NoticeInbox()
    /// What the built-in mock found wrong with its shared state, waiting to be told.
    var mockState = MockStateInbox()
    /// Draws download progress (a bar on stderr at a terminal); nil draws nothing.
    var progress: DownloadProgressBar?
    /// Reading state when the shelf's database cannot be opened: kept for this session only.
    let memoryStore = InMemoryPositionStore()
    /// Now, as the library sees it (the mock's virtual clock when on the mock).
    var clock: @Sendable () -> Date = { Date() }
    /// The time zone days are counted in, looked up at first use: loading a zone's rules loads
    /// ICU's calendar code and data, which `bok read` never needs.
    lazy var timeZone: TimeZone = defaultTimeZone()
    /// Where ``timeZone`` comes from until something sets it: the system's, or the mock library's.
    var defaultTimeZone: () -> TimeZone = { .current }
    /// The OPDS catalogue being browsed, when the library is one (then there is no lending).
    var catalogue: CatalogueBrowser?
    /// What a scenario's steps may reach, when the session runs one (nil at the prompt).
    var confinement: ScenarioConfinement?

    /// The mock's control routes, once known to be there.
    private var knownMock: MockControl?

    /// The mock library's control routes; refuses when the library is a real one.
    func mockControl() async throws -> MockControl {
        if let knownMock { return knownMock }
        let base: URL?
        if let mock {
            base = try await mock.value.baseURL
        } else {
            base = (service as? HTTPLendingService)?.endpoint.baseURL
        }
        guard let base else {
            throw UserError(
                tr("This library is not the mock: mock commands only work with bok --mock or bok mock-server."))
        }
        let control = MockControl(libraryBase: base)
        let answersControl = mock != nil ? true : await control.isMock()
        guard answersControl else {
            throw UserError(
                tr("This is a real library: mock commands only work with bok --mock or bok mock-server."))
        }
        knownMock = control
        return control
    }

    /// Makes "today" follow the library's clock (the mock's virtual clock may have been moved).
    func followLibraryClock(_ mockNow: Date) {
        let offset = mockNow.timeIntervalSince(Date())
        clock = { Date().addingTimeInterval(offset) }
    }

    /// The library's OPDS lending service, when it lends through OPDS (started, for the mock).
    func opdsLending() async -> OPDSLendingService? {
        if let deferred = service as? DeferredLendingService {
            return try? await deferred.service as? OPDSLendingService
        }
        return service as? OPDSLendingService
    }

    /// The patron availability is shown for: the one logged in, else the remembered card.
    var knownCard: String? { account.card ?? (try? account.credentialStore.load())?.card }

    /// Today, in the library's calendar.
    var today: DayDate { DayDate(clock(), in: timeZone) }

    /// A library as the shelf's profiles name it.
    struct LibraryKey: Sendable, Hashable {
        var baseURL: String
        var serviceID: String
    }

    /// List or grid layout of results.
    enum ViewMode: String, Sendable, CaseIterable {
        case list, grid
    }

    init(
        service: any LendingService & PatronLending, mock: StartOnDemand<MockLendingServer>?, libraryName: String,
        alphabet: Collation.Alphabet, theme: Theme, logger: Logger, pins: PINKeeper = PINKeeper()
    ) {
        self.pins = pins
        self.service = service
        self.mock = mock
        self.libraryName = libraryName
        self.alphabet = alphabet
        self.theme = theme
        self.logger = logger
    }

    /// The ordering products are sorted by locally (top/new lists, plain Elib servers).
    var ordering: ProductOrdering { ProductOrdering(collation: Collation(alphabet)) }

    /// Loads the library page and adopts its name and locale.
    ///
    /// Days left, "today" and due dates follow the library's calendar, not this machine's: its time
    /// zone when the page names one, and its clock when the page gives it (a mock whose clock was
    /// moved, or a server whose clock is not this machine's).
    func adopt(_ page: LibraryPage) {
        libraryPage = page
        libraryName = configuredName ?? page.name
        if let locale = page.locale { alphabet = Collation(locale: locale).alphabet }
        if let name = page.timeZone, let zone = TimeZone(identifier: name) { timeZone = zone }
        if let now = page.now, abs(now.timeIntervalSinceNow) > 60 { followLibraryClock(now) }
    }

    /// The product id of `id:X`; nil when `word` is not written so.
    /// - Throws: `UserError.usage` for `id:` with nothing after it.
    static func productID(_ word: String, command: String) throws -> String? {
        guard word.lowercased().hasPrefix("id:") else { return nil }
        let id = word.dropFirst(3).trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty else {
            throw UserError.usage(
                tr("id: needs a product id after it, e.g. {command} id:3947650.", ["command": spoken(command)]))
        }
        return id
    }

    /// Resolves `N` (a number of the last list) or a product id to a product id.
    ///
    /// Numbers up to 999 are list numbers; anything longer, or `id:X`, is a product id.
    func resolve(_ word: String, command: String) throws -> (id: String, known: Product?) {
        if let id = try Self.productID(word, command: command) { return (id, nil) }
        if let number = Int(word), word.count <= 3 {
            guard let list = lists.list, list.highestNumber > 0 else {
                throw UserError(
                    tr(
                        "There is no list to pick book {number} from yet. Search first (e.g. search thriller), "
                            + "or give a product id: {command} id:12345.",
                        ["number": number, "command": Self.spoken(command)]))
            }
            guard number >= 1, let product = list.byNumber[number] else {
                let count = list.highestNumber
                throw UserError(
                    trn(
                        "No book {number} in the last results (there is {n}). Pick 1–{n}, or run search again.",
                        "No book {number} in the last results (there are {n}). Pick 1–{n}, or run search again.",
                        count, ["number": number]))
            }
            return (product.id, product)
        }
        // A bare word is a product id only if it looks like one (digits): `borrow abc` is a typo,
        // and must be refused before anyone is asked for a card.
        guard word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
            word.contains(where: \.isNumber)
        else {
            throw UserError.usage(
                tr(
                    "\"{word}\" is neither a result number nor a product id. Try {command} 1.",
                    ["word": word, "command": Self.spoken(command)]))
        }
        return (word, nil)
    }
}

/// The concerns a session keeps, each its own type.
extension Session {
    /// The lists on screen and how searches are asked: what a number typed next means.
    struct Lists {
        /// The last list shown.
        var list: ResultList?
        /// The order searches use.
        var sort = SortSpec(.relevance)
        /// Filters searches use.
        var filters = SearchFilters()
        /// List or grid.
        var view: ViewMode = .list
        /// Hits per page.
        var pageSize = 20
        /// Which list the numbers on screen belong to; nil before any numbered list was shown.
        var numbered: NumberedList?
        /// The last loans list shown, so `return 2` knows which loan 2 is.
        var loanList: [Loan] = []
        /// The last reservations list shown, for `cancel 2`.
        var reservationList: [Reservation] = []
        /// The last shelf or to-be-read list shown, so `read 2` knows which book 2 is.
        var shelfList: [ShelfItem] = []
        /// Loans and reservations ended from the list on screen, so a second `return 2` says so.
        var endedFromList: Set<String> = []
    }

    /// Who the patron is in this session, and how to ask them for a card or PIN.
    struct Account {
        /// Who to ask for a card or PIN; nil when nobody can be asked (piped, one-shot without a terminal).
        var prompt: (any PatronPrompt)?
        /// The remembered card and PIN (`login --remember`).
        var credentialStore = CredentialStore(file: URL(fileURLWithPath: "/nonexistent/bok/credentials"))
        /// The card this session has logged in with.
        var card: String?
        /// The PIN of `card`, kept in memory for this session only.
        var pin: String?
        /// The patron, once verified.
        var patron: Patron?
    }

    /// The shelf's database and how its sync with the library went.
    struct ShelfState {
        /// The shelf's database, once opened (see `shelfStore()`).
        var openedShelf: ShelfStore?
        /// The library profile's row id, once saved.
        var profileID: Int64?
        /// The shelf's order (`shelf sort`).
        var shelfSort = ShelfSort()
        /// The sync started with the REPL, awaited by the first `shelf`.
        var startupSync: Task<StartupSync, Never>?
        /// True once the shelf has synced in this session (the first `shelf` syncs otherwise).
        var syncedThisSession = false
        /// Why the last sync failed, or nil when it worked (or none was tried).
        var syncProblem: String?
    }
}

/// The PINs (or catalogue passwords) of the cards this session logged in with, kept in memory
/// only, where a library that lends through OPDS reads them for each request.
final class PINKeeper: Sendable {
    private let pins = Mutex([String: String]())

    func keep(_ pin: String, for card: String) { pins.withLock { $0[card] = pin } }
    func forget(_ card: String) { _ = pins.withLock { $0.removeValue(forKey: card) } }
    func pin(for card: String) -> String? { pins.withLock { $0[card] } }
}
