#if canImport(Glibc)
import Catalog
import Foundation
import Terminal
import TestSupport
import Testing

/// A place kept on calibre's content server, as a patron meets it: a book got from the catalogue
/// opens with the offer of the place another device left further on, and its place goes back
/// when it closes, under this machine's name.
@Suite(
    "Reading places through calibre, at a terminal", .serialized,
    .enabled(if: CalibreServer.isInstalled && access("/dev/ptmx", R_OK | W_OK) == 0, "needs calibre and /dev/ptmx"))
struct ReadingSyncTests {
    @Test("Opening offers the phone's place further on; closing sends this machine's place; sync says what it keeps")
    func offeredThenSent() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Vintern 1953", author: "Anna Åberg", language: "sv")], user: ("elsa", "hemligt"))
        defer { server.stop() }
        // The phone left a place 43 % in: the book's one paragraph, three characters in.
        let link = try await calibreLink(server)
        let calibre = CalibreSync(user: "elsa", password: "hemligt")
        try await calibre.send("epubcfi(/2/2/4/4/1:3)", fraction: 0.43, device: "phone", of: link)
        let laptop = try await Laptop(server)
        defer { laptop.close() }
        let (tty, bok, command) = (laptop.tty, laptop.bok, laptop.command)
        let offer = await command("read 1") { $0.contains("[Y/n] ") }
        #expect(offer.contains("phone is at Vintern 1953, 43 % — go there? [Y/n] "), "\(offer.suffix(400))")
        tty.type("\r")
        let page = Ansi.strip(await tty.read(until: { Ansi.strip($0).contains("%") }, seconds: 20))
        #expect(page.contains("En bok av Anna Åberg."), "\(page.suffix(400))")
        tty.type("q")
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        let state = await command("sync") { $0.contains("calibre") && $0.hasSuffix("> ") }
        #expect(state.contains("Sync is on; this machine's places are called laptop."), "\(state.suffix(400))")
        #expect(state.contains("1 book keeps its place on a calibre server."), "\(state.suffix(400))")
        #expect(!state.contains("wait"), "nothing waits: \(state.suffix(400))")
        tty.type("quit\r")
        #expect(await bok.waitForExit(seconds: 10))

        let places = try await calibre.positions(of: link)
        let sent = try #require(places.first { $0.device == "laptop" }, "\(places)")
        #expect(sent.cfi.hasPrefix("epubcfi(/2/2/4/"), "calibre's form, into the book's only chapter: \(sent.cfi)")
    }

    @Test("A place the phone went back to after this one is asked about, Enter staying; an older one is not")
    func wentBackIsAskedNeverApplied() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Sjön", author: "Eva Öst", language: "sv", paragraphs: 80)], user: ("elsa", "hemligt"))
        defer { server.stop() }
        let laptop = try await Laptop(server)
        defer { laptop.close() }
        let (tty, command) = (laptop.tty, laptop.command)
        // Read a few pages here; closing sends the place.
        _ = await command("read 1") { Ansi.strip($0).contains("%") }
        for _ in 0..<4 {
            tty.type(" ")
            _ = await tty.read(until: { Ansi.strip($0).contains("Stycke") }, seconds: 5)
        }
        tty.type("q")
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        let link = try await calibreLink(server)
        let calibre = CalibreSync(user: "elsa", password: "hemligt")
        let here = try #require(try await calibre.positions(of: link).first { $0.device == "laptop" })
        // Then the phone went back near the start.
        try await calibre.send("epubcfi(/2/2/4/4/1:3)", fraction: 0.02, device: "phone", of: link)
        let asked = await command("read 1") { $0.contains("[y/N] ") || Ansi.strip($0).contains("Stycke") }
        #expect(asked.contains("phone went back to Sjön, 2 %, after you read to"), "\(asked.suffix(400))")
        #expect(asked.contains("go back there? [y/N] "), "\(asked.suffix(400))")
        // Enter stays where this machine was.
        tty.type("\r")
        _ = await tty.read(until: { Ansi.strip($0).contains("Stycke") }, seconds: 20)
        tty.type("q")
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        let after = try #require(try await calibre.positions(of: link).first { $0.device == "laptop" })
        #expect(abs(after.fraction - here.fraction) < 0.01, "stayed: \(here.fraction) → \(after.fraction)")
        // Now this machine's place is the newer: the phone's, behind, is the past and not mentioned.
        let again = await command("read 1") { $0.contains("[y/N] ") || Ansi.strip($0).contains("Stycke") }
        #expect(!again.contains("[y/N]"), "\(again.suffix(400))")
        tty.type("q")
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
    }

    @Test("While the book is open, its place goes to calibre as it moves, before the book is closed")
    func sentWhileReading() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Sjön", author: "Eva Öst", language: "sv", paragraphs: 80)], user: ("elsa", "hemligt"))
        defer { server.stop() }
        let laptop = try await Laptop(server, environment: ["BOK_SYNC_INTERVAL": "0.5"])
        defer { laptop.close() }
        let (tty, bok, command) = (laptop.tty, laptop.bok, laptop.command)
        _ = await command("read 1") { Ansi.strip($0).contains("%") }
        for _ in 0..<3 {
            tty.type(" ")
            _ = await tty.read(until: { Ansi.strip($0).contains("Stycke") }, seconds: 5)
        }
        // The reader is still open: calibre hears of the place within a look or two.
        let link = try await calibreLink(server)
        let calibre = CalibreSync(user: "elsa", password: "hemligt")
        var sent: RemotePosition?
        for _ in 0..<20 where sent == nil {
            try await Task.sleep(for: .milliseconds(250))
            sent = try await calibre.positions(of: link).first { $0.device == "laptop" }
        }
        #expect(bok.isRunning, "the reader is still open")
        let place = try #require(sent, "calibre heard nothing while the book was open")
        #expect(place.fraction > 0.1, "three pages into an 80-paragraph book: \(place)")
        tty.type("q")
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        tty.type("quit\r")
        #expect(await bok.waitForExit(seconds: 10))
    }
}

/// bok at a terminal in a calibre catalogue, logged in as elsa on a machine called laptop, the
/// section by title on screen: how both tests begin.
struct Laptop {
    let tty: PseudoTerminal
    let bok: ChildProcess
    let home: URL

    init(_ server: CalibreServer, environment extra: [String: String] = [:]) async throws {
        try await self.init(root: server.root, environment: extra)
    }

    /// The same at `root` (calibre, or something in front of it); `remember` keeps the login for
    /// one-shot `bok sync now`.
    init(root: URL, remember: Bool = false, environment extra: [String: String] = [:]) async throws {
        home = try temporaryHome()
        tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let environment = BokProcess.environment(
            home: home, ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"]
        ).merging(extra) { _, new in new }
        bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path,
                arguments: ["--library", root.absoluteString, "--kind", "opds"],
                environment: environment, terminal: tty.device))
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        _ = await command("sync device laptop") { $0.contains("called laptop") && $0.hasSuffix("> ") }
        _ = await command(remember ? "login --user elsa --remember" : "login --user elsa") { $0.hasSuffix(": ") }
        _ = await command("hemligt") { $0.contains("Logged in") && $0.hasSuffix("> ") }
        _ = await command("browse 2") { $0.contains("1 book") && $0.hasSuffix("> ") }
    }

    /// Types a line and reads the screen until `until` says it is there.
    func command(_ line: String, until: @escaping (String) -> Bool) async -> String {
        tty.type(line + "\r")
        return Ansi.strip(await tty.read(until: until, seconds: 20))
    }

    func close() {
        if bok.isRunning { kill(bok.pid, SIGKILL) }
        try? FileManager.default.removeItem(at: home)
    }
}

/// The book's calibre link, found as a patron's catalogue finds it.
func calibreLink(_ server: CalibreServer) async throws -> CalibreBookLink {
    let client = OPDSClient(root: server.root, user: "elsa", password: "hemligt")
    let byTitle = try #require(try await client.feed().entries.first { $0.title.contains("Title") }?.navigation)
    let acquisition = try #require(try await client.feed(byTitle.href).entries.first?.epub?.href)
    return try #require(CalibreBookLink(acquisition: acquisition))
}
#endif

/// `sync` from the shell, in both languages: the machine's name, off and on, `--json`.
struct SyncCommandTests {
    @Test func nameOffOnAndJSONInBothLanguages() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let swedish = ["LANG": "sv_SE.UTF-8"]
        let named = try await BokProcess.run(["sync", "device", "köksdator"], home: home)
        #expect(named.status == 0 && named.output.contains("Places from this machine are now called köksdator."))
        let off = try await BokProcess.run(["synka", "av"], home: home, environment: swedish)
        #expect(
            off.status == 0 && off.output.contains("Synk är av: ställena stannar på den här datorn."), "\(off.output)")
        let state = try await BokProcess.run(["sync"], home: home, environment: swedish)
        #expect(state.output.contains("Synk är av"), "\(state.output)")
        #expect(state.output.contains("Ingen bok synkas än"), "\(state.output)")
        let json = try await BokProcess.run(["sync", "--json"], home: home)
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["on"] as? Bool == false && object?["device"] as? String == "köksdator", "\(json.output)")
        #expect(object?["books"] as? Int == 0 && object?["waiting"] as? Int == 0 && object?["loans"] as? Int == 0)
        #expect(object?["waitingAnnotations"] as? Int == 0, "\(json.output)")
        _ = try await BokProcess.run(["sync", "on"], home: home)
        let wrong = try await BokProcess.run(["sync", "later"], home: home)
        #expect(
            wrong.status != 0 && wrong.output.contains("Usage: sync, sync now, sync device NAME"), "\(wrong.output)")
        let on = try await BokProcess.run(["sync"], home: home)
        #expect(on.output.contains("Sync is on; this machine's places are called köksdator."), "\(on.output)")
    }
}
