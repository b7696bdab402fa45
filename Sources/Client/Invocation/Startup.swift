import Catalog
import Foundation
import Localization
import Logging
import MockLending
import Terminal

/// Connects to the library bok will use: a configured one, or the built-in mock.
@MainActor
struct Startup {
    /// The session commands run in.
    let session: Session
    /// A line for the banner about which library this is.
    let note: String?
    /// Lines for stderr before anything else: what was wrong with the config file (`bok --mock` starts without it).
    var warnings: [String] = []

    static func connect(
        options: GlobalOptions, environment: [String: String], theme: Theme, logger: Logger
    ) async throws -> Startup {
        let startup = try await open(options: options, environment: environment, theme: theme, logger: logger)
        let paths = Paths(environment: environment)
        let session = startup.session
        session.environment = environment
        session.account.credentialStore = CredentialStore(file: paths.credentialsFile)
        session.catalogue.map(session.attach)
        session.paths = paths
        // Download progress is for a person at a terminal; piped or --json output gets none.
        if isatty(2) == 1, !options.json {
            session.progress = DownloadProgressBar(marks: session.theme.marks, width: TerminalSize.current().columns)
            let theme = session.theme
            session.spinner = WaitSpinner(marks: theme.marks, dim: { theme.dim($0) })
        }
        return startup
    }

    private static func open(
        options: GlobalOptions, environment: [String: String], theme: Theme, logger: Logger
    ) async throws -> Startup {
        let paths = Paths(environment: environment)
        var config: LibraryConfig
        var warnings: [String] = []
        do {
            config = try LibraryConfig.load(
                file: paths.configFile, environment: environment, profile: options.libraryName)
        } catch  where options.mock && options.libraryName == nil {
            // The built-in mock needs nothing of the config file: a mistake there is said, not in the way.
            warnings.append(
                tr("{problem} bok --mock starts without it.", ["problem": ErrorReport.message(for: error)]))
            config = LibraryConfig()
        }
        if let url = options.libraryURL {
            config = LibraryConfig(
                url: try LibraryConfig.parseURL(url, source: "--library"), serviceID: config.serviceID,
                serviceKey: config.serviceKey, locale: config.locale)
        }
        if let kind = options.kind { config.kind = kind }

        if options.mock || config.isMock || !config.isConfigured {
            var configuration = options.mockConfiguration
            // One simulated library per user, remembered like a real one: every bok --mock (a
            // second terminal, a one-shot) shares its loans and clock. A stated clock is a fresh run.
            if options.mockClockStart == nil, options.mockClockRuns {
                configuration.stateFile = paths.mockState(seed: options.seed, size: options.catalogSize)
            }
            // A state file that cannot be used is said once, in the patron's words (MockStateWords).
            let mockState = MockStateInbox()
            configuration.onPrivateState = { problem in
                logger.debug("the mock library's shared state cannot be used", metadata: ["problem": "\(problem)"])
                mockState.post(problem)
            }
            // The server's own shutdown chatter is not for the patron; BOK_LOG=debug shows it.
            var serverLogger = logger
            if logger.logLevel > .debug { serverLogger.logLevel = .critical }
            // The server starts while the banner and prompt are shown; the first command waits for it.
            let server = StartOnDemand { @MainActor [configuration, serverLogger] () throws -> MockLendingServer in
                do {
                    return try await MockLendingServer.start(configuration, logger: serverLogger)
                } catch let error as MockLendingServer.StartError {
                    // The mock's own words say what to try (a port in use, a state file another bok holds).
                    throw UserError(
                        tr("The built-in mock library could not start: {why}", ["why": error.description]))
                } catch {
                    logger.debug("the mock library did not start", metadata: ["error": "\(error)"])
                    throw UserError(
                        tr(
                            "The built-in mock library could not start. Try again, or start bok with BOK_LOG=debug "
                                + "to see why."))
                }
            }
            let clock = LibraryClockFollower()
            // `--kind opds` (a scenario's `protocol: opds`): the same library through its OPDS face.
            let overOPDS = options.kind == .opds
            let pins = PINKeeper()
            let storedPIN = rememberedPIN(pins, credentials: CredentialStore(file: paths.credentialsFile))
            let ready = StartOnDemand { @MainActor [configuration] () throws -> any LendingService & PatronLending in
                let started = try await server.value
                // Its clock may have been moved by another bok, before any command counts days.
                clock.follow(await started.now())
                if overOPDS {
                    return OPDSLendingService(
                        client: OPDSClient(root: started.opdsURL, logger: logger), storedPIN: storedPIN)
                }
                let endpoint = LibraryEndpoint(
                    baseURL: started.baseURL, serviceID: configuration.serviceID,
                    serviceKey: configuration.serviceKey)
                return service(endpoint, options: options, logger: logger)
            }
            // The OPDS face keeps a shelf of its own (its loans and books have other ids than the Elib
            // API's, so one shelf would take each face's loans for ended ones): its name says which it is,
            // so a second terminal on the other face lists them under a name of their own.
            let name = MockLendingServer.libraryName + (overOPDS ? " · OPDS" : "")
            let session = Session(
                service: DeferredLendingService(ready: ready), mock: server, libraryName: name, alphabet: .swedish,
                theme: theme, logger: logger, pins: pins)
            if overOPDS { session.configuredName = name }
            session.mockState = mockState
            session.defaultTimeZone = { configuration.rules.timeZone }
            clock.session = session
            // The mock's port changes every run; its shelf profile is named by what it simulates.
            session.libraryKey = .init(
                baseURL: "mock://bok-mock\(overOPDS ? "-opds" : "")?seed=\(options.seed)&books=\(options.catalogSize)",
                serviceID: configuration.serviceID)
            session.profileName = LibraryProfiles.mockName
            let note =
                overOPDS
                ? tr(
                    "Built-in mock library over its OPDS face (simulated loans), seed {seed}, {count} books.",
                    ["seed": options.seed, "count": options.catalogSize])
                : options.mock || config.isMock
                    ? tr(
                        "Built-in mock library (simulated loans), seed {seed}, {count} books.",
                        ["seed": options.seed, "count": options.catalogSize])
                    : tr(
                        "No library is configured, so bok uses its built-in mock library (simulated loans). "
                            + "See docs/configuration.md.")
            return Startup(session: session, note: note, warnings: warnings)
        }

        if let url = config.url, try await isCatalogue(config, url: url, logger: logger) {
            var client = OPDSClient(
                root: url.absoluteString.hasSuffix("/") && url.path.count > 1
                    ? URL(string: String(url.absoluteString.dropLast()))! : url,
                logger: logger)
            client.redirectsAllowed = config.redirectsAllowed
            let name = config.name ?? client.displayName
            let session = Session.catalogue(
                client, name: name, alphabet: Collation(locale: config.locale ?? "sv-SE").alphabet, theme: theme,
                logger: logger)
            session.libraryKey = .init(baseURL: url.absoluteString, serviceID: "opds")
            session.profileName = config.profile
            return Startup(
                session: session,
                note: tr("{library} is an OPDS catalogue: browse, search, info N, get N, read N.", ["library": name]))
        }
        let endpoint = try config.endpoint()
        let session = Session(
            service: service(endpoint, options: options, logger: logger), mock: nil,
            libraryName: config.name ?? endpoint.displayName,
            alphabet: Collation(locale: config.locale ?? "sv-SE").alphabet, theme: theme, logger: logger)
        session.libraryKey = .init(baseURL: endpoint.baseURL.absoluteString, serviceID: endpoint.serviceID)
        // A short look at the library page for its name; the prompt must not wait long for a slow server.
        let quick = HTTPLendingService(endpoint: endpoint, timeout: 2, logger: logger)
        var note: String?
        do {
            let page = try await quick.library()
            // The patron's own name for the library (name = … in its profile) stays.
            session.configuredName = config.name
            session.adopt(page)
            if let locale = config.locale { session.alphabet = Collation(locale: locale).alphabet }
        } catch let error as LendingError where error.kind == .notFound {
            // A plain Elib server has no library page; the configured name stands.
        } catch {
            note = tr(
                "Could not reach the library yet ({why}) Commands will try again.",
                ["why": ErrorReport.message(for: error)])
        }
        session.profileName = config.profile
        return Startup(session: session, note: note)
    }

    /// A PIN for a card: one this session was given, else the one remembered with `login --remember`.
    static func rememberedPIN(
        _ pins: PINKeeper, credentials: CredentialStore
    ) -> @Sendable (String) -> String? {
        { card in
            if let pin = pins.pin(for: card) { return pin }
            guard let kept = try? credentials.load(), kept.card == card else { return nil }
            return kept.pin
        }
    }

    /// Whether the configured library is an OPDS catalogue: said so (`kind = opds`, `--kind opds`),
    /// or, with no kind and no Elib service id, found out by asking the URL for a feed.
    static func isCatalogue(_ config: LibraryConfig, url: URL, logger: Logger) async throws -> Bool {
        switch config.kind {
        case .opds?: return true
        case .elib?: return false
        case nil:
            guard config.serviceID == nil else { return false }
            let trimmed =
                url.absoluteString.hasSuffix("/") ? URL(string: String(url.absoluteString.dropLast())) ?? url : url
            do {
                _ = try await OPDSClient(root: trimmed, timeout: 5, logger: logger).feed()
                return true
            } catch let error as LendingError where error.kind == .unauthorized {
                return true
            } catch {
                logger.debug("not an OPDS catalogue", metadata: ["url": "\(url.absoluteString)", "error": "\(error)"])
                return false
            }
        }
    }

    /// The lending client for `endpoint`: `--json` output gets the server's words verbatim (they are
    /// JSON-escaped, never drawn); everything else gets them made safe to draw where they are decoded.
    private static func service(
        _ endpoint: LibraryEndpoint, options: GlobalOptions, logger: Logger
    ) -> HTTPLendingService {
        var service = HTTPLendingService(endpoint: endpoint, logger: logger)
        service.textPolicy = options.json ? .verbatim : .display
        return service
    }
}

/// Makes the session's "today" follow the built-in mock's clock once the server has started
/// (the session is made before the server is ready).
@MainActor
final class LibraryClockFollower {
    weak var session: Session? {
        didSet { if let pending { follow(pending) } }
    }
    private var pending: Date?

    func follow(_ now: Date) {
        guard let session else {
            pending = now
            return
        }
        session.followLibraryClock(now)
        pending = nil
    }
}
