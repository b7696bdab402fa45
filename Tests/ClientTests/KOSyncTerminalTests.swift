#if canImport(Glibc)
import Catalog
import Foundation
import Logging
@testable import MockLending
import Reader
import Terminal
import TestSupport
import Testing

/// KOReader's progress sync between two machines, as a patron meets it: the same EPUB read on
/// one, opened on the other, offers the first's place and lands on the same words; a wrong
/// password is one clear line and nothing is sent. Both against the mock's kosync face.
@Suite(
    "Reading places through KOReader's sync, at a terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct KOSyncTerminalTests {
    /// One "machine": a bok home with the sync server in its config, a password file, its own copy of the book.
    struct Machine {
        let home: URL
        let book: URL
        let password: URL

        init(name: String, server: URL, epub: Data, password text: String = "hemligt") throws {
            home = try temporaryHome()
            let config = home.appendingPathComponent("config/bok")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "[sync reader]\nkind = kosync\nurl = \(server.absoluteString)\nuser = elsa\n".write(
                to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
            password = home.appendingPathComponent("password")
            try "\(text)\n".write(to: password, atomically: true, encoding: .utf8)
            chmod(password.path, 0o600)
            book = home.appendingPathComponent("Vintern.epub")
            try epub.write(to: book)
        }

        func run(_ words: [String], language: String = "C.UTF-8") async throws -> (status: Int32, output: String) {
            try await BokProcess.run(words, home: home, environment: ["LANG": language])
        }

        /// `bok read BOOK` in a pseudo-terminal.
        func read(environment extra: [String: String] = [:]) throws -> (PseudoTerminal, ChildProcess) {
            let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
            let environment = BokProcess.environment(
                home: home,
                // The place is waited for longer than a patron's 1.5 s: the machine may be loaded.
                [
                    "TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "C.UTF-8",
                    "BOK_SYNC_WAIT": "10",
                ]
                .merging(extra) { _, new in new })
            let bok = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path, arguments: ["read", book.path], environment: environment,
                    terminal: tty.device))
            return (tty, bok)
        }

        /// Reads the book, types `keys` a moment apart, quits; true when bok ended.
        func readAndClose(_ keys: [String]) async throws -> Bool {
            let (tty, bok) = try read()
            _ = await tty.read(until: { Ansi.strip($0).contains("%") }, seconds: 20)
            for key in keys {
                tty.type(key)
                _ = await tty.read(until: { _ in false }, seconds: 0.4)
            }
            tty.type("q")
            return await bok.waitForExit(seconds: 15)
        }

        func remove() { try? FileManager.default.removeItem(at: home) }
    }

    /// The sync server's client as elsa, to see what it keeps.
    static func elsa(_ server: MockLendingServer, password: String = "hemligt") -> KOSync {
        KOSync(server: server.kosyncURL, name: "reader", user: "elsa", key: KOSync.key(password: password))
    }

    static func withServer(_ body: (MockLendingServer, Data) async throws -> Void) async throws {
        let server = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 50),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let product = CatalogGenerator(seed: 1, size: 50).generate().products[0]
        let epub = Data(MockBooks.archive(for: product, seed: 1, sample: false))
        do {
            try await body(server, epub)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("Read on one machine, open on the other: its place is offered and the book opens at the same words")
    func readHereOpenThere() async throws {
        try await Self.withServer { server, epub in
            let laptop = try Machine(name: "laptop", server: server.kosyncURL, epub: epub)
            let desktop = try Machine(name: "desktop", server: server.kosyncURL, epub: epub)
            defer {
                laptop.remove()
                desktop.remove()
            }
            let registered = try await laptop.run([
                "sync", "register", "reader", "--password-file", laptop.password.path,
            ])
            #expect(
                registered.status == 0 && registered.output.contains("elsa is registered at reader"), "\(registered)")
            _ = try await laptop.run(["sync", "device", "laptop"])
            let login = try await desktop.run(["sync", "login", "reader", "--password-file", desktop.password.path])
            #expect(login.status == 0 && login.output.contains("Logged in to reader as elsa"), "\(login)")
            _ = try await desktop.run(["sync", "device", "desktop"])
            // The key, not the password, is what the credentials file keeps.
            let credentials = try String(
                contentsOf: desktop.home.appendingPathComponent("config/bok/credentials"), encoding: .utf8)
            #expect(credentials.contains(KOSync.key(password: "hemligt")) && !credentials.contains("hemligt\""))

            // The laptop reads a few chapters on, and closes the book.
            // Four chapters on, then three pages into that one.
            #expect(try await laptop.readAndClose(["n", "n", "n", "n", " ", " ", " "]))
            let client = Self.elsa(server)
            let document = try #require(KOSync.documentID(of: laptop.book))
            let left = try #require(try await client.progress(of: document), "the laptop sent nothing")
            #expect(left.device == "laptop" && left.percentage > 0.01, "\(left)")
            #expect(left.progress.hasPrefix("/body/DocFragment["), "\(left.progress)")
            // The words there, as the book itself has them.
            let content = BookContent(book: try EPUBBook.open(path: laptop.book.path))
            let place = try #require(content.locator(forXPointer: left.progress))
            let text = content.document(at: place.spineIndex).plainText.utf16.dropFirst(place.offset).prefix(200)
            let expected = (String(text) ?? "").split(whereSeparator: \.isWhitespace).prefix(4).joined(separator: " ")

            // The desktop opens its own copy: offered the laptop's place; Enter goes there.
            let (there, desk) = try desktop.read()
            let offer = Ansi.strip(await there.read(until: { $0.contains("[Y/n] ") }, seconds: 20))
            #expect(offer.contains("laptop is at "), "\(offer.suffix(300))")
            #expect(offer.contains("go there? [Y/n] "), "\(offer.suffix(300))")
            there.type("\r")
            // The screen's words, one space apart (the terminal spaces and breaks them as it draws).
            func words(_ screen: String) -> String {
                Ansi.strip(screen).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            let page = words(await there.read(until: { words($0).contains(expected) }, seconds: 20))
            #expect(page.contains(expected), "expected «\(expected)» on \(page.suffix(600))")
            there.type("q")
            #expect(await desk.waitForExit(seconds: 15))
            // Now the desktop's place is the server's, at the same place the laptop left.
            let after = try #require(try await client.progress(of: document))
            #expect(after.device == "desktop", "\(after)")
            #expect(after.progress == left.progress, "\(left.progress) → \(after.progress)")
            // Back on the laptop: the desktop's place is its own, so nothing is offered.
            let (back, reopened) = try laptop.read()
            let opened = Ansi.strip(await back.read(until: { Ansi.strip($0).contains("%") }, seconds: 20))
            #expect(!opened.contains("go there?") && !opened.contains("go back there?"), "\(opened.suffix(300))")
            back.type("q")
            #expect(await reopened.waitForExit(seconds: 15))
        }
    }

    @Test("A place a KOReader device went back to is asked about with Enter staying; never applied silently")
    func behindIsAskedNeverApplied() async throws {
        try await Self.withServer { server, epub in
            let laptop = try Machine(name: "laptop", server: server.kosyncURL, epub: epub)
            defer { laptop.remove() }
            _ = try await laptop.run(["sync", "register", "reader", "--password-file", laptop.password.path])
            #expect(try await laptop.readAndClose(["n", "n", "n", "n", " "]))
            let client = Self.elsa(server)
            let document = try #require(KOSync.documentID(of: laptop.book))
            let here = try #require(try await client.progress(of: document))
            // Later, the Kindle went back to the first chapter.
            try await Task.sleep(for: .milliseconds(1100))
            try await client.send(
                KOSyncProgress(
                    progress: "/body/DocFragment[1]/body/p/text().0", percentage: 0.001, device: "kindle",
                    deviceID: "KINDLE-1"),
                of: document)
            let (again, reopened) = try laptop.read()
            let asked = Ansi.strip(await again.read(until: { $0.contains("[y/N] ") }, seconds: 20))
            #expect(asked.contains("kindle went back to "), "\(asked.suffix(300))")
            #expect(asked.contains("go back there? [y/N] "), "\(asked.suffix(300))")
            // Enter stays where this machine was.
            again.type("\r")
            _ = await again.read(until: { Ansi.strip($0).contains("%") }, seconds: 20)
            again.type("q")
            #expect(await reopened.waitForExit(seconds: 15))
            let after = try #require(try await client.progress(of: document))
            // The same place (the percentage beside it is the reader's estimate, finer once chapters are read).
            #expect(after.device != "kindle" && after.progress == here.progress, "\(here) → \(after)")
        }
    }

    @Test("While the book is open its place goes out; offline it waits, and sync now sends it once the server is back")
    func whileReadingAndOffline() async throws {
        let port = try StaticCatalogueTests.freePort()
        let configuration = MockConfiguration(seed: 1, catalogSize: 50, port: port)
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let product = CatalogGenerator(seed: 1, size: 50).generate().products[0]
        let epub = Data(MockBooks.archive(for: product, seed: 1, sample: false))
        let server = try await MockLendingServer.start(configuration, logger: quiet)
        let laptop = try Machine(name: "laptop", server: server.kosyncURL, epub: epub)
        defer { laptop.remove() }
        _ = try await laptop.run(["sync", "register", "reader", "--password-file", laptop.password.path])
        let client = Self.elsa(server)
        let document = try #require(KOSync.documentID(of: laptop.book))

        // Reading, with a look every half second: the server hears of the place before the book closes.
        let (tty, bok) = try laptop.read(environment: ["BOK_SYNC_INTERVAL": "0.5"])
        _ = await tty.read(until: { Ansi.strip($0).contains("%") }, seconds: 20)
        for key in ["n", "n", "n", " "] {
            tty.type(key)
            _ = await tty.read(until: { _ in false }, seconds: 0.3)
        }
        var heard: KOSyncProgress?
        for _ in 0..<20 where heard == nil {
            try await Task.sleep(for: .milliseconds(250))
            heard = try await client.progress(of: document)
        }
        #expect(bok.isRunning, "the reader is still open")
        #expect(
            heard?.device.isEmpty == false && heard?.progress.hasPrefix("/body/DocFragment[") == true, "\(heard as Any)"
        )

        // The server goes away; more pages are read, and the book closed: the place waits on the shelf.
        await server.stop()
        for key in [" ", " "] {
            tty.type(key)
            _ = await tty.read(until: { _ in false }, seconds: 0.3)
        }
        tty.type("q")
        #expect(await bok.waitForExit(seconds: 20))
        let waiting = try await laptop.run(["sync"])
        #expect(waiting.output.contains("1 place waits to be sent (sync now sends it)."), "\(waiting.output)")

        // Back on the same port (a fresh server: the user is made again); sync now sends it, once.
        let again = try await MockLendingServer.start(configuration, logger: quiet)
        defer { Task { await again.stop() } }
        try await client.register(password: "hemligt")
        let now = try await laptop.run(["sync", "now"])
        #expect(now.status == 0 && now.output.contains("Synced."), "\(now.output)")
        #expect(!now.output.contains("wait"), "\(now.output)")
        let sent = try #require(try await client.progress(of: document))
        #expect(sent.percentage > (heard?.percentage ?? 1), "\(heard as Any) → \(sent)")
    }

    @Test("At the prompt the password is asked without echo, and kept nowhere but as its key")
    func passwordAtThePrompt() async throws {
        try await Self.withServer { server, epub in
            let laptop = try Machine(name: "laptop", server: server.kosyncURL, epub: epub, password: "Hemligt-Lösen-42")
            defer { laptop.remove() }
            let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
            let environment = BokProcess.environment(
                home: laptop.home, ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"])
            let bok = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path, arguments: [], environment: environment, terminal: tty.device))
            defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
            _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
            tty.type("sync register reader\r")
            let asked = Ansi.strip(await tty.read(until: { $0.contains("Password for elsa at reader: ") }, seconds: 20))
            #expect(asked.contains("Password for elsa at reader: "), "\(asked.suffix(300))")
            tty.type("Hemligt-Lösen-42\r")
            let done = Ansi.strip(
                await tty.read(until: { $0.contains("registered") && $0.hasSuffix("> ") }, seconds: 20))
            #expect(done.contains("elsa is registered at reader; your places sync there."), "\(done.suffix(300))")
            #expect(!done.contains("Hemligt-Lösen-42"), "the password was echoed: \(done.suffix(300))")
            tty.type("quit\r")
            #expect(await bok.waitForExit(seconds: 10))
            try await Self.elsa(server, password: "Hemligt-Lösen-42").authorize()
            // Nowhere on disk: not in the history, the config, the credentials file (only the key), the shelf.
            for file in FileManager.default.enumerator(atPath: laptop.home.path)?.compactMap({ $0 as? String }) ?? [] {
                let url = laptop.home.appendingPathComponent(file)
                guard file != "password", let data = try? Data(contentsOf: url) else { continue }
                #expect(data.range(of: Data("Hemligt-Lösen-42".utf8)) == nil, "the password is in \(file)")
            }
            let credentials = try String(
                contentsOf: laptop.home.appendingPathComponent("config/bok/credentials"), encoding: .utf8)
            #expect(credentials.contains(KOSync.key(password: "Hemligt-Lösen-42")))
        }
    }

    @Test("A wrong password is one clear line in either language; nothing is kept, nothing is sent")
    func wrongPassword() async throws {
        try await Self.withServer { server, epub in
            let laptop = try Machine(name: "laptop", server: server.kosyncURL, epub: epub)
            let stranger = try Machine(name: "stranger", server: server.kosyncURL, epub: epub, password: "fel")
            defer {
                laptop.remove()
                stranger.remove()
            }
            _ = try await laptop.run(["sync", "register", "reader", "--password-file", laptop.password.path])
            let refused = try await stranger.run(["sync", "login", "reader", "--password-file", stranger.password.path])
            #expect(refused.status != 0)
            let lines = refused.output.split(separator: "\n").filter { !$0.contains("made") && !$0.contains("private") }
            #expect(
                lines == [
                    "bok: reader refused the user name or password; nothing was sent. Log in again with "
                        + "sync login reader."
                ],
                "\(refused.output)")
            let swedish = try await stranger.run(
                ["synka", "anslut", "reader", "--password-file", stranger.password.path], language: "sv_SE.UTF-8")
            #expect(
                swedish.status != 0 && swedish.output.contains("reader godtog inte användarnamnet eller lösenordet"))
            #expect(
                !FileManager.default.fileExists(
                    atPath: stranger.home.appendingPathComponent("config/bok/credentials").path))
            // Not logged in, reading sends nothing: the server has no place for the book.
            let state = try await stranger.run(["sync"])
            #expect(state.output.contains("reader: KOReader sync at 127.0.0.1:"), "\(state.output)")
            #expect(state.output.contains("not logged in (sync login reader)"), "\(state.output)")
            let (tty, bok) = try stranger.read()
            _ = await tty.read(until: { Ansi.strip($0).contains("%") }, seconds: 20)
            tty.type("n")
            _ = await tty.read(until: { _ in false }, seconds: 0.4)
            tty.type("q")
            #expect(await bok.waitForExit(seconds: 15))
            // A key kept from before that the server no longer takes (the password changed there):
            // opening the book says so in one line, and the place it closes at waits unsent.
            let wrongKey =
                "[kosync \(server.kosyncURL.absoluteString) elsa]\nkey = \"\(KOSync.key(password: "fel"))\"\n"
            let credentials = stranger.home.appendingPathComponent("config/bok/credentials")
            try wrongKey.write(to: credentials, atomically: true, encoding: .utf8)
            chmod(credentials.path, 0o600)
            let (again, reopened) = try stranger.read()
            let told = Ansi.strip(await again.read(until: { Ansi.strip($0).contains("%") }, seconds: 20))
            #expect(told.contains("reader refused the user name or password; nothing was sent."), "\(told.suffix(400))")
            again.type("q")
            #expect(await reopened.waitForExit(seconds: 15))
            let waiting = try await stranger.run(["sync"])
            #expect(waiting.output.contains("1 place waits to be sent"), "\(waiting.output)")
            let now = try await stranger.run(["sync", "now"])
            #expect(now.status != 0 && now.output.contains("reader refused the user name or password"), "\(now.output)")
            let client = Self.elsa(server)
            #expect(try await client.progress(of: try #require(KOSync.documentID(of: stranger.book))) == nil)
        }
    }
}
#endif
