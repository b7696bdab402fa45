public import Catalog
public import Foundation
import Hummingbird
import HummingbirdCore
public import Localization
public import Logging
import NIOCore

/// The mock lending server: a real HTTP server on loopback that implements `elib-api.md` over a
/// generated library.
///
/// `bok --mock` and the tests start it in-process with `start(_:logger:)` on port 0 and read the
/// chosen port, as `bok mock-server` does before it waits for Ctrl-C.
public final class MockLendingServer: Sendable {
    /// The API base URL, e.g. `http://127.0.0.1:54321/library/v3.0/`.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int
    /// The root feed of the same library's OPDS face, e.g. `http://127.0.0.1:54321/opds/`.
    public var opdsURL: URL { URL(string: OPDSRoutes.base + "/", relativeTo: baseURL)!.absoluteURL }
    /// The KOReader progress-sync face, e.g. `http://127.0.0.1:54321/kosync`.
    public var kosyncURL: URL { URL(string: KOSyncRoutes.base, relativeTo: baseURL)!.absoluteURL }
    /// Seconds spent generating the catalogue and building its index before listening.
    public let preparationSeconds: Double

    let library: MockLibrary
    private let task: Task<Void, any Error>
    private let gate: AcceptGate

    /// The path all library API routes live under.
    public static let apiBasePath = "/library/v3.0"

    private init(
        baseURL: URL, port: Int, preparationSeconds: Double, library: MockLibrary,
        task: Task<Void, any Error>, gate: AcceptGate
    ) {
        self.baseURL = baseURL
        self.port = port
        self.preparationSeconds = preparationSeconds
        self.library = library
        self.task = task
        self.gate = gate
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong and what to try.
        public let description: String
    }

    /// Generates the library and starts serving it; returns once the port is bound.
    /// - Parameters:
    ///   - configuration: Seed, size, credentials and address.
    ///   - logger: Where the server's diagnostics go; Hummingbird's own info messages are kept
    ///     out unless the logger is at debug level or below.
    /// - Throws: `StartError` when the address cannot be bound (e.g. the port is taken).
    public static func start(_ configuration: MockConfiguration, logger: Logger) async throws -> MockLendingServer {
        let started = ContinuousClock.now
        let library = MockLibrary(configuration: configuration)
        let preparation = started.duration(to: .now)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let gate = AcceptGate()
        let application = makeApplication(library, gate: gate, logger: logger) { port in
            continuation.yield(port)
            continuation.finish()
        }
        let task = Task {
            defer { continuation.finish() }
            try await application.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let reason: String
            switch await task.result {
            case .failure(let error): reason = String(describing: error)
            case .success: reason = "the server stopped at once"
            }
            throw StartError(
                description:
                    """
                    The mock lending server could not listen on \(configuration.host):\(configuration.port): \
                    \(reason). Try another port, or 0 for any free one.
                    """
            )
        }
        logger.info(
            "mock lending server listening",
            metadata: [
                "url": "\(baseURL(host: configuration.host, port: port))", "products": "\(configuration.catalogSize)",
                "seed": "\(configuration.seed)",
            ])
        return MockLendingServer(
            baseURL: baseURL(host: configuration.host, port: port), port: port,
            preparationSeconds: Self.seconds(preparation), library: library, task: task, gate: gate)
    }

    /// Stops serving, waits until the port is closed, and closes the shared state file (after
    /// the index cache has been written, when the catalogue's index was built at this start).
    public func stop() async {
        await withCheckedContinuation { done in
            library.indexCacheWritten.notify(queue: .global()) { done.resume() }
        }
        await gate.closeAndSettle()
        task.cancel()
        _ = await task.result
        library.close()
    }

    // MARK: Virtual clock and seed

    /// The virtual time now (it runs at the speed of real time between moves).
    public func now() async -> Date { library.now() }

    /// The simulated library's name, known before the server has started.
    public static var libraryName: String { MockLibraryPage.name }

    /// The library page as `GET library` serves it, without a round trip (for an in-process client's banner).
    public func libraryPage() async -> LibraryPage { library.libraryPage() }

    /// Moves the virtual clock by `seconds` (back when negative); loans that run out meanwhile
    /// end and reservations whose turn comes become ready, as if the time had passed.
    public func advanceClock(by seconds: TimeInterval) async { library.advanceClock(by: seconds) }

    /// Sets the virtual clock to `date`, processing the days passed on the way; moving back
    /// undoes nothing.
    public func setClock(_ date: Date) async { library.setClock(date) }

    /// Returns to the seed: patrons, loans, queues, faults and the clock as at start-up. A state
    /// file that cannot be used is rebuilt.
    public func reset() async { library.reset() }

    /// Why this server lends from a state of its own rather than the one the user's other
    /// `bok --mock` share: nil when it shares it, or keeps its state in memory by design. Its
    /// lists of loans then leave out the shared library's: a loan missing there has not ended.
    public var sharedStateProblem: SharedStateProblem? { library.sharedStateProblem }

    // MARK: Assembly

    static func makeApplication(
        _ library: MockLibrary, gate: AcceptGate, logger: Logger,
        onPort: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let configuration = library.configuration
        let router = Router(context: MockRequestContext.self)
        let api = router.group(RouterPath(apiBasePath)).add(middleware: FaultMiddleware(library: library))
        let authentication = ServiceAuthentication(
            serviceID: configuration.serviceID, serviceKey: configuration.serviceKey)
        LibraryRoutes(library: library, authentication: authentication).register(on: api)
        LendingRoutes(library: library, authentication: authentication).register(on: api)
        let mock = router.group("mock")
        ControlRoutes(library: library).register(on: mock)
        ContentRoutes(library: library).register(on: mock)
        // The OPDS face: the same library, state and faults as the API, for OPDS clients.
        let opds = router.group(RouterPath(OPDSRoutes.base)).add(middleware: FaultMiddleware(library: library))
        OPDSRoutes(library: library).register(on: opds)
        // KOReader's progress sync (kosync), for e-readers and bok's `[sync NAME] kind = kosync`.
        KOSyncRoutes().register(on: router)

        var serverLogger = logger
        if logger.logLevel > .debug { serverLogger.logLevel = max(logger.logLevel, .warning) }
        return Application(
            router: router,
            // The idle timeout also bounds reading a request head: Hummingbird counts a connection
            // as idle until a whole head has arrived, so bytes dripped into a head do not keep it open.
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil,
                availableConnectionsDelegate: ConnectionLimit(maximum: configuration.maxConnections, gate: gate)),
            onServerRunning: { channel in onPort(channel.localAddress?.port ?? configuration.port) },
            logger: serverLogger)
    }

    static func baseURL(host: String, port: Int) -> URL {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(hostPart):\(port)\(apiBasePath)/")!
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

extension MockLendingServer.StartError: PatronFacingError {
    public var patronMessage: String { description }
}
