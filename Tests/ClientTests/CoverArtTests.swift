import Catalog
import Foundation
import MockLending
import Terminal
import Testing

@testable import Client

/// `info N` with the book's cover beside its details, at a terminal with colours; kept in the
/// cache, never drawn where bok must not draw.
@Suite("Covers in info", .serialized)
@MainActor
struct CoverArtTests {
    static let colours = Theme(
        caps: TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true), width: 100)

    @Test("The cover is drawn at the left of the details, fitted beside it, and kept in the cache")
    func coverBesideDetails() async throws {
        let h = try await Harness(theme: Self.colours)
        defer { Task { await h.stop() } }
        h.session.drawsCovers = true
        await h.run("top 1")
        let title = try #require(h.session.lists.list?.byNumber[1]?.title)
        let screen = await h.run("info 1")
        let first = try #require(screen.first)
        #expect(first.hasPrefix("\u{1B}[38;2;"), "a truecolour half-block first: \(first.prefix(40))")
        let plain = screen.map(Ansi.strip)
        #expect(plain[0].hasPrefix(String(repeating: "▀", count: CoverArt.columns) + "  " + title), "\(plain[0])")
        #expect(plain.allSatisfy { DisplayWidth.of($0) <= 100 }, "every line fits the window")
        // Kept: the cache's picture is the one drawn next time (here replaced by a plain red one).
        let folder = try #require(h.session.paths?.cache).appendingPathComponent("covers")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(kept.count == 1)
        let red = PNGEncoder.encode(width: 8, height: 12, rgb: Array(repeating: [200, 0, 0], count: 96).flatMap { $0 })
        try Data(red).write(to: folder.appendingPathComponent(kept[0]))
        let again = await h.run("info 1")
        #expect(again[0].hasPrefix("\u{1B}[38;2;200;0;0;48;2;200;0;0m▀"), "\(again[0].prefix(40))")
    }

    @Test("No cover piped, in plain colours, for --json or a screen reader: the details as before")
    func noCoverWhereNotWanted() async throws {
        let h = try await Harness(theme: Self.colours)
        defer { Task { await h.stop() } }
        await h.run("top 1")
        // drawsCovers is off unless bok is at a terminal, not recording, not --json, no screen reader.
        #expect(!(await h.text("info 1")).contains("▀"))
        h.session.drawsCovers = true
        h.session.theme = Theme(caps: .plain, width: 100)
        #expect(!(await h.text("info 1")).contains("▀"))
        var reader = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        reader.screenReader = true
        h.session.theme = Theme(caps: reader, width: 100)
        #expect(!(await h.text("info 1")).contains("▀"))
        var off = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        off.images = .forced(.off)
        h.session.theme = Theme(caps: off, width: 100)
        #expect(!(await h.text("info 1")).contains("▀"))
        let json = try await h.json(["info", "1"])
        #expect(json["title"] != nil)
    }
}
