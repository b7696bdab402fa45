#if os(Linux)
import Foundation
import Glibc
import Testing
import TestSupport
import Terminal

/// The built `reader-bench` (its `read` mode is the full-screen reader), beside the test bundle.
private let readerBenchBinary: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let besideBundle = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("reader-bench").path
    return [besideBundle, root.appendingPathComponent(".build/debug/reader-bench").path]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Runs the real reader on a pseudo-terminal: pages turn, q quits, and the terminal is as before.
@Suite(
    .serialized,
    .enabled(
        if: readerBenchBinary != nil && access("/dev/ptmx", R_OK | W_OK) == 0,
        "needs the reader-bench executable (swift build) and /dev/ptmx"))
struct ReaderTerminalTests {
    static var binary: String? { readerBenchBinary }

    private static func makeBook() async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reader-pty-\(getpid()).epub").path
        let generate = Process()
        generate.executableURL = URL(fileURLWithPath: try #require(binary))
        generate.arguments = ["generate", path, "--chapters", "4", "--bytes", "60000"]
        generate.standardOutput = FileHandle.nullDevice
        try generate.run()
        while generate.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try #require(generate.terminationStatus == 0)
        return path
    }

    private static func start(_ book: String, on tty: PseudoTerminal) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        environment["LANG"] = "C.UTF-8"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let path = try #require(binary)
        return try #require(
            ChildProcess(
                path, arguments: ["read", book, "--badge", "12 days"], environment: environment, terminal: tty.device))
    }

    @Test func turnsPagesQuitsWithQAndRestoresTheTerminal() async throws {
        let book = try await Self.makeBook()
        defer { try? FileManager.default.removeItem(atPath: book) }
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let before = tty.settings
        let process = try Self.start(book, on: tty)
        var screen = await tty.read(until: { Ansi.strip($0).contains("12 days") })
        #expect(screen.contains(ScreenCode.enterAlternateScreen))
        #expect(screen.contains(ScreenCode.hideCursor))
        #expect(screen.contains("\u{1B}[8l"), "the terminal leaves the ordering of lines to the reader")
        #expect(Ansi.strip(screen).contains("The Ferry at Dawn"))
        #expect(tty.settings != before, "raw mode is on while reading")

        tty.type(" ")
        screen = await tty.read(until: { Ansi.strip($0).contains("2/") })
        #expect(Ansi.strip(screen).contains("1. "), "the first chapter's heading follows the cover")
        tty.type("\u{1B}[6~")  // PgDn
        screen = await tty.read(until: { Ansi.strip($0).contains("3/") })
        #expect(Ansi.strip(screen).contains("3/"))

        tty.type("q")
        let rest = await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
        #expect(process.exitCode == 0)
        #expect(rest.contains(ScreenCode.showCursor))
        #expect(rest.contains(ScreenCode.leaveAlternateScreen))
        #expect(rest.contains(MouseReporting.disable))
        #expect(rest.contains("\u{1B}[8h"))
        #expect(tty.settings == before)
    }

    @Test func aNewWindowSizeRedrawsAtThatSize() async throws {
        let book = try await Self.makeBook()
        defer { try? FileManager.default.removeItem(atPath: book) }
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let process = try Self.start(book, on: tty)
        _ = await tty.read(until: { Ansi.strip($0).contains("12 days") })
        tty.type(" ")
        _ = await tty.read(until: { Ansi.strip($0).contains("2/") })
        var size = winsize(ws_row: 20, ws_col: 60, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(tty.device, UInt(TIOCSWINSZ), &size)
        kill(process.pid, SIGWINCH)
        // The status line moves to the new last row, and no row is wider than 60 cells.
        let redrawn = await tty.read(until: {
            $0.contains(ScreenCode.moveTo(row: 20, column: 1)) && Ansi.strip($0).contains("12 days")
        })
        #expect(redrawn.contains(ScreenCode.moveTo(row: 20, column: 1)))
        #expect(!redrawn.contains(ScreenCode.moveTo(row: 21, column: 1)))
        tty.type("q")
        _ = await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
    }

    @Test func aKillStillRestoresTheTerminal() async throws {
        let book = try await Self.makeBook()
        defer { try? FileManager.default.removeItem(atPath: book) }
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let before = tty.settings
        let process = try Self.start(book, on: tty)
        _ = await tty.read(until: { Ansi.strip($0).contains("12 days") })
        kill(process.pid, SIGTERM)
        let rest = await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
        #expect(process.signal == SIGTERM)
        #expect(rest.contains(ScreenCode.showCursor))
        #expect(rest.contains(ScreenCode.leaveAlternateScreen))
        #expect(tty.settings == before)
    }
}
#endif
