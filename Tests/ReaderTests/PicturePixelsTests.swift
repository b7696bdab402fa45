#if os(Linux)
import Foundation
import Glibc
import Synchronization
import Terminal
import Testing
import TestSupport

@testable import Reader

/// The oracles the picture tests decode bok's output with.
enum PictureOracles {
    /// libsixel's decoder (Debian libsixel-bin).
    static let sixel2png = ["/usr/bin/sixel2png", "/usr/local/bin/sixel2png"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static var installed: ConditionTrait {
        .enabled(
            if: sixel2png != nil && PictureEncoder.isAvailable,
            "needs sixel2png (Debian libsixel-bin: scripts/install-test-tools.sh) and Chafa (libchafa0)")
    }

    /// The picture `sixel` draws, decoded by sixel2png.
    static func decode(sixel: String) throws -> RasterImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-sixel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("picture.six")
        let output = folder.appendingPathComponent("picture.png")
        try Data(sixel.utf8).write(to: input)
        let run = try runProgram(try #require(sixel2png), ["-i", input.path, "-o", output.path])
        try #require(run.status == 0, "sixel2png: \(run.output)")
        return try #require(RasterImage.decode(Array(try Data(contentsOf: output))), "sixel2png wrote no PNG")
    }

    /// The first Sixel picture (DCS … q … ST) in what a terminal was sent.
    static func firstSixel(in screen: String) -> String? {
        guard let start = screen.range(of: "\u{1B}P"),
            let end = screen.range(of: "\u{1B}\\", range: start.upperBound..<screen.endIndex)
        else { return nil }
        return String(screen[start.lowerBound..<end.upperBound])
    }
}

/// Pictures drawn in a graphics protocol are the book's picture at the size of the cells the
/// page keeps for them, as a terminal decodes them.
@Suite(PictureOracles.installed) struct PicturePixelsTests {
    /// 64×32: the left half red, the right half blue.
    static let twoColours = PNGWriter.rgba(width: 64, height: 32) { x, _ in
        x < 32 ? (220, 30, 30, 255) : (30, 40, 210, 255)
    }

    @Test func aPagesPictureIsSixelThatDecodesToTheSourceAtTheCellsPixels() throws {
        let book = try EPUBBuilder.onePicture(Self.twoColours, alt: "Red and blue")
        let cell = PixelSize(width: 10, height: 20)
        let cells = ImageCells(book: book, method: .sixel, cell: cell)
        let reference = ImageReference(path: "OEBPS/pic.png", alt: "Red and blue")
        let line = LayoutLine(role: .image(reference), indent: 0, runs: [], sourceRange: 0..<0, width: 8)
        let drawing = try #require(
            cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246)))
        // 8 cells across a 2:1 picture: 2 rows kept, blank, for the picture to be drawn over.
        #expect(drawing.rows.count == 2)
        #expect(drawing.rows.allSatisfy { $0.text == String(repeating: " ", count: 8) })
        let sixel = try #require(drawing.overlay)
        #expect(sixel.hasPrefix("\u{1B}P"))
        let picture = try PictureOracles.decode(sixel: sixel)
        // 8 × 10 pixels across, 2 × 20 down rounded down to a whole sixel row (6 pixels).
        #expect(picture.width == 80)
        #expect(picture.height == 36)
        // It is the source: the mean error against it scaled to the same size is small.
        let source = try #require(RasterImage.decode(Self.twoColours)).scaled(
            width: picture.width, height: picture.height, background: (250, 250, 246))
        let error =
            zip(picture.pixels, source.pixels).enumerated().filter { $0.offset % 4 != 3 }
            .map { abs(Int($0.element.0) - Int($0.element.1)) }.reduce(0, +) / (picture.width * picture.height * 3)
        #expect(error < 16, "mean error \(error) of 255")
        // Cut by the foot of the page (scrolling), it is text cells, which stop there.
        let cut = try #require(
            cells.rows(
                for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246), room: 1))
        #expect(cut.overlay == nil)
        #expect(cut.rows.first?.text == String(repeating: "▀", count: 8))
        // The same picture at the same size is encoded once.
        let again = try #require(
            cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246)))
        #expect(again.overlay == sixel)
    }
}

/// iTerm2's inline images: Chafa's payload is the picture itself, for the cells it is to fill.
@Suite(.enabled(if: PictureEncoder.isAvailable, "needs Chafa (Debian libchafa0)")) struct ITermPictureTests {
    @Test func aKittyPictureCarriesTheSourcesPixelsInChunksAndIsPlacedInItsCells() throws {
        // 1 000 × 500: sent at most 800 pixels wide, in chunks of 4 096 base64 characters.
        let wide = PNGWriter.rgba(width: 1_000, height: 500) { x, _ in
            x < 500 ? (220, 30, 30, 255) : (30, 40, 210, 255)
        }
        let cases: [(png: [UInt8], width: Int, height: Int)] = [
            (PicturePixelsTests.twoColours, 64, 32), (wide, 800, 400),
        ]
        for (png, width, height) in cases {
            let book = try EPUBBuilder.onePicture(png, alt: "Red and blue")
            let cells = ImageCells(book: book, method: .kitty, cell: PixelSize(width: 10, height: 20))
            let reference = ImageReference(path: "OEBPS/pic.png", alt: "Red and blue")
            let line = LayoutLine(role: .image(reference), indent: 0, runs: [], sourceRange: 0..<0, width: 8)
            let drawing = try #require(
                cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246)))
            let code = try #require(drawing.overlay)
            // Each chunk: ESC _ G control ; payload ESC \; the first names the format and size.
            var payload = ""
            var controls: [String] = []
            for chunk in code.components(separatedBy: "\u{1B}_G").dropFirst() {
                let body = try #require(chunk.components(separatedBy: "\u{1B}\\").first)
                let parts = body.split(separator: ";", maxSplits: 1)
                controls.append(String(parts[0]))
                if parts.count == 2 { payload += parts[1] }
            }
            #expect(controls.first?.hasPrefix("a=t,f=32,s=\(width),v=\(height),") == true, "\(controls.first ?? "")")
            #expect(controls.last == "a=p,i=1,c=8,r=2,C=1,q=2", "placed in the 8 × 2 cells the page keeps")
            let pixels = try #require(Data(base64Encoded: payload), "the payload is base64")
            #expect(pixels.count == width * height * 4)
            // Left half red, right half blue, as the source.
            func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[(y * width + x) * 4..<(y * width + x) * 4 + 3]) }
            #expect(
                pixel(width / 4, height / 2) == [220, 30, 30] && pixel(width * 3 / 4, height / 2) == [30, 40, 210])
            let first = try #require(RasterImage.decode(png))
            if first.width == width { #expect(Array(pixels) == first.pixels, "the very pixels of the source") }
        }
    }

    @Test func anITermPictureNamesItsCellsAndCarriesAnImageFile() throws {
        let book = try EPUBBuilder.onePicture(PicturePixelsTests.twoColours, alt: "Red and blue")
        let cells = ImageCells(book: book, method: .iterm, cell: PixelSize(width: 10, height: 20))
        let reference = ImageReference(path: "OEBPS/pic.png", alt: "Red and blue")
        let line = LayoutLine(role: .image(reference), indent: 0, runs: [], sourceRange: 0..<0, width: 8)
        let drawing = try #require(
            cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246)))
        let code = try #require(drawing.overlay)
        let header = "\u{1B}]1337;File=inline=1;width=8;height=2;preserveAspectRatio=0:"
        #expect(code.hasPrefix(header), "\(code.prefix(60))")
        let payload = code.dropFirst(header.count).prefix { $0 != "\u{07}" && $0 != "\u{1B}" }
        let file = try #require(Data(base64Encoded: String(payload)), "the payload is base64")
        // A TIFF (little-endian) of the cells' pixels: 8 × 10 by 2 × 20.
        #expect(Array(file.prefix(4)) == [0x49, 0x49, 0x2A, 0x00])
        #expect(file.count >= 80 * 40 * 3, "\(file.count) bytes")
    }
}

/// `:images` in the reader: the page's pictures change the way they are drawn, and the reader
/// says how; nothing is asked before a picture is drawn.
@Suite(.enabled(if: PictureEncoder.isAvailable, "needs Chafa (Debian libchafa0)")) struct ImagesCommandTests {
    @Test func imagesSixelAndBlocksRedrawThePictureAndSayHow() throws {
        let book = try EPUBBuilder.onePicture(PicturePixelsTests.twoColours, alt: "Red and blue")
        let asked = Mutex<[ImagesSetting]>([])
        let cells = ImageCells(book: book) { setting in
            asked.withLock { $0.append(setting) }
            return setting == .forced(.sixel)
                ? PictureDetection(method: .sixel, cell: PixelSize(width: 8, height: 16), reason: "test")
                : PictureDetection(method: .blocks, reason: "test")
        }
        let capabilities = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        let session = ReaderSession(
            book: book, store: InMemoryPositionStore(), columns: 100, rows: 23, drawsImages: true)
        var view = ReaderView(session: session, capabilities: capabilities, badge: nil, columns: 100, rows: 24)
        view.images = cells
        #expect(asked.withLock { $0 }.isEmpty, "nothing is decided before a page is drawn")
        #expect(view.frameWithOverlays().rows.contains { $0.text.contains("▀") }, "auto found half-blocks here")
        func command(_ text: String) {
            for character in ":" + text { _ = view.handle(.character(character)) }
            _ = view.handle(.enter)
        }
        command("images sixel")
        #expect(
            view.textRows().last?.contains("Pictures are drawn as Sixel graphics, 8×16") == true, "\(view.textRows())")
        let frame = view.frameWithOverlays()
        #expect(frame.overlays.count == 1 && frame.overlays[0].code.hasPrefix("\u{1B}P"))
        #expect(!frame.rows.contains { $0.text.contains("▀") }, "the cells under a Sixel picture are blank")
        command("images blocks")
        #expect(view.textRows().last?.contains("Pictures are drawn with half-blocks") == true, "\(view.textRows())")
        #expect(view.frameWithOverlays().overlays.isEmpty)
        #expect(asked.withLock { $0 } == [.auto, .forced(.sixel), .forced(.blocks)])
    }
}

/// The real reader on a pseudo-terminal that answers as a terminal would: what it writes.
@Suite(
    .serialized, PictureOracles.installed,
    .enabled(
        if: ReaderTerminalTests.binary != nil && access("/dev/ptmx", R_OK | W_OK) == 0,
        "needs the reader-bench executable (swift build) and /dev/ptmx"))
struct PictureTerminalTests {
    /// Opens a generated book (its first page is the cover) in `environment`, answers the reader's
    /// query with `answer`, and returns what it wrote until the first page is drawn and then q.
    private func firstPage(
        environment extra: [String: String], answer: String?, picture: Bool = true, shape: String = "cover-page"
    ) async throws -> String {
        let book = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(getpid()).epub").path
        defer { try? FileManager.default.removeItem(atPath: book) }
        let binary = try #require(ReaderTerminalTests.binary)
        let generated = try runProgram(
            binary,
            ["generate", book, "--shape", shape]
                + (shape == "cover-page" ? ["--chapters", "2", "--bytes", "20000"] : []))
        try #require(generated.status == 0, "\(generated.output)")
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        var environment = ProcessInfo.processInfo.environment
        for name in ["TMUX", "KITTY_WINDOW_ID", "TERM_PROGRAM", "NO_COLOR"] { environment[name] = nil }
        environment["COLORTERM"] = "truecolor"
        environment["LANG"] = "C.UTF-8"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(extra) { $1 }
        let process = try #require(
            ChildProcess(
                binary, arguments: ["read", book, "--badge", "12 days"], environment: environment,
                terminal: tty.device))
        // The page's text comes first; its picture follows, once the terminal has answered (or the
        // bound has passed) and the picture is encoded.
        let drawn = { (text: String) in
            Ansi.strip(text).contains("12 days")
                && (text.contains("▀") || text.contains("\u{1B}_G") || text.contains("\u{1B}\\"))
        }
        var screen = ""
        if let answer {
            screen = await tty.read(until: { $0.contains(TerminalQuery.request) || Ansi.strip($0).contains("12 days") })
            tty.type(answer)
        }
        let before = screen
        screen += await tty.read(until: { drawn(before + $0) }, seconds: picture ? 3 : 0.5)
        screen += tty.screen()
        tty.type("q")
        let rest = await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
        return screen + rest
    }

    @Test func anXtermWithSixelGetsTheCoverInSixel() async throws {
        let screen = try await firstPage(
            environment: ["TERM": "xterm-256color"],
            answer: "\u{1B}[6;20;10t\u{1B}[4;600;1000t\u{1B}[?63;1;2;4;6;9;15;22c\u{1B}[0n")
        #expect(screen.contains(TerminalQuery.request), "the terminal is asked once, in one write")
        let sixel = try #require(PictureOracles.firstSixel(in: screen), "no Sixel picture written")
        let status = try #require(screen.range(of: "12 days"))
        #expect(
            status.lowerBound < (screen.range(of: TerminalQuery.request)?.lowerBound ?? screen.startIndex)
                && status.lowerBound < (screen.range(of: sixel)?.lowerBound ?? screen.startIndex),
            "the page's text is on screen before the terminal is asked and the picture drawn")
        let picture = try PictureOracles.decode(sixel: sixel)
        #expect(picture.width % 10 == 0 && picture.width >= 100 && picture.width <= 1000, "\(picture.width)")
        #expect(picture.height % 6 == 0 && picture.height >= 60 && picture.height <= 580, "\(picture.height)")
        // Not blank: the cover has more than a page's colour.
        let colours = Set(stride(from: 0, to: picture.pixels.count, by: 4).map { picture.pixels[$0..<($0 + 3)] })
        #expect(colours.count > 4, "\(colours.count) colours")
        #expect(!screen.contains("▀"), "no half-blocks where Sixel is drawn")
    }

    @Test func aPictureBooksPageIsDrawnInSixelAsTallAsTheWindow() async throws {
        let screen = try await firstPage(
            environment: ["TERM": "xterm-256color"], answer: "\u{1B}[6;20;10t\u{1B}[?63;1;2;4;6;9;15;22c\u{1B}[0n",
            shape: "picture-book")
        let sixel = try #require(PictureOracles.firstSixel(in: screen), "no Sixel picture written")
        let picture = try PictureOracles.decode(sixel: sixel)
        // 29 rows of 20 pixels above the status line: the page fills them (less a Sixel row of 6).
        #expect(picture.height >= 28 * 20 && picture.height <= 29 * 20, "\(picture.height) pixels high")
        // 3:4, as the page is.
        #expect(abs(Double(picture.width) / Double(picture.height) - 0.75) < 0.05, "\(picture.width) wide")
        let text = Ansi.strip(screen)
        #expect(text.contains("1/24"), "the book's pages are counted")
        #expect(!screen.contains("▀"), "no half-blocks where Sixel is drawn")
    }

    @Test func kittysEnvironmentGetsKittysProtocolWithoutAsking() async throws {
        let screen = try await firstPage(environment: ["TERM": "xterm-kitty"], answer: nil)
        #expect(!screen.contains(TerminalQuery.request))
        #expect(screen.contains("\u{1B}_Ga=t,f=32"))
        #expect(screen.contains("\u{1B}_Ga=d,d=a"), "kitty's pictures are deleted on leaving")
        #expect(PictureOracles.firstSixel(in: screen) == nil)
    }

    @Test func aTerminalThatDoesNotAnswerGetsHalfBlocks() async throws {
        let screen = try await firstPage(environment: ["TERM": "xterm-256color"], answer: nil)
        #expect(screen.contains("▀"))
        #expect(PictureOracles.firstSixel(in: screen) == nil)
        // Kitty's query (which stores nothing) was asked; no picture was sent in its protocol.
        #expect(screen.replacing(TerminalQuery.request, with: "").contains("\u{1B}_G") == false)
    }

    @Test func dumbTerminalsGetNoGraphicsEvenWhenAnsweringSixel() async throws {
        let screen = try await firstPage(
            environment: ["TERM": "dumb"], answer: "\u{1B}[?63;4c\u{1B}[0n", picture: false)
        #expect(!screen.contains(TerminalQuery.request), "a dumb terminal is not asked")
        #expect(PictureOracles.firstSixel(in: screen) == nil)
        // Kitty's query (which stores nothing) was asked; no picture was sent in its protocol.
        #expect(screen.replacing(TerminalQuery.request, with: "").contains("\u{1B}_G") == false)
    }
}
#endif

/// `z`: the page's picture on the whole screen with its label; z again the next, any other key
/// the page.
@Suite struct ZoomPictureTests {
    @Test func zShowsThePictureOnTheWholeScreenWithItsLabelAndEscReturns() throws {
        let book = try EPUBBuilder.onePicture(PicturePixelsTests.twoColours, alt: "Red and blue")
        let cells = ImageCells(book: book) { _ in PictureDetection(method: .blocks, reason: "test") }
        let capabilities = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        let session = ReaderSession(
            book: book, store: InMemoryPositionStore(), columns: 100, rows: 29, drawsImages: true)
        var view = ReaderView(session: session, capabilities: capabilities, badge: nil, columns: 100, rows: 30)
        view.images = cells
        func pictureRows(_ rows: [StyledRow]) -> [String] { rows.map(\.text).filter { $0.contains("▀") } }
        let onPage = pictureRows(view.frameWithOverlays().rows)
        #expect(!onPage.isEmpty)
        _ = view.handle(.character("z"))
        let rows = view.frameWithOverlays().rows
        #expect(rows.count == 30)
        let zoomed = pictureRows(rows)
        // 2:1 and as tall as the screen leaves it: wider and taller than on the page, centred.
        #expect(zoomed.count > onPage.count && zoomed.count >= 20, "\(zoomed.count) rows")
        let width = zoomed[0].filter { $0 == "▀" }.count
        #expect(width == zoomed.count * 2 * 2 || width == 100, "\(width) columns for \(zoomed.count) rows")
        let indent = zoomed[0].prefix { $0 == " " }.count
        #expect(abs(indent - (100 - width) / 2) <= 1, "centred: \(indent)")
        #expect(rows[rows.count - 2].text.contains("Red and blue"), "its label under it")
        #expect(rows[rows.count - 1].text.contains("Esc"))
        // Any other key: the page again.
        _ = view.handle(.escape)
        #expect(pictureRows(view.frameWithOverlays().rows) == onPage)
        // A page without a picture says so.
        let text = try EPUBBuilder(chapters: [.init("c1.xhtml", "One", "<p>Only words.</p>")]).open()
        var plain = ReaderView(
            session: ReaderSession(book: text, store: InMemoryPositionStore(), columns: 100, rows: 29),
            capabilities: capabilities, badge: nil, columns: 100, rows: 30)
        _ = plain.handle(.character("z"))
        #expect(plain.session.message == "No picture on this page.")
        #expect(plain.frameWithOverlays().rows.contains { $0.text.contains("Only words.") })
    }
}

/// AVIF (libavif) and JPEG XL (libjxl) pictures, made from a PNG by Debian's own encoders.
@Suite(
    .enabled(
        if: ["/usr/bin/avifenc", "/usr/bin/cjxl"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) },
        "needs avifenc and cjxl (Debian libavif-bin, libjxl-tools: scripts/install-test-tools.sh)"))
struct AVIFAndJPEGXLTests {
    /// `tool` run on the two-colour PNG; the file it wrote.
    static func encoded(_ tool: String, _ arguments: [String], suffix: String) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-\(suffix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png")
        let output = folder.appendingPathComponent("out.\(suffix)")
        try Data(PicturePixelsTests.twoColours).write(to: input)
        let run = try runProgram(tool, arguments + [input.path, output.path])
        try #require(run.status == 0, "\(tool): \(run.output)")
        return Array(try Data(contentsOf: output))
    }

    @Test(arguments: [
        ("/usr/bin/avifenc", ["--lossless"], "avif"), ("/usr/bin/cjxl", ["-d", "0"], "jxl"),
    ])
    func aPictureDecodesToItsColoursAndItsSizeComesFromItsHeader(
        tool: String, arguments: [String], suffix: String
    ) throws {
        let bytes = try Self.encoded(tool, arguments, suffix: suffix)
        #expect(ImageSize.of(bytes).map { [$0.width, $0.height] } == [64, 32])
        let image = try #require(RasterImage.decode(bytes), "\(suffix) did not decode")
        #expect(image.width == 64 && image.height == 32)
        let left = image.rgb(x: 8, y: 16)
        let right = image.rgb(x: 56, y: 16)
        #expect(abs(Int(left.0) - 220) < 8 && left.2 < 50, "\(left)")
        #expect(abs(Int(right.2) - 210) < 8 && right.0 < 50, "\(right)")
        // Cut short, it is no picture rather than a crash.
        #expect(RasterImage.decode(Array(bytes.prefix(bytes.count / 2))) == nil)
    }

    @Test func aBookShowsThemAsPictures() throws {
        var builder = EPUBBuilder(chapters: [
            .init("c1.xhtml", "One", #"<p><img src="a.avif" alt="A"/></p><p><img src="b.jxl" alt="B"/></p>"#)
        ])
        builder.extraManifest = """
            <item id="a" href="a.avif" media-type="image/avif"/><item id="b" href="b.jxl" media-type="image/jxl"/>
            """
        builder.extraFiles = [
            ("OEBPS/a.avif", try Self.encoded("/usr/bin/avifenc", ["--lossless"], suffix: "avif")),
            ("OEBPS/b.jxl", try Self.encoded("/usr/bin/cjxl", ["-d", "0"], suffix: "jxl")),
        ]
        let book = try builder.open()
        let content = BookContent(book: book)
        let paths = content.document(at: 0).blocks.compactMap { block -> String? in
            if case .image(let image) = block.kind { return image.path }
            return nil
        }
        #expect(paths == ["OEBPS/a.avif", "OEBPS/b.jxl"])
        for path in paths { #expect(content.imageSize(at: path).map { [$0.width, $0.height] } == [64, 32]) }
    }
}
