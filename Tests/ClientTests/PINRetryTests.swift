import Catalog
import Foundation
import Terminal
import TestSupport
import Testing

@testable import Client

#if os(Linux)
import Glibc
#endif

/// A wrong PIN typed at the prompt is asked for again, with the tries left, and a locked card is
/// said in words with who can help (issue 10, item 8).
@Suite("A wrong PIN", .serialized)
@MainActor
struct PINRetryTests {
    @Test("A wrong PIN at the prompt asks again with the tries left; the right one logs in")
    func askedAgain() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["0000", "1234"])
        h.session.account.prompt = prompt
        let screen = await h.run("login")
        #expect(screen.first?.hasPrefix("Welcome,") == true, "\(screen)")
        #expect(prompt.asked.count == 3, "\(prompt.asked)")
        // The refusal is a line of its own; the question after it starts a fresh one.
        #expect(
            prompt.told == [
                "The library did not accept card 1001: Wrong PIN for card 1001; 4 tries left before the card is locked "
                    + "for 15 minutes."
            ], "\(prompt.told)")
        #expect(prompt.asked.last == "PIN for card 1001: ", "\(prompt.asked)")
    }

    @Test("Five wrong PINs lock the card: bok stops asking and says when, and who can unlock it")
    func lockedInWords() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: Array(repeating: "0000", count: 8))
        h.session.account.prompt = prompt
        let screen = await h.run("login").joined(separator: "\n")
        #expect(screen.contains("is locked after 5 wrong PINs; try again after "), "\(screen)")
        #expect(screen.contains("staff can unlock it sooner"), "\(screen)")
        #expect(
            prompt.secrets.count == 3, "asked \(8 - prompt.secrets.count) times, not until the lock: \(prompt.asked)")
    }

    @Test("A wrong PIN from a file is not retried: each try would count toward the lock")
    func fileNotRetried() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: [], secrets: ["1234"])
        h.session.account.prompt = prompt
        let file = h.dataDirectory.appendingPathComponent("pin")
        try FileManager.default.createDirectory(at: h.dataDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(
            atPath: file.path, contents: Data("0000\n".utf8), attributes: [.posixPermissions: 0o600])
        let screen = await h.run("login --card 1001 --pin-file \(file.path)").joined(separator: "\n")
        #expect(screen.contains("Wrong PIN for card 1001"), "\(screen)")
        #expect(prompt.asked.isEmpty, "\(prompt.asked)")
    }
}

/// Samples and the to-be-read list belong to the card that added them (issue 10, item 8).
@Suite("Lists per card", .serialized)
@MainActor
struct ListsPerCardTests {
    @Test("Two patrons on one computer keep their own to-be-read lists and samples")
    func twoPatrons() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(
            answers: ["1001", "1003", "1001"], secrets: ["1234", "3456", "1234"])
        await h.run("login")
        await h.run("top 4")
        let titles = (1...4).compactMap { h.session.lists.list?.byNumber[$0]?.title }
        await h.run("tbr add 1")
        await h.run("logout")
        await h.run("login")
        var tbr = await h.run("tbr").joined(separator: "\n")
        #expect(tbr.contains("Your to-be-read list is empty"), "card 1003 sees 1001's list: \(tbr)")
        await h.run("top 4")
        await h.run("tbr add 2")
        await h.run("logout")
        await h.run("login")
        tbr = await h.run("tbr").joined(separator: "\n")
        #expect(tbr.contains(titles[0]) && !tbr.contains(titles[1]), "\(tbr)")
    }
}

#if os(Linux)
/// What a patron sees at a real terminal when a PIN is wrong (issue 29): the refusal ends its line,
/// wrapped between words within the window, and the question starts a fresh one.
@Suite(
    "A wrong PIN at a terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct PINRetryTerminalTests {
    @Test("At 80 columns the refusal is whole words on lines of its own, and the PIN is asked on a fresh line")
    func refusalThenAFreshPrompt() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let environment = BokProcess.environment(
            home: home, ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"])
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["--mock"], environment: environment, terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        tty.type("login\r")
        _ = await tty.read(until: { $0.hasSuffix("number: ") })
        tty.type("1001\r")
        _ = await tty.read(until: { $0.hasSuffix("PIN for card 1001: ") })
        try await Task.sleep(for: .milliseconds(300))
        tty.type("0000\r")
        let screen = Ansi.strip(
            await tty.read(until: { $0.contains("minutes.") && $0.hasSuffix("PIN for card 1001: ") }))
        let lines = screen.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.last == "PIN for card 1001: ", "\(screen)")
        let refusal = lines.dropLast().joined(separator: " ")
        #expect(
            refusal.hasSuffix(
                "The library did not accept card 1001: Wrong PIN for card 1001; 4 tries left before the card is "
                    + "locked for 15 minutes."), "\(screen)")
        for line in lines { #expect(DisplayWidth.of(line) <= 80, "wider than the window: \(line)") }
        tty.type("\u{3}")
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        tty.type("quit\r")
        #expect(await bok.waitForExit(seconds: 10))
    }
}
#endif
