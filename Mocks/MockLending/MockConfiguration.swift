public import Foundation

/// How to start the mock lending server: which catalogue, which credentials, where to listen.
/// How much of the API the mock offers, so clients can be tested against a plain Elib server.
public enum APIDialect: String, Sendable, CaseIterable {
    /// Upstream Elib and all of this project's extensions.
    case full
    /// Search works, but hits carry no embedded `Availability` (clients must ask per product).
    case searchWithoutAvailability
    /// Upstream Elib only: no search, library page, reservations or early return.
    case upstreamOnly
}

public struct MockConfiguration: Sendable {
    /// Seed of the generated catalogue and of the starting state; equal seeds, equal libraries.
    public var seed: UInt64
    /// Number of products (default 600; 200 000 for benchmarks).
    public var catalogSize: Int
    /// The service id clients must send as `serviceid`.
    public var serviceID: String
    /// The secret checksums are computed with.
    public var serviceKey: String
    /// TCP port; 0 lets the system choose a free one (read it from `MockLendingServer.port`).
    public var port: Int
    /// Address to listen on; loopback only by default, as the mock has no real security.
    public var host: String
    /// Where the virtual clock starts; nil for the real time at start-up. The clock then runs at
    /// the speed of real time, and `POST /mock/clock` moves it on.
    public var clockStart: Date?
    /// The lending rules.
    public var rules: MockRules
    /// False stops the clock: it moves only when told to (`POST /mock/clock`), so tests and
    /// scripted scenarios see the same times however long they take.
    public var clockRuns: Bool
    /// How much of the API to offer (default: all of it).
    public var dialect: APIDialect
    /// How long a connection may sit without a whole request head (or between requests) before
    /// the server closes it, so half-sent requests (a slowloris) cannot hold connections open.
    public var idleTimeout: Duration = .seconds(10)
    /// At most this many connections at once; past it the server stops accepting until one
    /// closes. Room for normal clients beside a 2 000-connection slowloris, while the mock
    /// stays under 100 MB with every slot taken (about 15 KB a connection: 94 MB at 2 980).
    public var maxConnections = 2_500
    /// Where the library's state is kept and shared with other processes (`bok --mock` uses
    /// `$XDG_STATE_HOME/bok/`); nil keeps it in memory, fresh from the seed (`bok mock-server`,
    /// scenario runs, tests).
    public var stateFile: URL?
    /// Where a large catalogue's search index is kept between starts (`$XDG_CACHE_HOME/bok/`,
    /// by default `~/.cache/bok/`); nil builds it at every start.
    public var indexCacheDirectory: URL? = MockConfiguration.defaultIndexCacheDirectory
    /// Catalogues of at least this many titles use the index cache; smaller ones are generated
    /// in less time than reading a file takes (600 books: a few milliseconds).
    public var indexCacheMinimumSize = 50_000

    /// `$XDG_CACHE_HOME/bok` when that is an absolute path, else `$HOME/.cache/bok`; nil without either.
    public static var defaultIndexCacheDirectory: URL? {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("bok")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".cache").appendingPathComponent("bok")
    }

    /// Told when the state file cannot be used (damaged, read-only, removed…) and this process
    /// lends from a private state from then on: once per problem, from whichever thread found it,
    /// under the library's lock (post it somewhere; do not call the server back).
    public var onPrivateState: (@Sendable (SharedStateProblem) -> Void)?

    /// Creates a configuration.
    public init(
        seed: UInt64 = 1, catalogSize: Int = 600, serviceID: String = "bok-mock", serviceKey: String = "mock-secret",
        port: Int = 0, host: String = "127.0.0.1", clockStart: Date? = nil, rules: MockRules = MockRules(),
        clockRuns: Bool = true,
        dialect: APIDialect = .full
    ) {
        self.seed = seed
        self.catalogSize = catalogSize
        self.serviceID = serviceID
        self.serviceKey = serviceKey
        self.port = port
        self.host = host
        self.clockStart = clockStart
        self.rules = rules
        self.clockRuns = clockRuns
        self.dialect = dialect
    }
}
