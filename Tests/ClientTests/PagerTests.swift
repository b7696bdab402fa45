#if os(Linux)
import Foundation
import Glibc
import TestSupport
import Terminal
import Testing

@testable import Client

/// Output taller than the window goes through a pager at a terminal, as git's does (issue 29):
/// the real binary on a 80×24 pseudo-terminal, with a pager that only writes down what it got.
@Suite(
    "Long output through a pager", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct PagerTests {
    /// A fresh home, and a file the fake pager appends what it was given to.
    struct Place {
        let home: URL
        var paged: URL { home.appendingPathComponent("paged.txt") }
        /// A pager that keeps its input (and the LESS it was started with) in `paged`.
        var pager: String { "echo \"LESS=$LESS\" >> \(paged.path); cat >> \(paged.path)" }
        var pagedText: String? { try? String(contentsOf: paged, encoding: .utf8) }

        init() throws { home = try temporaryHome() }
        func remove() { try? FileManager.default.removeItem(at: home) }

        func environment(_ extra: [String: String]) -> [String: String] {
            BokProcess.environment(home: home, ["TERM": "xterm-256color", "SWIFT_BACKTRACE": "enable=no"])
                .merging(extra) { _, new in new }
        }

        /// `bok ARGUMENTS` run to its end at a terminal of `rows` rows: what reached the screen.
        func atTerminal(_ arguments: [String], _ extra: [String: String], rows: Int = 24) async throws -> String {
            let tty = try #require(PseudoTerminal(columns: 80, rows: rows))
            let bok = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path, arguments: arguments, environment: environment(extra),
                    terminal: tty.device))
            defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
            var screen = ""
            let deadline = Date().addingTimeInterval(30)
            while bok.isRunning, Date() < deadline {
                screen += tty.screen()
                try await Task.sleep(for: .milliseconds(20))
            }
            screen += tty.screen()
            #expect(bok.exitCode == 0, "bok \(arguments) ended with \(String(describing: bok.status)): \(screen)")
            return screen
        }
    }

    @Test(
        "help at the prompt of a 24-row terminal goes through the pager; short output does not; the prompt comes back")
    func atThePrompt() async throws {
        let place = try Place()
        defer { place.remove() }
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["--mock"],
                environment: place.environment(["PAGER": place.pager]), terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        try await Task.sleep(for: .milliseconds(200))
        let atPrompt = tty.settings

        tty.type("help\r")
        let afterHelp = Ansi.strip(await tty.read(until: { $0.hasSuffix("> ") }))
        let paged = try #require(place.pagedText, "help was not paged: \(afterHelp)")
        #expect(paged.hasPrefix("LESS=FRX\n"), "less's options as git sets them: \(paged.prefix(40))")
        #expect(paged.contains("Leave bok (Ctrl-D works too)") && paged.contains("Commands"), "\(paged)")
        #expect(paged.contains("\u{1B}["), "the pager got no colours")
        #expect(!afterHelp.contains("Leave bok"), "help went to the screen as well: \(afterHelp)")
        // The prompt is back as it was: readline's terminal, typing echoed, the next command answered.
        try await Task.sleep(for: .milliseconds(200))
        #expect(tty.settings == atPrompt)

        tty.type("help quit\r")
        let short = Ansi.strip(await tty.read(until: { $0.contains("Leave bok") && $0.hasSuffix("> ") }))
        #expect(short.contains("help quit") && short.contains("Leave bok (Ctrl-D works too)."), "\(short)")
        #expect(place.pagedText == paged, "four lines were paged")
        tty.type("quit\r")
        #expect(await bok.waitForExit(seconds: 10))
    }

    @Test("A one-shot help at a terminal is paged; --no-pager, PAGER=cat and an empty PAGER print it directly")
    func oneShot() async throws {
        let place = try Place()
        defer { place.remove() }
        let paged = try await place.atTerminal(["--mock", "help"], ["PAGER": place.pager])
        #expect(!Ansi.strip(paged).contains("Leave bok"), "\(paged)")
        #expect(place.pagedText?.contains("Leave bok") == true)
        try FileManager.default.removeItem(at: place.paged)

        for (arguments, extra) in [
            (["--mock", "--no-pager", "help"], ["PAGER": place.pager]),
            (["--mock", "help", "--no-pager"], ["PAGER": place.pager]),
            (["--mock", "help"], ["PAGER": "cat"]),
            (["--mock", "help"], ["PAGER": ""]),
            (["--mock", "help", "--json"], ["PAGER": place.pager]),
            (["--mock", "help"], ["PAGER": place.pager, "BOK_PAGER": "cat"]),
        ] {
            let screen = Ansi.strip(try await place.atTerminal(arguments, extra))
            #expect(screen.contains("Leave bok"), "\(arguments) \(extra): \(screen)")
            #expect(place.pagedText == nil, "\(arguments) \(extra) was paged")
        }
    }

    @Test("The pager comes from BOK_PAGER, else the config file's pager =, else PAGER")
    func whichPager() async throws {
        let place = try Place()
        defer { place.remove() }
        let other = place.home.appendingPathComponent("other.txt")
        let config = place.home.appendingPathComponent("config/bok")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "pager = cat >> \(other.path)\n".write(
            to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        _ = try await place.atTerminal(["--mock", "help"], ["PAGER": place.pager])
        #expect(place.pagedText == nil)
        #expect((try? String(contentsOf: other, encoding: .utf8))?.contains("Leave bok") == true)
        _ = try await place.atTerminal(["--mock", "help"], ["PAGER": "cat", "BOK_PAGER": place.pager])
        #expect(place.pagedText?.contains("Leave bok") == true)
    }

    @Test("Piped output, a window tall enough, a recording and a pager that cannot start are never paged")
    func notPaged() async throws {
        let place = try Place()
        defer { place.remove() }
        let piped = try await BokProcess.run(["--mock", "help"], home: place.home, environment: ["PAGER": place.pager])
        #expect(piped.status == 0 && piped.output.contains("Leave bok"), "\(piped.output)")
        let tall = Ansi.strip(try await place.atTerminal(["--mock", "help"], ["PAGER": place.pager], rows: 200))
        #expect(tall.contains("Leave bok"), "\(tall)")
        #expect(place.pagedText == nil, "paged: \(place.pagedText ?? "")")

        let missing = try await place.atTerminal(["--mock", "help"], ["PAGER": "/nonexistent/pager -R"])
        #expect(Ansi.strip(missing).contains("Leave bok"), "\(missing)")
        #expect(!missing.contains("nonexistent") && !missing.contains("rror"), "\(missing)")

        let recording = place.home.appendingPathComponent("session.jsonl")
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["--mock", "--record", recording.path],
                environment: place.environment(["PAGER": place.pager]), terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        tty.type("help\r")
        let recorded = Ansi.strip(await tty.read(until: { $0.contains("Leave bok") && $0.hasSuffix("> ") }))
        #expect(recorded.contains("Leave bok"), "\(recorded)")
        tty.type("quit\r")
        #expect(await bok.waitForExit(seconds: 10))
        #expect(place.pagedText == nil, "a recording was paged")
    }
}
#endif
