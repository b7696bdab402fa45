import Catalog
import Foundation
import Logging
import MockLending
import TestSupport
import Testing

@testable import Client

/// Logging in to a catalogue that sends an Authentication for OPDS document (issue 14): the
/// library's own words for the fields, a wrong PIN in words, `login --remember` and `logout`.
/// The catalogue is ``AuthenticatingCatalogue`` on 127.0.0.1; the patron is a scripted prompt.
@MainActor
@Suite("Logging in to a catalogue with an authentication document", .serialized)
struct CatalogueLoginTests {
    /// A REPL on the catalogue at `root`, as `bok --library ROOT --kind opds` starts, its files under `home`.
    @MainActor
    final class Catalogue {
        let session: Session
        let printer = CapturingPrinter()
        let repl: REPL
        let prompt: ScriptedPatronPrompt

        init(root: URL, home: URL, answers: [String] = [], secrets: [String] = []) {
            let client = OPDSClient(root: root, timeout: 5)
            session = Session(
                library: .opds(client, name: "Stadsbiblioteket", alphabet: .swedish), theme: .plain,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            session.environment = [
                "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            ]
            session.paths = Paths(environment: session.environment)
            session.account.credentialStore = CredentialStore(file: session.paths!.credentialsFile)
            session.attach(session.library.catalogue!)
            prompt = ScriptedPatronPrompt(answers: answers, secrets: secrets)
            session.account.prompt = prompt
            repl = REPL(session: session, printer: printer)
        }

        func text(_ line: String) async -> String {
            printer.clear()
            await repl.execute(line)
            return printer.screen.joined(separator: "\n")
        }
    }

    @Test("login asks with the document's labels after its title and description, and a wrong PIN is said in words")
    func labelsAndAWrongPIN() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let root = server.baseURL.appendingPathComponent("root.json")

        // A wrong PIN, and nothing more typed at the second question: the catalogue's refusal stands.
        let wrong = Catalogue(root: root, home: home, answers: ["12345"], secrets: ["0000"])
        let refused = await wrong.text("login")
        // While it asks again it says so; "Type login" only once it has stopped asking.
        #expect(
            wrong.prompt.told == [
                "Stadsbiblioteket", "Log in with your library card and its PIN.",
                "The catalogue at 127.0.0.1:\(server.port) did not accept that Library card and PIN. Type the PIN "
                    + "again, or press Return to stop.",
            ], "\(wrong.prompt.told)")
        #expect(wrong.prompt.asked == ["Library card: ", "PIN: ", "PIN: "], "\(wrong.prompt.asked)")
        #expect(wrong.printer.errors.count == 1, "\(refused)")
        #expect(refused.contains("did not accept that Library card and PIN. Type login to try again."), "\(refused)")
        #expect(!showsStatus(refused, 401) && !refused.contains("HTTP") && !refused.contains("0000"), "\(refused)")
        #expect(await wrong.text("browse").contains("asks for your Library card and PIN"))

        // A wrong PIN then the right one at the question asked again; the description is shown once.
        let right = Catalogue(root: root, home: home, answers: ["12345"], secrets: ["0000", "4321"])
        let shown = await right.text("login")
        #expect(right.prompt.asked == ["Library card: ", "PIN: ", "PIN: "], "\(right.prompt.asked)")
        #expect(right.prompt.told.last?.hasSuffix("Type the PIN again, or press Return to stop.") == true)
        #expect(shown.contains("Logged in to 127.0.0.1:\(server.port) as 12345."), "\(shown)")
        #expect(shown.contains("Ödemarken · Åsa Berg"), "\(shown)")
        #expect(!shown.contains("4321"))
        #expect(await right.text("browse").contains("Ödemarken"))
        #expect(!FileManager.default.fileExists(atPath: right.session.account.credentialStore.file.path))
    }

    @Test("login --remember: the next session browses without asking; logout forgets it; the file is 0600")
    func rememberAndForget() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: "äpple = 4321 # x")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let root = server.baseURL.appendingPathComponent("root.json")

        let first = Catalogue(root: root, home: home, answers: ["12345"], secrets: ["äpple = 4321 # x"])
        // A remembered library card is kept beside the catalogue's login.
        try first.session.account.credentialStore.save(.init(card: "1002", pin: "2345"))
        let shown = await first.text("login --remember")
        #expect(shown.contains("The login for 127.0.0.1:\(server.port) is saved in"), "\(shown)")
        let file = first.session.account.credentialStore.file
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("äpple = 4321 # x"))
        let json = try await first.json(["login", "--user", "12345", "--password-file", "/nonexistent"])
        #expect(json == nil, "a missing password file is refused")

        let next = Catalogue(root: root, home: home)
        let browsed = await next.text("browse")
        #expect(browsed.contains("Ödemarken"), "\(browsed)")
        #expect(next.prompt.asked.isEmpty && next.printer.errors.isEmpty, "\(next.prompt.asked) \(next.printer.errors)")

        let out = await next.text("logout")
        #expect(out.contains("Logged out of 127.0.0.1:\(server.port). The remembered login is deleted."), "\(out)")
        #expect(try next.session.account.credentialStore.load() == .init(card: "1002", pin: "2345"))
        #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("äpple"))
        let third = Catalogue(root: root, home: home)
        #expect(await third.text("browse").contains("asks for your Library card and PIN"))
    }

    @Test("A remembered login in a file others can read is refused with what to do, and not sent")
    func refusesAFileOthersCanRead() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let root = server.baseURL.appendingPathComponent("root.json")
        let first = Catalogue(root: root, home: home)
        try first.session.account.credentialStore.save(.init(user: "12345", password: "4321"), for: root)
        let file = first.session.account.credentialStore.file
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let next = Catalogue(root: root, home: home)
        let said = await next.text("browse")
        #expect(said.contains("can be read by others") && said.contains("chmod 600"), "\(said)")
        #expect(!said.contains("Ödemarken") && server.requests.isEmpty, "the login was used anyway")
    }

    @Test("A catalogue that offers only OAuth, or sends a broken document: one line each, and bok goes on")
    func unsupportedAndBroken() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let oauth = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: AuthenticatingCatalogue.oauthOnly)
        defer { oauth.stop() }
        let one = Catalogue(root: oauth.baseURL.appendingPathComponent("root.json"), home: home, answers: ["a"])
        let said = await one.text("login")
        #expect(said.contains("logs in with OAuth, which bok does not support") && !said.contains("\n"), "\(said)")
        #expect(one.prompt.asked.isEmpty, "nothing is asked for a flow bok cannot use")

        let broken = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: #"{"title": "Trasig", "authentication": 7"#)
        defer { broken.stop() }
        let two = Catalogue(
            root: broken.baseURL.appendingPathComponent("root.json"), home: home, answers: ["a"], secrets: ["b"])
        let shown = await two.text("login")
        #expect(shown.contains("describes its login in a way bok cannot read"), "\(shown)")
        #expect(two.prompt.asked.first?.hasPrefix("User name for 127.0.0.1") == true, "\(two.prompt.asked)")
        #expect(shown.contains("Ödemarken"), "plain HTTP Basic still logs in: \(shown)")
    }

    @Test("A document of 100 000 flows is read in a couple of seconds, and what bok says of it stays short (issue 27)")
    func aFloodOfFlows() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        /// A few lines of a screen, none of them a page long.
        func short(_ lines: [String]) -> Bool { lines.count <= 3 && lines.allSatisfy { $0.count <= 400 } }

        // No basic flow: one line that names what the catalogue offers, for login and for browse.
        let flood = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: AuthenticatingCatalogue.flood(flows: 100_000))
        defer { flood.stop() }
        let one = Catalogue(root: flood.baseURL.appendingPathComponent("root.json"), home: home, answers: ["a"])
        var started = ContinuousClock.now
        let refused = await one.text("login")
        let browsed = await one.text("browse")
        #expect(started.duration(to: .now) < .seconds(3), "\(started.duration(to: .now))")
        #expect(
            refused.contains("logs in with flow-0, flow-1, flow-2") && refused.contains("which bok does not support"))
        #expect(browsed.contains("which bok does not support"), "\(browsed.prefix(300))")
        for text in [refused, browsed] {
            let lines = text.components(separatedBy: "\n")
            #expect(short(lines), "\(lines.count) lines, the longest \(lines.map(\.count).max() ?? 0) characters")
        }
        #expect(one.prompt.asked.isEmpty && one.prompt.told.isEmpty)

        // The basic flow among the first: its labels are asked with, after the title and description, each cut short.
        let basic = try AuthenticatingCatalogue.start(
            user: "a", password: "b", document: AuthenticatingCatalogue.flood(flows: 100_000, basicAt: 3))
        defer { basic.stop() }
        let two = Catalogue(
            root: basic.baseURL.appendingPathComponent("root.json"), home: home, answers: ["a"], secrets: ["b"])
        started = .now
        let shown = await two.text("login")
        #expect(started.duration(to: .now) < .seconds(3), "\(started.duration(to: .now))")
        #expect(shown.contains("Ödemarken"), "\(shown.prefix(300))")
        #expect(two.prompt.asked == ["Kort 3: ", "PIN 3: "], "\(two.prompt.asked)")
        #expect(two.prompt.told.first?.hasPrefix("Stadsbiblioteket Stadsbiblioteket") == true)
        // The catalogue's words: its title and description, a line and a few lines' worth.
        #expect(short(two.prompt.told), "\(two.prompt.told.map(\.count))")
        #expect(two.prompt.told.count == 2 && two.prompt.told[0].count <= 100, "\(two.prompt.told.map(\.count))")
    }
}

@MainActor
extension CatalogueLoginTests.Catalogue {
    /// A one-shot with `--json`: its object, or nil when it failed.
    func json(_ words: [String]) async throws -> [String: Any]? {
        let capture = CapturingPrinter()
        let code = await Bok.oneShot(words, json: true, session: session, printer: capture)
        guard code == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: Data((capture.screen.first ?? "").utf8)) as? [String: Any]
    }
}

extension CatalogueLoginTests {
    /// Runs `body` with the mock library (600 books, seed 1) on 127.0.0.1 and an empty home, both
    /// gone after.
    static func atMockLibrary(_ body: (MockLendingServer, URL) async throws -> Void) async throws {
        let server = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 600),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let home = try temporaryHome()
        defer {
            try? FileManager.default.removeItem(at: home)
            Task { await server.stop() }
        }
        try await body(server, home)
    }
}
