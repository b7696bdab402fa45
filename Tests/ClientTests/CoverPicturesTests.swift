import Catalog
import Foundation
import MockLending
import Reader
import Shelf
import Terminal
import TestSupport
import Testing

@testable import Client

/// Covers on the shelf (`shelf --covers`) and covers in real pixels outside the reader: what a
/// patron sees, and what bok never writes where it must not.
@Suite("Covers on the shelf and in pixels", .serialized)
@MainActor
struct CoverPicturesTests {
    static let colours = Theme(
        caps: TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true), width: 100, height: 60)
    nonisolated static let sixel2png = ["/usr/bin/sixel2png", "/usr/local/bin/sixel2png"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    nonisolated static var decodable: ConditionTrait {
        .enabled(
            if: sixel2png != nil && PictureEncoder.isAvailable,
            "needs sixel2png (libsixel-bin: scripts/install-test-tools.sh) and Chafa (libchafa0)")
    }

    func harness() async throws -> Harness {
        let h = try await Harness(theme: Self.colours)
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        h.session.drawsCovers = true
        return h
    }

    /// The picture a Sixel sequence draws, decoded by sixel2png.
    nonisolated static func decode(sixel: [UInt8]) throws -> RasterImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-cover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("cover.six")
        let output = folder.appendingPathComponent("cover.png")
        try Data(sixel).write(to: input)
        let run = try runProgram(try #require(sixel2png), ["-i", input.path, "-o", output.path])
        try #require(run.status == 0, "sixel2png: \(run.output)")
        return try #require(RasterImage.decode(Array(try Data(contentsOf: output))), "sixel2png wrote no PNG")
    }

    /// The mean difference per channel between two pictures of one size (0–255).
    nonisolated static func meanError(_ a: RasterImage, _ b: RasterImage) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let (p, q) = (a.rgb(x: x, y: y), b.rgb(x: x, y: y))
                total += abs(Int(p.0) - Int(q.0)) + abs(Int(p.1) - Int(q.1)) + abs(Int(p.2) - Int(q.2))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    @Test("shelf --covers: a card with the title first, the cover fetched meanwhile, drawn beside the line next time")
    func shelfCovers() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 2")
        let first = try #require(h.session.lists.list?.byNumber[1]?.title)
        await h.run("borrow 1")
        await h.run("tbr add 2")
        // Text first: no cover is kept yet, so each book gets a card of its own, and a note.
        let before = await h.run("shelf --covers").map(Ansi.strip)
        let line = try #require(before.firstIndex { $0.contains("1  " + first) }, "\(before)")
        #expect(!before[line].contains("▀"), "a card, not a picture: \(before[line])")
        #expect(before.contains("2 covers are on their way; shelf --covers shows them next time."), "\(before)")
        await h.session.coverFetch?.value
        let after = await h.run("shelf --covers")
        let plain = after.map(Ansi.strip)
        let row = try #require(plain.firstIndex { $0.contains("1  " + first) }, "\(plain)")
        // The cover at the left of the book's line and the two rows under it, six cells across.
        #expect(plain[row].range(of: #"^ *▀+ *  +1  "#, options: .regularExpression) != nil, "\(plain[row])")
        #expect(plain[row + 1].contains("▀") && plain[row + 2].contains("▀"), "\(plain[row...(row + 2)])")
        #expect(plain.allSatisfy { DisplayWidth.of($0) <= 100 }, "every line fits the window")
        #expect(!plain.contains { $0.contains("on their way") })
        // Without --covers, without colours, and for --json, the shelf as before.
        #expect(!(await h.text("shelf")).contains("▀"))
        h.session.theme = Theme(caps: .plain, width: 100)
        #expect(!(await h.text("shelf --covers")).contains("▀"))
        let json = try await h.json(["shelf", "--covers"])
        #expect((json["entries"] as? [[String: Any]])?.count == 2)
    }

    @Test("The cover's address is kept when a book comes onto the shelf, and survives a new session")
    func addressKept() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let product = try #require(h.session.lists.list?.byNumber[1])
        await h.run("tbr add 1")
        let kept = try h.session.shelfStore().coverURLs(productIDs: [product.id])
        let address = try #require(product.coverImage)
        #expect(
            kept[product.id]?.hasSuffix(address.hasPrefix("http") ? address : String(address.drop { $0 == "/" }))
                == true)
        #expect(kept[product.id]?.hasPrefix("http") == true)
    }

    @Test("In pixels: info's and the shelf's covers come as Sixel that decodes back to the cover", decodable)
    func sixelCovers() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        h.session.coverPixels = .some(
            CoverPixels(
                detection: PictureDetection(method: .sixel, cell: PixelSize(width: 8, height: 16), reason: "test")))
        await h.run("top 1")
        // A cover of two colours, kept in the cache for the book: red above, blue below.
        await h.run("info 1")
        let folder = try #require(h.session.paths?.cache).appendingPathComponent("covers")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        let rgb = (0..<60).flatMap { y in (0..<40).flatMap { _ in y < 30 ? [220, 30, 30] : [30, 40, 210] as [UInt8] } }
        try Data(PNGEncoder.encode(width: 40, height: 60, rgb: rgb)).write(to: folder.appendingPathComponent(kept[0]))
        let output = try await CommandTable().run(["info", "1"], in: h.session)
        let picture = try #require(output.pictures.first, "info drew no picture")
        #expect(picture.columns == CoverArt.columns)
        // Its half-block rows are in the lines, for every printer that cannot draw it.
        #expect(output.lines.first?.contains(picture.rows[0]) == true)
        let decoded = try Self.decode(sixel: picture.code)
        let source = try #require(
            RasterImage.decode(Array(try Data(contentsOf: folder.appendingPathComponent(kept[0])))))
        #expect(decoded.width == CoverArt.columns * 8, "as wide as its cells")
        let expected = source.scaled(width: decoded.width, height: decoded.height, background: (0, 0, 0))
        #expect(Self.meanError(decoded, expected) < 12, "decodes back to the cover")
        #expect(decoded.rgb(x: 4, y: 4).0 > 180 && decoded.rgb(x: 4, y: decoded.height - 4).2 > 170)
    }

    @Test("The printer draws a picture over its blank cells and passes nothing else but bok's colours")
    func placing() throws {
        let theme = Self.colours
        let red = RasterImage(width: 2, height: 2, pixels: Array(repeating: [200, 0, 0, 255], count: 4).flatMap { $0 })
        let rows = CoverArt.halfBlocks(red, columns: 3, rows: 2, theme: theme)
        let picture = CoverPicture(rows: rows, columns: 3, code: Array("\u{1B}Pq#0;2;100;0;0~\u{1B}\\".utf8))
        // Two covers of one book side by side, then text.
        let lines = [rows[0] + "  " + rows[0] + " Title", rows[1] + "  " + rows[1], "after"]
        let (blanked, placed) = CoverPicture.place([picture, picture], in: lines)
        #expect(placed.map(\.column) == [0, 5] && placed.map(\.line) == [0, 0])
        #expect(blanked.map(Ansi.strip) == ["         Title", "        ", "after"])
        let text = String(decoding: CoverPicture.text(blanked, placed: placed), as: UTF8.self)
        // Each drawn once its last row is out: saved cursor, two rows up, to its column, restored.
        #expect(text.contains("\u{1B}7\u{1B}[2A\u{1B}[1G\u{1B}Pq"), "\(text.debugDescription)")
        #expect(text.contains("\u{1B}7\u{1B}[2A\u{1B}[6G\u{1B}Pq"), "\(text.debugDescription)")
        #expect(text.hasSuffix("\u{1B}8after\n"))
        // A picture scrolled above the window keeps its half-blocks.
        let late = CoverPicture.place([picture], in: lines, firstLine: 1)
        #expect(late.placed.isEmpty && late.lines == lines)
    }

    @Test("tmux: pictures only through passthrough it allows to a terminal that draws them, else half-blocks")
    func tmux() {
        typealias A = TmuxPassthrough.Answers
        let sixel = A(allowPassthrough: "on", termName: "xterm", termFeatures: ["256", "RGB", "sixel"])
        #expect(TmuxPassthrough.detect(setting: .auto, environment: [:], answers: sixel).method == .sixel)
        var off = sixel
        off.allowPassthrough = "off"
        #expect(TmuxPassthrough.detect(setting: .auto, environment: [:], answers: off).method == .blocks)
        #expect(TmuxPassthrough.detect(setting: .forced(.sixel), environment: [:], answers: off).method == .blocks)
        let plain = A(allowPassthrough: "on", termName: "xterm-256color", termFeatures: ["256", "RGB"])
        #expect(TmuxPassthrough.detect(setting: .auto, environment: [:], answers: plain).method == .blocks)
        let kitty = A(allowPassthrough: "all", termName: "xterm-kitty", termType: "kitty(0.35.2)")
        #expect(TmuxPassthrough.detect(setting: .auto, environment: [:], answers: kitty).method == .kitty)
        #expect(
            TmuxPassthrough.wrap(Array("\u{1B}Pq~\u{1B}\\".utf8))
                == Array("\u{1B}Ptmux;\u{1B}\u{1B}Pq~\u{1B}\u{1B}\\\u{1B}\\".utf8))
    }
}
