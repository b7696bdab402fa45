import Foundation
import TestSupport
import Testing

/// The real binary at a terminal logs in to a catalogue that sends an authentication document
/// (issue 14), with `--record` and `BOK_LOG=debug` on: the password is typed once, never echoed,
/// and is in no file but the 0600 credentials file; the next bok browses without asking.
@Suite("A catalogue's password stays secret", .serialized)
struct CatalogueLoginProcessTests {
    static let password = "s3cret-apple"

    @Test("login --remember at a terminal: the library's labels, no password on screen, in the recording or the log")
    func rememberedAtATerminal() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: Self.password)
        defer { server.stop() }
        let root = server.baseURL.appendingPathComponent("root.json").absoluteString
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-opds-login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // A Python pty plays the patron; bok's stderr (the debug log) goes to a file of its own.
        let script =
            patronScript(
                arguments: [
                    "\"--library\"", "\"\(root)\"", "\"--kind\"", "\"opds\"", "\"--record\"",
                    "home + \"/session.jsonl\"",
                ],
                environment: ["TERM": "xterm", "BOK_LOG": "debug"], stderrFile: "debug.log")
                + """
                until("> ")
                type("login --remember"); until("Library card: ")
                type("12345"); until("PIN: ")
                time.sleep(0.3)
                type("\(Self.password)"); until("is saved in")
                type("browse"); until("info N, get N, read N for a book", 10)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let screen = try await runPatronScript(script, binary: OneShotProcessTests.binary, home: home)
        #expect(screen.contains("Stadsbiblioteket") && screen.contains("Log in with your library card and its PIN."))
        #expect(screen.contains("Library card: ") && screen.contains("PIN: "), "\(screen)")
        #expect(screen.contains("Logged in to 127.0.0.1:\(server.port) as 12345."), "\(screen)")
        #expect(screen.contains("Ödemarken"), "\(screen)")
        #expect(!screen.contains(Self.password), "the password was echoed")

        let credentials = home.appendingPathComponent("config/bok/credentials")
        let mode = try FileManager.default.attributesOfItem(atPath: credentials.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try String(contentsOf: credentials, encoding: .utf8).contains(Self.password))
        let recording = try String(contentsOf: home.appendingPathComponent("session.jsonl"), encoding: .utf8)
        #expect(recording.contains("login --remember") && recording.contains("PIN: ••••"), "\(recording)")
        let log = try String(contentsOf: home.appendingPathComponent("debug.log"), encoding: .utf8)
        #expect(!log.isEmpty, "BOK_LOG=debug wrote nothing, so the check below would prove nothing")
        // The password, and the header that carries it, in no other file (history, recording, log, shelf).
        let basic = Data("12345:\(Self.password)".utf8).base64EncodedString()
        let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
        var checked = 0
        while let url = enumerator?.nextObject() as? URL {
            guard url.lastPathComponent != "credentials", url.lastPathComponent != "patron.py",
                let data = try? Data(contentsOf: url)
            else { continue }
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains(Self.password) && !text.contains(basic), "the password is in \(url.path)")
            checked += 1
        }
        #expect(checked >= 3, "the recording, the log and the history were looked at")

        // The next bok, with no terminal to ask on, browses with the remembered login.
        let files = [
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
        ]
        let bok = OneShotProcessTests()
        let next = try await bok.bok(["--library", root, "--kind", "opds", "browse"], environment: files)
        #expect(next.status == 0 && next.stdout.contains("Ödemarken"), "\(next.stdout)\n\(next.stderr)")
        let out = try await bok.bok(["--library", root, "--kind", "opds", "logout"], environment: files)
        #expect(out.stdout.contains("The remembered login is deleted."), "\(out.stdout)\n\(out.stderr)")
        let after = try await bok.bok(["--library", root, "--kind", "opds", "browse"], environment: files)
        #expect(after.status != 0 && after.stderr.contains("asks for your Library card and PIN"), "\(after.stderr)")
    }
}
