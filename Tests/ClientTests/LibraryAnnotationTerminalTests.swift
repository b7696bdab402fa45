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

        init(_ server: MockLendingServer, device: String) async throws {
            home = try temporaryHome()
            tty = try #require(PseudoTerminal(columns: 100, rows: 30))
            let environment = BokProcess.environment(
                home: home,
                [
                    "TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "BOK_SYNC_WAIT": "10",
                ])
            bok = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path,
                    arguments: ["--library", server.opdsURL.absoluteString, "--kind", "opds"],
                    environment: environment, terminal: tty.device))
            _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
            _ = await command("sync device \(device)") { $0.contains("called \(device)") && $0.hasSuffix("> ") }
            _ = await command("login") { $0.hasSuffix(": ") }
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

        func quit() {
            if bok.isRunning { kill(bok.pid, SIGKILL) }
            try? FileManager.default.removeItem(at: home)
        }
    }

    @Test("Read on the laptop; the phone is offered its place, and has its bookmark")
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
        await phone.close()
        let notes = await phone.command("notes 1") { $0.contains("# ") && $0.hasSuffix("> ") }
        #expect(notes.contains("## Bookmarks"), "the laptop's bookmark is on the phone: \(notes.suffix(400))")
        await server.stop()
    }
}
#endif
