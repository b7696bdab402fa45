import Catalog
import Foundation
import Localization
import Logging
import Reader
import Shelf

/// Everything a command may read or change: the library it runs against, the lists on screen,
/// the patron's account and shelf.
///
/// Commands run one at a time on the main actor, in the REPL, a one-shot invocation or a scenario.
@MainActor
final class Session {
    /// The library: its service, name, clock, and the mock or OPDS catalogue behind it.
    let library: LibraryConnection
    /// The lists on screen, the sort, the filters.
    var lists = Lists()
    /// The card, the PIN and who to ask for them.
    var account = Account() {
        // A library that lends through OPDS logs in on each request: it learns the PIN with the session.
        didSet { if let card = account.card, let pin = account.pin { library.pins.keep(pin, for: card) } }
    }
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
    /// Whether `info` may draw the book's cover: at a terminal only, never for `--json`, a
    /// recording, a screen reader, a scenario or a study (bok turns it on where it may).
    var drawsCovers = false
    /// Whether a cover that is not drawn is named in words (`[cover]`): in a recording, which keeps
    /// no pictures but should show where one was.
    var namesCovers = false
    /// The covers `view grid` has drawn this session, by product (nil: the library has none).
    var coverCache: [String: RasterImage?] = [:]
    /// How covers are drawn in pixels (nil inside: half-blocks); nil until the first cover is
    /// drawn (``CoverArt/pixels(in:)``).
    var coverPixels: CoverPixels??
    /// The covers fetched after a list was shown (`shelf --covers`, `view grid`'s late ones): a
    /// one-shot waits for them.
    var coverFetch: Task<Void, Never>?
    /// How long `view grid` waits for covers not at hand before it shows the cards: text first,
    /// and a cover that comes later is kept for the next time the page is shown.
    var gridCoverWait: Duration = .milliseconds(500)
    /// Shows that a command waits for the library (at a terminal only).
    var spinner: WaitSpinner?
    /// Draws download progress (a bar on stderr at a terminal); nil draws nothing.
    var progress: DownloadProgressBar?
    /// What syncs found changed at the library, waiting to be told (see `Notice`).
    let notices = NoticeInbox()
    /// What a scenario's steps may reach, when the session runs one (nil at the prompt).
    var confinement: ScenarioConfinement?

    /// The patron availability is shown for: the one logged in, else the remembered card.
    var knownCard: String? { account.card ?? (try? account.credentialStore.load())?.card }

    init(library: LibraryConnection, theme: Theme, logger: Logger) {
        self.library = library
        self.theme = theme
        self.logger = logger
    }

    /// The product id of `id:X`; nil when `word` is not written so.
    /// - Throws: `UserError.usage` for `id:` with nothing after it.
    static func productID(_ word: String, command: String) throws -> String? {
        guard word.lowercased().hasPrefix("id:") else { return nil }
        let id = word.dropFirst(3).trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty else {
            throw UserError.usage(
                tr("id: needs a product id after it, e.g. {command} id:3947650.", ["command": Command.spoken(command)]))
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
                        ["number": number, "command": Command.spoken(command)]))
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
                    ["word": word, "command": Command.spoken(command)]))
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
        /// Reading state when the shelf's database cannot be opened: kept for this session only.
        let memoryStore = InMemoryPositionStore()
    }
}
