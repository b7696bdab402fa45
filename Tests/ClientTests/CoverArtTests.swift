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

    @Test("view grid: each card has its cover above its words; a book without one gets its title on a tint")
    func gridCards() async throws {
        let h = try await Harness(theme: Theme(caps: Self.colours.caps, width: 100, height: 50))
        defer { Task { await h.stop() } }
        h.session.drawsCovers = true
        await h.run("view grid")
        let screen = await h.run("search thriller")
        let plain = screen.map(Ansi.strip)
        // Three cards across: the first rows are covers, then each card's number and mark.
        let coverRows = plain.dropFirst(2).prefix(CoverArt.cardRows)
        #expect(coverRows.allSatisfy { $0.filter { $0 == "▀" }.count == 3 * CoverArt.cardColumns }, "\(coverRows)")
        #expect(plain[2 + CoverArt.cardRows].hasPrefix("1 "), "\(plain[2 + CoverArt.cardRows])")
        // The page is as many cards as the window holds with their covers: 3 rows of 3 here.
        #expect(plain.contains { $0.hasPrefix("Showing 1–9 of ") }, "\(plain.suffix(3))")
        #expect(plain.allSatisfy { DisplayWidth.of($0) <= 100 })
        // No cover: a card of its own, the title wrapped on a tint, never a hole.
        let card = CoverArt.boxed(nil, title: "Huset vid havet", columns: 12, rows: 9, theme: Self.colours)
        #expect(card.count == 9 && card.allSatisfy { DisplayWidth.of(Ansi.strip($0)) == 12 })
        #expect(card.allSatisfy { $0.contains("48;2;") }, "on a tint")
        #expect(
            card.map(Ansi.strip).joined(separator: " ").split(separator: " ").joined(separator: " ")
                == "Huset vid havet")
        // In list view, no covers.
        await h.run("view list")
        #expect(!(await h.text("search thriller")).contains("▀"))
    }

    @Test("A recording draws no cover but says where it was")
    func recordingNamesTheCover() async throws {
        let h = try await Harness(theme: Self.colours)
        defer { Task { await h.stop() } }
        h.session.namesCovers = true
        await h.run("top 1")
        let screen = await h.run("info 1").map(Ansi.strip)
        #expect(screen.first == "[cover]", "\(screen.prefix(2))")
        #expect(!screen.joined().contains("▀"))
    }

    @Test("view grid: the cards come first; a cover still on its way is a tint card, drawn the next time")
    func gridTextFirst() async throws {
        let h = try await Harness(theme: Theme(caps: Self.colours.caps, width: 100, height: 50))
        defer { Task { await h.stop() } }
        h.session.drawsCovers = true
        h.session.gridCoverWait = .zero
        await h.run("view grid")
        let first = await h.run("search thriller").map(Ansi.strip)
        #expect(first.contains { $0.hasPrefix("Showing 1–9 of ") }, "the cards, at once")
        #expect(!first.contains { $0.contains("▀") }, "no cover had come: tint cards")
        await h.session.coverFetch?.value
        let again = await h.run("search thriller").map(Ansi.strip)
        let coverRows = again.dropFirst(2).prefix(CoverArt.cardRows)
        #expect(coverRows.allSatisfy { $0.filter { $0 == "▀" }.count == 3 * CoverArt.cardColumns }, "\(coverRows)")
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
