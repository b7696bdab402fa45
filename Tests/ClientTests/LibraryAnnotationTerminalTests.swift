#if canImport(Glibc)
import Catalog
import Foundation
import Logging
import MockLending
import Terminal
import TestSupport
import Testing

/// A loan's place and bookmarks kept at the library, as a patron meets it at two terminals with
/// one card (the real binary, the mock's OPDS face): read on the laptop, open on the phone, the
/// laptop's place offered and its bookmark there.
@Suite(
    "A loan's place and bookmarks through the library, at two terminals", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct LibraryAnnotationTerminalTests {
    /// bok at a terminal in the mock's OPDS face, logged in with card 1001, this machine named `device`.
    struct Machine {
        let tty: PseudoTerminal
        let bok: ChildProcess
        let home: URL

        init(_ server: MockLendingServer, device: String, home: URL? = nil, interval: String = "0.5") async throws {
            self.home = try home ?? temporaryHome()
            tty = try #require(PseudoTerminal(columns: 100, rows: 30))
            let environment = BokProcess.environment(
                home: self.home,
                [
                    "TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "BOK_SYNC_WAIT": "10",
                    "BOK_SYNC_INTERVAL": interval,
                ])
            bok = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path,
                    arguments: ["--library", server.opdsURL.absoluteString, "--kind", "opds"],
                    environment: environment, terminal: tty.device))
            _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
            _ = await command("sync device \(device)") { $0.contains("called \(device)") && $0.hasSuffix("> ") }
            if home != nil { return }
            _ = await command("login --remember") { $0.hasSuffix(": ") }
            _ = await command("1001") { $0.hasSuffix(": ") }
            let pin = try #require(MockLendingServer.seededPIN(card: "1001"))
            _ = await command(pin) { $0.contains("1001") && $0.hasSuffix("> ") }
        }

        /// Types a line and reads the screen until `until` says it is there.
        func command(_ line: String, until: @escaping (String) -> Bool) async -> String {
            tty.type(line + "\r")
            return Ansi.strip(await tty.read(until: until, seconds: 20))
        }

        /// Leaves the reader for the prompt.
        func close() async {
            tty.type("q")
            _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        }

        func quit(keepingHome: Bool = false) {
            if bok.isRunning { kill(bok.pid, SIGKILL) }
            if !keepingHome { try? FileManager.default.removeItem(at: home) }
        }
    }

    @Test("Read on the laptop; the phone is offered its place, has its bookmark, and a tablet's while open")
    func placeAndBookmark() async throws {
        let server = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 600),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let laptop = try await Machine(server, device: "laptop")
        defer { laptop.quit() }
        _ = await laptop.command("search sommar") { $0.contains("Showing") && $0.hasSuffix("> ") }
        let borrowed = await laptop.command("borrow 1") { $0.contains("Downloaded") && $0.hasSuffix("> ") }
        #expect(borrowed.contains("Borrowed"), "\(borrowed.suffix(300))")
        let on = await laptop.command("sync on") { $0.contains("Sync is on") && $0.hasSuffix("> ") }
        #expect(on.contains("keeps the bookmarks, highlights and place of your loans now"), "\(on.suffix(300))")
        _ = await laptop.command("shelf") { $0.contains("Loans") && $0.hasSuffix("> ") }
        _ = await laptop.command("read 1") { $0.contains("in book") }
        // Well into the book, a bookmark; closing sends both.
        for _ in 0..<12 {
            laptop.tty.type(" ")
            _ = await laptop.tty.read(until: { $0.contains("%") }, seconds: 5)
        }
        laptop.tty.type("m")
        _ = await laptop.tty.read(until: { $0.contains("%") }, seconds: 5)
        await laptop.close()
        let state = await laptop.command("sync") { $0.contains("Sync is on") && $0.hasSuffix("> ") }
        #expect(state.contains("1 loan keeps its bookmarks, highlights and place at its library."), "\(state)")
        #expect(!state.contains("wait"), "nothing waits: \(state.suffix(300))")

        let pin = try #require(MockLendingServer.seededPIN(card: "1001"))
        let kept = try await LibraryAnnotations(card: "1001", pin: pin).annotations(
            at: server.opdsURL.appendingPathComponent("annotations/"))
        #expect(
            Set(kept.map(\.motivation)) == [.bookmarking, .readingPlace],
            "the library has the bookmark and the place: \(kept)")
        let phone = try await Machine(server, device: "phone")
        defer { phone.quit() }
        _ = await phone.command("shelf") { $0.contains("Loans") && $0.hasSuffix("> ") }
        // The download's progress bar shows a percentage too: the reader's status line says "in book".
        let offer = await phone.command("read 1") { $0.contains("[Y/n] ") || $0.contains("in book") }
        #expect(offer.contains("laptop is at ") && offer.contains(" — go there? [Y/n] "), "\(offer.suffix(400))")
        phone.tty.type("\r")
        let page = Ansi.strip(await phone.tty.read(until: { Ansi.strip($0).contains("in book") }, seconds: 20))
        #expect(!page.contains(" 0%"), "opened at the laptop's place, not the start: \(page.suffix(300))")
        // The laptop's bookmark is in the reader's list.
        phone.tty.type("'")
        let one = Ansi.strip(await phone.tty.read(until: { $0.contains("Esc close") }, seconds: 10))
        #expect(one.components(separatedBy: "“").count - 1 == 1, "\(one.suffix(600))")
        phone.tty.type("\u{1B}")
        // A tablet bookmarks the same words while the book stays open on the phone: it shows there
        // without closing the book.
        let mark = try #require(kept.first { $0.motivation == .bookmarking })
        let opds = OPDSClient(root: server.opdsURL, user: "1001", password: pin)
        let loans = try await opds.feed(try #require(try await opds.feed().link("http://opds-spec.org/shelf")).href)
        let loan = try #require(loans.entries.first { $0.title == "En sommar med dig" })
        _ = try await LibraryAnnotations(card: "1001", pin: pin).add(
            WebAnnotation(motivation: .bookmarking, cfi: mark.cfi, time: Date(), device: "tablet", key: "surfplattan"),
            of: loan.id, to: server.opdsURL.appendingPathComponent("annotations/"))
        var two = ""
        for _ in 0..<20 where two.components(separatedBy: "“").count - 1 < 2 {
            try await Task.sleep(for: .milliseconds(500))
            phone.tty.type("'")
            two = Ansi.strip(await phone.tty.read(until: { $0.contains("Esc close") }, seconds: 10))
            phone.tty.type("\u{1B}")
        }
        #expect(two.components(separatedBy: "“").count - 1 == 2, "the tablet's bookmark arrived: \(two.suffix(600))")
        await phone.close()
        let notes = await phone.command("notes 1") { $0.contains("# ") && $0.hasSuffix("> ") }
        #expect(notes.contains("## Bookmarks"), "the laptop's bookmark is on the phone: \(notes.suffix(400))")
        await server.stop()
    }

    @Test("Killed in the reader right after a bookmark: the next bok sends it, once")
    func killedInTheReader() async throws {
        let server = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 600),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        // Changes go out a minute after they are made, so the kill lands before.
        let laptop = try await Machine(server, device: "laptop", interval: "60")
        _ = await laptop.command("search sommar") { $0.contains("Showing") && $0.hasSuffix("> ") }
        _ = await laptop.command("borrow 1") { $0.contains("Downloaded") && $0.hasSuffix("> ") }
        _ = await laptop.command("sync on") { $0.contains("Sync is on") && $0.hasSuffix("> ") }
        _ = await laptop.command("shelf") { $0.contains("Loans") && $0.hasSuffix("> ") }
        _ = await laptop.command("read 1") { $0.contains("in book") }
        for _ in 0..<5 {
            laptop.tty.type(" ")
            _ = await laptop.tty.read(until: { $0.contains("in book") }, seconds: 5)
        }
        laptop.tty.type("m")
        _ = await laptop.tty.read(until: { $0.contains("Bookmark added") }, seconds: 5)
        laptop.quit(keepingHome: true)
        #expect(await laptop.bok.waitForExit(seconds: 10))
        let pin = try #require(MockLendingServer.seededPIN(card: "1001"))
        let client = LibraryAnnotations(card: "1001", pin: pin)
        let service = server.opdsURL.appendingPathComponent("annotations/")
        #expect(try await client.annotations(at: service).filter { $0.motivation == .bookmarking }.isEmpty)

        let again = try await Machine(server, device: "laptop", home: laptop.home)
        defer { again.quit() }
        let state = await again.command("sync") { $0.contains("Sync is on") && $0.hasSuffix("> ") }
        #expect(state.contains("1 change to bookmarks, highlights or notes waits to be sent"), "\(state.suffix(400))")
        let synced = await again.command("sync now") { $0.contains("Synced.") && $0.hasSuffix("> ") }
        #expect(!synced.contains("wait"), "\(synced.suffix(400))")
        _ = await again.command("sync now") { $0.contains("Synced.") && $0.hasSuffix("> ") }
        let marks = try await client.annotations(at: service).filter { $0.motivation == .bookmarking }
        #expect(marks.count == 1, "sent once: \(marks)")
        await server.stop()
    }
}
#endif
