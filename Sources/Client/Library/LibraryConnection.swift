import Catalog
import Foundation
import Localization
import Synchronization

/// The library a session runs against, made once at start by one factory per kind: the built-in
/// mock (`LibraryConnection+Mock.swift`), an Elib lending service and an OPDS catalogue
/// (`LibraryConnection+Remote.swift`).
///
/// Everything that says *which* library this is lives here, set together by the factory that
/// knows, so that no command can pair one library's service with another's name, shelf key or
/// clock: the lending service, how the shelf and the config file name the library, its name and
/// alphabet, its page once fetched, its clock, and by kind the built-in mock's server or the OPDS
/// catalogue being browsed.
@MainActor
final class LibraryConnection {
    /// What the library speaks.
    enum Kind: Equatable {
        /// The built-in mock, over its Elib API or its OPDS face.
        case mock(overOPDS: Bool)
        case elib
        case opds
    }

    /// What the library speaks.
    let kind: Kind
    /// Catalogue and lending calls.
    let service: any LendingService & PatronLending
    /// How the shelf and the config file name this library.
    let identity: LibraryIdentity
    /// The library's name, for the prompt and the banner.
    var name: String
    /// The library's alphabet for text order and direction labels.
    var alphabet: Collation.Alphabet
    /// The library page, once fetched (loan period, limits).
    var page: LibraryPage?
    /// Now and today, as the library sees them.
    let clock: LibraryClock
    /// The in-process mock server (starting or started), when the library is the built-in mock.
    let mock: BuiltInMock?
    /// The OPDS catalogue being browsed, when the library is one (a login starts a new browser).
    var catalogue: OPDSBrowser?
    /// The PINs (or catalogue passwords) this session knows, for a library that lends through OPDS.
    let pins: PINKeeper
    /// A line for the banner about which library this is.
    var note: String?

    /// How to reach what only some kinds have; set by the factory that knows the kind.
    struct Reach {
        /// The library's OPDS lending service, when it lends through OPDS (started, for the mock).
        var opdsLending: () async -> OPDSLendingService? = { nil }
        /// Where the mock's control routes would be (`/mock/` on this address); nil when nowhere.
        var controlBase: () async throws -> URL? = { nil }
        /// Starts what the library needs before the first command (the built-in mock's server).
        var warmUp: () -> Void = {}
        /// Waits until the library can answer (the built-in mock started, its clock followed).
        var ready: () async -> Void = {}
    }

    private let reach: Reach
    /// The mock's control routes, once known to be there.
    private var knownMock: MockControl?

    init(
        kind: Kind, service: any LendingService & PatronLending, identity: LibraryIdentity, name: String,
        alphabet: Collation.Alphabet, clock: LibraryClock = LibraryClock(), mock: BuiltInMock? = nil,
        catalogue: OPDSBrowser? = nil, pins: PINKeeper = PINKeeper(), reach: Reach = Reach()
    ) {
        self.kind = kind
        self.service = service
        self.identity = identity
        self.name = name
        self.alphabet = alphabet
        self.clock = clock
        self.mock = mock
        self.catalogue = catalogue
        self.pins = pins
        self.reach = reach
    }

    /// The ordering products are sorted by locally (top/new lists, plain Elib servers).
    var ordering: ProductOrdering { ProductOrdering(collation: Collation(alphabet)) }

    /// Today, in the library's calendar.
    var today: DayDate { clock.today }

    /// Loads the library page and adopts its name and locale.
    ///
    /// Days left, "today" and due dates follow the library's calendar, not this machine's: its time
    /// zone when the page names one, and its clock when the page gives it (a mock whose clock was
    /// moved, or a server whose clock is not this machine's).
    func adopt(_ page: LibraryPage) {
        self.page = page
        name = identity.configuredName ?? page.name
        if let locale = page.locale { alphabet = Collation(locale: locale).alphabet }
        if let zone = page.timeZone.flatMap(TimeZone.init(identifier:)) { clock.timeZone = zone }
        if let now = page.now, abs(now.timeIntervalSinceNow) > 60 { clock.follow(now) }
    }

    /// Asked by a sync once it has the library's lists: false while the built-in mock lends from
    /// a private state (see ``BuiltInMock/listsAreWhole``).
    var listsAreWhole: @Sendable () async -> Bool { mock?.listsAreWhole ?? { @Sendable in true } }

    /// The library's OPDS lending service, when it lends through OPDS (started, for the mock).
    func opdsLending() async -> OPDSLendingService? { await reach.opdsLending() }

    /// Starts what the library needs before the first command, while the banner is on screen.
    func warmUp() { reach.warmUp() }

    /// Now by the library's clock once it can answer, as a closure any thread may await: the
    /// start-up sync runs off the main actor, which readline holds while the patron types. The
    /// built-in mock is asked its clock; another library's is this machine's plus the offset known.
    var readyNow: @Sendable () async -> Date {
        if let mock { return { (try? await mock.now()) ?? Date() } }
        let offset = clock.now().timeIntervalSinceNow
        return { Date().addingTimeInterval(offset) }
    }

    /// Now and today by the library's clock once it can answer: the built-in mock's clock may
    /// stand weeks from the machine's, and is known only once it has started. A sync records
    /// its time by this, so "synced today" means the library's today.
    func readyClock() async -> (now: Date, today: DayDate) {
        await reach.ready()
        return (clock.now(), clock.today)
    }

    /// The mock library's control routes; refuses when the library is a real one.
    func mockControl() async throws -> MockControl {
        if let knownMock { return knownMock }
        guard let base = try await reach.controlBase() else {
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
}

/// How the shelf and the config file name a library.
struct LibraryIdentity: Sendable, Hashable {
    /// The base URL the shelf keys the library by (a stable `mock://` name for the mock, whose port
    /// changes every run).
    var baseURL: String
    /// The service id the shelf keys the library by (`opds` for a catalogue).
    var serviceID: String
    /// The config file's name for this library (`mock`, `home`), nil for the unnamed one.
    var profileName: String?
    /// The patron's own name for the library (`name = …`), which its page does not override.
    var configuredName: String?
}

/// Now and today as the library sees them: the library's clock (the mock's virtual clock may have
/// been moved) in the library's time zone.
@MainActor
final class LibraryClock {
    /// How far the library's clock is ahead of this machine's.
    private var offset: TimeInterval = 0
    private let defaultTimeZone: () -> TimeZone

    /// The moment a run on a stated clock (a scenario's `date:`) calls the patron's now.
    private let statedNow: Date?

    /// - Parameters:
    ///   - timeZone: where days are counted until the library page names a zone: the system's,
    ///     or the mock library's.
    ///   - statedNow: the patron's now in a run on a stated clock (a scenario), whose screens
    ///     must not depend on the day it runs.
    init(timeZone: @escaping () -> TimeZone = { .current }, statedNow: Date? = nil) {
        defaultTimeZone = timeZone
        self.statedNow = statedNow
    }

    /// The patron's own now, which `mock clock` counts from ("6 days from today"): the machine's,
    /// or the moment a run on a stated clock states.
    func patronNow() -> Date { statedNow ?? Date() }

    /// The time zone days are counted in, looked up at first use: loading a zone's rules loads
    /// ICU's calendar code and data, which `bok read` never needs.
    lazy var timeZone: TimeZone = defaultTimeZone()

    /// Now, by the library's clock.
    func now() -> Date { Date().addingTimeInterval(offset) }

    /// Today, in the library's calendar.
    var today: DayDate { DayDate(now(), in: timeZone) }

    /// Makes "now" follow the library's clock, which says `libraryNow` at this moment.
    func follow(_ libraryNow: Date) { offset = libraryNow.timeIntervalSince(Date()) }
}

/// The PINs (or catalogue passwords) of the cards this session logged in with, kept in memory
/// only, where a library that lends through OPDS reads them for each request.
final class PINKeeper: Sendable {
    private let pins = Mutex([String: String]())

    func keep(_ pin: String, for card: String) { pins.withLock { $0[card] = pin } }
    func forget(_ card: String) { _ = pins.withLock { $0.removeValue(forKey: card) } }
    func pin(for card: String) -> String? { pins.withLock { $0[card] } }
}
