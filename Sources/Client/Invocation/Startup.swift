import Catalog
import Foundation
import Localization
import Logging
import Terminal

/// Connects to the library bok will use: a configured one, or the built-in mock.
@MainActor
struct Startup {
    /// The session commands run in.
    let session: Session
    /// A line for the banner about which library this is.
    var note: String? { session.library.note }
    /// Lines for stderr before anything else: what was wrong with the config file (`bok --mock` starts without it).
    var warnings: [String] = []

    /// - Parameter profiles: the config file as read once at start (read here when nil).
    static func connect(
        options: GlobalOptions, environment: [String: String], profiles: Result<LibraryProfiles, any Error>? = nil,
        theme: Theme, logger: Logger
    ) async throws -> Startup {
        let paths = Paths(environment: environment)
        var warnings: [String] = []
        var config: LibraryConfig
        do {
            let profiles = try (profiles ?? Result { try LibraryProfiles.load(file: paths.configFile) }).get()
            config = try LibraryConfig.resolve(
                profiles, file: paths.configFile, environment: environment, profile: options.libraryName)
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

        let library: LibraryConnection
        if options.mock || config.isMock || !config.isConfigured {
            library = .mock(options: options, config: config, paths: paths, logger: logger)
        } else if let url = config.url, await LibraryConnection.isCatalogue(config, url: url, logger: logger) {
            library = .opds(config: config, url: url, logger: logger)
        } else {
            library = try await .elib(config: config, json: options.json, logger: logger)
        }
        let session = Session(library: library, theme: theme, logger: logger)
        session.environment = environment
        session.paths = paths
        session.account.credentialStore = CredentialStore(file: paths.credentialsFile)
        library.catalogue.map(session.attach)
        // Download progress is for a person at a terminal; piped or --json output gets none.
        if isatty(2) == 1, !options.json {
            session.progress = DownloadProgressBar(marks: theme.marks, width: TerminalSize.current().columns)
            session.spinner = WaitSpinner(marks: theme.marks, dim: { theme.dim($0) })
        }
        return Startup(session: session, warnings: warnings)
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
}
