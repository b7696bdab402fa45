import Foundation
import Reader
import Terminal
import TestSupport
import Testing

@testable import Client

/// The real `bok` at a terminal and piped: covers in Sixel where they may be, and no escape
/// sequence at all when piped.
@Suite("Covers from the bok program", .serialized)
struct CoverProcessTests {
    /// A fresh home whose config file says `images = sixel`.
    static func home() throws -> URL {
        let home = try temporaryHome()
        let config = home.appendingPathComponent("config/bok")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("images = sixel\n".utf8).write(to: config.appendingPathComponent("config"))
        return home
    }

    static func environment(_ home: URL) -> [String: String] {
        BokProcess.environment(home: home, ["TERM": "xterm-256color", "SWIFT_BACKTRACE": "enable=no"])
    }

    /// The cover bok kept in its cache (there is one, after one `info`).
    static func keptCover(_ home: URL) throws -> RasterImage {
        let folder = home.appendingPathComponent("cache/bok/covers")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        let file = try #require(files.first, "no cover kept")
        return try #require(RasterImage.decode(Array(try Data(contentsOf: folder.appendingPathComponent(file)))))
    }

    @Test(
        "At a terminal with images = sixel, info draws the cover in Sixel that decodes back to it",
        CoverPicturesTests.decodable)
    func sixelAtTerminal() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let tty = try #require(PseudoTerminal(columns: 100, rows: 40))
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["--mock"], environment: Self.environment(home),
                terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        tty.type("top 1\r")
        _ = await tty.read(until: { $0.hasSuffix("> ") })
        tty.type("info 1\r")
        let screen = await tty.read(until: { $0.contains("\u{1B}8") && $0.hasSuffix("> ") })
        tty.type("quit\r")
        let start = try #require(screen.range(of: "\u{1B}P"), "no Sixel: \(screen.debugDescription.prefix(400))")
        let end = try #require(screen.range(of: "\u{1B}\\", range: start.upperBound..<screen.endIndex))
        // Drawn over rows already printed: the cursor saved, moved up, and restored after.
        #expect(screen[..<start.lowerBound].hasSuffix("\u{1B}[1G"))
        #expect(screen.contains("\u{1B}7\u{1B}["))
        let decoded = try CoverPicturesTests.decode(sixel: Array(screen[start.lowerBound..<end.upperBound].utf8))
        let cover = try Self.keptCover(home)
        let expected = cover.scaled(width: decoded.width, height: decoded.height, background: (0, 0, 0))
        // Sixel's 256 colours and Chafa's dithering: near, not equal.
        #expect(CoverPicturesTests.meanError(decoded, expected) < 16, "the Sixel is the cover")
        #expect(!Ansi.strip(screen).contains("▀▀▀▀"), "half-blocks were drawn too")
    }

    @Test("Piped, shelf --covers and info print no escape sequence at all")
    func piped() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await BokProcess.run(
            ["--mock"], home: home, stdin: "top 1\ninfo 1\nshelf --covers\n", environment: ["TERM": "xterm-256color"])
        #expect(run.status == 0, "\(run.output)")
        #expect(!run.output.contains("\u{1B}"), "\(run.output.debugDescription.prefix(300))")
        #expect(!run.output.contains("▀"))
    }
}

/// bok in tmux, with a client attached in a pseudo-terminal (the terminal outside).
@Suite("Covers in tmux", .serialized)
struct CoverTmuxTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let runnable = tmux != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")

    /// Runs `tmux -L socket ARGUMENTS` with no pipe a server could keep open; its output when `output`.
    @discardableResult
    static func tmux(
        _ socket: String, _ arguments: [String], environment: [String: String], output: Bool = false
    )
        throws -> String
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(tmux))
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = output ? pipe : FileHandle.nullDevice
        try process.run()
        let text = output ? String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        process.waitUntilExit()
        return text
    }

    /// bok's `info 1` in tmux with allow-passthrough `allow`: the pane, and what reached the outside.
    static func infoInTmux(allow: Bool, home: URL) async throws -> (pane: String, outside: String) {
        let socket = "bok-covers-\(UUID().uuidString.prefix(8))"
        var environment = CoverProcessTests.environment(home)
        environment["TMUX_TMPDIR"] = home.path
        defer { _ = try? tmux(socket, ["kill-server"], environment: environment) }
        // Started by Python, which closes every other descriptor: the tmux server outlives its
        // client, and one it inherited from this process would keep the wait for the client hanging.
        let start = Process()
        start.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        start.arguments = [
            "-c",
            "import subprocess, sys; subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, "
                + "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)",
            try #require(tmux), "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40",
            "\(OneShotProcessTests.binary.path) --mock",
        ]
        start.environment = environment
        start.standardInput = FileHandle.nullDevice
        start.standardOutput = FileHandle.nullDevice
        start.standardError = FileHandle.nullDevice
        try start.run()
        start.waitUntilExit()
        // Ended by its process id too: a server left behind would outlive the test run.
        let server = Int32(
            try tmux(socket, ["display-message", "-p", "#{pid}"], environment: environment, output: true)
                .trimmingCharacters(in: .whitespacesAndNewlines))
        defer { if let server, server > 1 { kill(server, SIGKILL) } }
        try tmux(socket, ["set", "-g", "allow-passthrough", allow ? "on" : "off"], environment: environment)
        let tty = try #require(PseudoTerminal(columns: 100, rows: 41))
        let program = try #require(tmux)
        let client = try #require(
            ChildProcess(
                program, arguments: ["-L", socket, "-f", "/dev/null", "attach"], environment: environment,
                terminal: tty.device))
        defer { if client.isRunning { kill(client.pid, SIGKILL) } }
        var outside = ""
        func wait(for text: String, times: Int = 1) async throws -> String {
            let deadline = Date().addingTimeInterval(15)
            var pane = ""
            while Date() < deadline {
                outside += tty.screen()
                pane = try tmux(socket, ["capture-pane", "-p"], environment: environment, output: true)
                if pane.components(separatedBy: text).count > times { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return pane
        }
        // The prompt ends `…)> `; capture-pane drops a line's trailing spaces.
        _ = try await wait(for: ")>")
        try tmux(socket, ["send-keys", "top 1", "Enter"], environment: environment)
        // The second prompt: the list is shown (in the interface's language).
        _ = try await wait(for: ")>", times: 2)
        try tmux(socket, ["send-keys", "info 1", "Enter"], environment: environment)
        _ = try await wait(for: "ISBN")
        try await Task.sleep(for: .milliseconds(500))
        let pane = try await wait(for: "ISBN")
        return (pane, outside)
    }

    @Test(
        "Without allow-passthrough the cover is half-blocks, even with images = sixel",
        .enabled(if: runnable, "needs tmux and python3"))
    func withoutPassthrough() async throws {
        let home = try CoverProcessTests.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let (pane, outside) = try await Self.infoInTmux(allow: false, home: home)
        #expect(pane.contains(String(repeating: "▀", count: CoverArt.columns)), "\(pane)")
        #expect(!outside.contains("q\"1;1;"), "a Sixel reached the terminal outside")
    }

    @Test(
        "With allow-passthrough on and images = sixel, the Sixel reaches the terminal outside",
        .enabled(if: runnable, "needs tmux and python3"))
    func withPassthrough() async throws {
        let home = try CoverProcessTests.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let (pane, outside) = try await Self.infoInTmux(allow: true, home: home)
        #expect(pane.contains("ISBN") && !pane.contains(String(repeating: "▀", count: CoverArt.columns)), "\(pane)")
        #expect(outside.contains("q\"1;1;"), "no Sixel outside")
    }
}
