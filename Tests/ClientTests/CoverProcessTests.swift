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
