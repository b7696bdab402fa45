import Catalog
import Foundation
import Logging
import MockLending
import Terminal

@testable import Client

/// A REPL on a fresh mock library on port 0, with colour off, capturing what it prints.
@MainActor
final class Harness {
    let server: MockLendingServer
    let session: Session
    let printer: CapturingPrinter
    let repl: REPL
    let configuration: MockConfiguration
    /// A fresh XDG data directory: the shelf's database and downloaded books go here.
    let dataDirectory: URL

    /// The mock library's date in these tests.
    static let day = DayDate(year: 2026, month: 11, day: 21)

    init(
        seed: UInt64 = 1, catalogSize: Int = 600, timeout: TimeInterval = 5, theme: Theme = .plain,
        dialect: APIDialect = .full, rules: MockRules = MockRules(), wrapsToTheme: Bool = false,
        wrap: (HTTPLendingService) -> any LendingService & PatronLending = { $0 }
    ) async throws {
        // The screen as a terminal of the theme's width shows it, or every line whole.
        printer = CapturingPrinter(width: wrapsToTheme ? theme.width : 0)
        // A stopped clock on a fixed day: due dates and badges are the same on every run.
        configuration = MockConfiguration(
            seed: seed, catalogSize: catalogSize,
            clockStart: Harness.day.startDate(in: MockRules.stockholm).addingTimeInterval(10 * 3600),
            rules: rules, clockRuns: false, dialect: dialect)
        server = try await MockLendingServer.start(
            configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let endpoint = LibraryEndpoint(
            baseURL: server.baseURL, serviceID: configuration.serviceID, serviceKey: configuration.serviceKey)
        let service = HTTPLendingService(endpoint: endpoint, timeout: timeout)
        let base = server.baseURL
        let library = LibraryConnection(
            kind: .mock(overOPDS: false), service: wrap(service),
            identity: LibraryIdentity(baseURL: base.absoluteString, serviceID: configuration.serviceID),
            name: "test", alphabet: .swedish, mock: BuiltInMock(server: StartOnDemand { [server] in server }),
            reach: .init(controlBase: { base }))
        session = Session(
            library: library, theme: theme, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        if let page = try? await service.library() { session.library.adopt(page) }
        session.library.clock.follow(await server.now())
        session.library.clock.timeZone = MockRules.stockholm
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bok-harness-\(UUID().uuidString)")
        session.environment = [
            "HOME": dataDirectory.path, "XDG_DATA_HOME": dataDirectory.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": dataDirectory.appendingPathComponent("config").path,
            "XDG_STATE_HOME": dataDirectory.appendingPathComponent("state").path,
        ]
        session.paths = Paths(environment: session.environment)
        session.account.credentialStore = CredentialStore(file: session.paths!.credentialsFile)
        repl = REPL(session: session, printer: printer)
    }

    /// Runs one line and returns what the screen shows for it.
    @discardableResult
    func run(_ line: String) async -> [String] {
        printer.clear()
        await repl.execute(line)
        return printer.screen
    }

    /// The screen of one line as one string.
    func text(_ line: String) async -> String { await run(line).joined(separator: "\n") }

    /// The errors the last line printed.
    var errors: [String] { printer.errors }

    /// Runs a one-shot command with `--json` and decodes its object.
    func json(_ words: [String]) async throws -> [String: Any] {
        let capture = CapturingPrinter()
        let code = await Bok.oneShot(words, json: true, session: session, printer: capture)
        let line = capture.screen.first ?? ""
        guard code == 0, let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HarnessError(message: "exit \(code): \(capture.screen.joined(separator: "\n"))")
        }
        return object
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The numbered hit lines of a rendered list: `(number, mark line)`.
func hitLines(_ screen: [String]) -> [(number: Int, line: String)] {
    screen.compactMap { line in
        // A hit line: the number right-aligned, two spaces, then the availability mark.
        guard let match = line.firstMatch(of: /^ *(\d+)  (.*)$/), let n = Int(match.1) else { return nil }
        return (n, String(match.2))
    }
}
