import Catalog
import Foundation
import Localization
import Logging
import MockLending

extension LibraryConnection {
    /// The built-in mock library, as `bok --mock` (or no library configured) starts it.
    ///
    /// The server starts while the banner and prompt are shown; the first command waits for it.
    /// `overOPDS` (`--kind opds`, a scenario's `protocol: opds`) is the same library through its
    /// OPDS face.
    static func mock(
        options: GlobalOptions, config: LibraryConfig, paths: Paths, logger: Logger
    ) -> LibraryConnection {
        var configuration = options.mockConfiguration
        // One simulated library per user, remembered like a real one: every bok --mock (a second
        // terminal, a one-shot) shares its loans and clock. A stated clock is a fresh run.
        if options.mockClockStart == nil, options.mockClockRuns {
            configuration.stateFile = paths.mockState(seed: options.seed, size: options.catalogSize)
        }
        // A state file that cannot be used is said once, in the patron's words (MockStateWords).
        let stateInbox = MockStateInbox()
        configuration.onPrivateState = { problem in
            logger.debug("the mock library's shared state cannot be used", metadata: ["problem": "\(problem)"])
            stateInbox.post(problem)
        }
        let mock = BuiltInMock(server: server(configuration, logger: logger), stateInbox: stateInbox)
        let clock = LibraryClock(
            timeZone: { configuration.rules.timeZone }, statedNow: options.mockClockRuns ? nil : options.mockClockStart)
        let overOPDS = options.kind == .opds
        let pins = PINKeeper()
        let storedPIN = Startup.rememberedPIN(pins, credentials: CredentialStore(file: paths.credentialsFile))
        // Either face is made once the server has started, from its address.
        let opds = StartOnDemand { @MainActor () throws -> OPDSLendingService in
            let started = try await started(mock, clock: clock)
            return OPDSLendingService(client: OPDSClient(root: started.opdsURL, logger: logger), storedPIN: storedPIN)
        }
        let elib = StartOnDemand { @MainActor [configuration] () throws -> HTTPLendingService in
            let started = try await started(mock, clock: clock)
            let endpoint = LibraryEndpoint(
                baseURL: started.baseURL, serviceID: configuration.serviceID, serviceKey: configuration.serviceKey)
            return HTTPLendingService.patronFacing(endpoint, json: options.json, logger: logger)
        }
        let ready = StartOnDemand { () throws -> any LendingService & PatronLending in
            overOPDS ? try await opds.value : try await elib.value
        }
        // The OPDS face keeps a shelf of its own (its loans and books have other ids than the Elib
        // API's, so one shelf would take each face's loans for ended ones): its name says which it is,
        // so a second terminal on the other face lists them under a name of their own.
        let name = MockLendingServer.libraryName + (overOPDS ? " · OPDS" : "")
        // The mock's port changes every run; its shelf profile is named by what it simulates.
        let identity = LibraryIdentity(
            baseURL: "mock://bok-mock\(overOPDS ? "-opds" : "")?seed=\(options.seed)&books=\(options.catalogSize)",
            serviceID: configuration.serviceID, profileName: LibraryProfiles.mockName,
            configuredName: overOPDS ? name : nil)
        let connection = LibraryConnection(
            kind: .mock(overOPDS: overOPDS), service: DeferredLendingService(ready: ready), identity: identity,
            name: name, alphabet: .swedish, clock: clock, mock: mock, pins: pins,
            reach: Reach(
                opdsLending: { overOPDS ? try? await opds.value : nil },
                controlBase: { try await mock.baseURL() },
                warmUp: { ready.start() }, ready: { _ = try? await ready.value }))
        connection.note = note(options: options, config: config)
        return connection
    }

    /// The server, started on demand, with the mock's own words when it cannot start.
    private static func server(
        _ configuration: MockConfiguration, logger: Logger
    ) -> StartOnDemand<MockLendingServer> {
        // The server's own shutdown chatter is not for the patron; BOK_LOG=debug shows it.
        var serverLogger = logger
        if logger.logLevel > .debug { serverLogger.logLevel = .critical }
        return StartOnDemand { [serverLogger] () throws -> MockLendingServer in
            do {
                return try await MockLendingServer.start(configuration, logger: serverLogger)
            } catch let error as MockLendingServer.StartError {
                // The mock's own words say what to try (a port in use, a state file another bok holds).
                throw UserError(tr("The built-in mock library could not start: {why}", ["why": error.description]))
            } catch {
                logger.debug("the mock library did not start", metadata: ["error": "\(error)"])
                throw UserError(
                    tr(
                        "The built-in mock library could not start. Try again, or start bok with BOK_LOG=debug "
                            + "to see why."))
            }
        }
    }

    /// The started server, whose clock the session's now follows: it may have been moved by
    /// another bok, before any command counts days.
    @MainActor
    private static func started(_ mock: BuiltInMock, clock: LibraryClock) async throws -> MockLendingServer {
        let started = try await mock.server.value
        clock.follow(await started.now())
        return started
    }

    /// The banner's line about the mock: which face, seed and size, or that no library is configured.
    private static func note(options: GlobalOptions, config: LibraryConfig) -> String {
        if options.kind == .opds {
            return tr(
                "Built-in mock library over its OPDS face (simulated loans), seed {seed}, {count} books.",
                ["seed": options.seed, "count": options.catalogSize])
        }
        if options.mock || config.isMock {
            return tr(
                "Built-in mock library (simulated loans), seed {seed}, {count} books.",
                ["seed": options.seed, "count": options.catalogSize])
        }
        return tr(
            "No library is configured, so bok uses its built-in mock library (simulated loans). "
                + "See docs/configuration.md.")
    }
}
