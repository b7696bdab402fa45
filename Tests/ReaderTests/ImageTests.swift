import CWebP
import Foundation
import Terminal
import Testing

@testable import Reader

@Suite struct ImageTests {
    /// A 16×8 JPEG made with libjpeg: the left half red, the right half blue.
    static let jpeg: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x03, 0x02, 0x02, 0x03, 0x02, 0x02, 0x03,
        0x03, 0x03, 0x03, 0x04, 0x03, 0x03, 0x04, 0x05, 0x08, 0x05, 0x05, 0x04, 0x04, 0x05, 0x0A, 0x07,
        0x07, 0x06, 0x08, 0x0C, 0x0A, 0x0C, 0x0C, 0x0B, 0x0A, 0x0B, 0x0B, 0x0D, 0x0E, 0x12, 0x10, 0x0D,
        0x0E, 0x11, 0x0E, 0x0B, 0x0B, 0x10, 0x16, 0x10, 0x11, 0x13, 0x14, 0x15, 0x15, 0x15, 0x0C, 0x0F,
        0x17, 0x18, 0x16, 0x14, 0x18, 0x12, 0x14, 0x15, 0x14, 0xFF, 0xDB, 0x00, 0x43, 0x01, 0x03, 0x04,
        0x04, 0x05, 0x04, 0x05, 0x09, 0x05, 0x05, 0x09, 0x14, 0x0D, 0x0B, 0x0D, 0x14, 0x14, 0x14, 0x14,
        0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14,
        0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14,
        0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0x14, 0xFF, 0xC0,
        0x00, 0x11, 0x08, 0x00, 0x08, 0x00, 0x10, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11,
        0x01, 0xFF, 0xC4, 0x00, 0x1F, 0x00, 0x00, 0x01, 0x05, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
        0x0A, 0x0B, 0xFF, 0xC4, 0x00, 0xB5, 0x10, 0x00, 0x02, 0x01, 0x03, 0x03, 0x02, 0x04, 0x03, 0x05,
        0x05, 0x04, 0x04, 0x00, 0x00, 0x01, 0x7D, 0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21,
        0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23,
        0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17,
        0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A,
        0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A,
        0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A,
        0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
        0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7,
        0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5,
        0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1,
        0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA, 0xFF, 0xC4, 0x00, 0x1F, 0x01, 0x00, 0x03,
        0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
        0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0xFF, 0xC4, 0x00, 0xB5, 0x11, 0x00,
        0x02, 0x01, 0x02, 0x04, 0x04, 0x03, 0x04, 0x07, 0x05, 0x04, 0x04, 0x00, 0x01, 0x02, 0x77, 0x00,
        0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13,
        0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0, 0x15,
        0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26, 0x27,
        0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
        0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
        0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88,
        0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6,
        0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4,
        0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE2,
        0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9,
        0xFA, 0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00, 0xF0,
        0x7A, 0xF1, 0x7A, 0x28, 0xAF, 0xD7, 0x7C, 0x00, 0xFF, 0x00, 0x99, 0xA7, 0xFD, 0xC1, 0xFF, 0x00,
        0xDC, 0xA7, 0xEE, 0xBE, 0x37, 0xFF, 0x00, 0xCC, 0xBB, 0xFE, 0xE2, 0xFF, 0x00, 0xEE, 0x33, 0xFF,
        0xD9,
    ]

    static let png = PNGWriter.rgba(width: 20, height: 10) { x, _ in x < 10 ? (0, 200, 0, 255) : (0, 0, 0, 0) }

    @Test func sizesComeFromHeadersAlone() {
        #expect(ImageSize.of(Self.png).map { [$0.width, $0.height] } == [20, 10])
        #expect(ImageSize.of(Self.jpeg).map { [$0.width, $0.height] } == [16, 8])
        #expect(ImageSize.of(Array("GIF89a".utf8) + [40, 0, 30, 0]).map { [$0.width, $0.height] } == [40, 30])
        #expect(ImageSize.of(Array("not an image at all, just text".utf8)) == nil)
    }

    @Test func pngDecodesAndTransparencyTakesThePageColour() throws {
        let image = try #require(RasterImage.decode(Self.png))
        #expect(image.width == 20 && image.height == 10)
        let scaled = image.scaled(width: 2, height: 1, background: (250, 250, 246))
        #expect(scaled.rgb(x: 0, y: 0) == (0, 200, 0))
        #expect(scaled.rgb(x: 1, y: 0) == (250, 250, 246))
    }

    @Test func jpegDecodes() throws {
        let image = try #require(RasterImage.decode(Self.jpeg, minimumWidth: 16))
        #expect(image.width == 16 && image.height == 8)
        let left = image.rgb(x: 1, y: 4)
        let right = image.rgb(x: 14, y: 4)
        #expect(left.0 > 180 && left.2 < 80)
        #expect(right.2 > 180 && right.0 < 80)
    }

    @Test func damagedImagesGiveNothingRatherThanCrash() {
        #expect(RasterImage.decode(Array(Self.jpeg.prefix(20))) == nil)
        #expect(RasterImage.decode(Array(Self.png.prefix(40))) == nil)
        #expect(RasterImage.decode([0xFF, 0xD8, 0xFF, 0x00, 0x01]) == nil)
        #expect(RasterImage.decode(Array("hello".utf8)) == nil)
    }

    @Test func halfBlocksCarryTwoPixelsPerCell() throws {
        let book = try EPUBBuilder.onePicture(Self.png, alt: "A green field")
        let cells = try #require(
            ImageCells.make(
                book: book, capabilities: TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true),
                environment: ["TERM": "xterm-256color"]))
        let reference = ImageReference(path: "OEBPS/pic.png", alt: "A green field")
        let line = LayoutLine(role: .image(reference), indent: 0, runs: [], sourceRange: 0..<0, width: 6)
        let drawing = try #require(
            cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (250, 250, 246)))
        #expect(drawing.rows.count == 2)  // 6 cells across a 2:1 picture: 3 pixel rows, 2 text rows
        #expect(drawing.rows.allSatisfy { $0.text == String(repeating: "▀", count: 6) }, "\(drawing.rows.map(\.text))")
        #expect(drawing.overlay == nil)
        // The transparent right half takes the page's colour; a night page gives a dark one.
        #expect(drawing.rows[0].segments.last?.style.background == .rgb(250, 250, 246))
        let night = try #require(
            cells.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (22, 22, 26)))
        #expect(night.rows[0].segments.last?.style.background == .rgb(22, 22, 26))
        #expect(night.rows[0].segments.first?.style.foreground == .rgb(0, 200, 0))
        // No colour: labels, not pictures.
        #expect(ImageCells.make(book: book, capabilities: .plain, environment: [:]) == nil)
        // Kitty: blank cells and the graphics protocol.
        let kitty = try #require(
            ImageCells.make(
                book: book, capabilities: TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true),
                environment: ["TERM": "xterm-kitty"]))
        let placed = try #require(
            kitty.rows(for: reference, spineIndex: 0, line: line, width: 40, background: (22, 22, 26)))
        #expect(placed.overlay?.hasPrefix("\u{1B}_Ga=t,f=32,s=20,v=10") == true)
        #expect(placed.overlay?.contains("a=p") == true)
    }
}

/// GIF (giflib) and WebP (libwebp) pictures, as older and newer books carry them.
@Suite struct GIFAndWebPTests {
    /// A 1×1 GIF89a written by hand: a two-colour table (red, black), no transparency, and the
    /// LZW codes clear, 0, end.
    static let redGIF: [UInt8] =
        Array("GIF89a".utf8) + [
            0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x21, 0xF9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
        ]

    @Test func aGIFsFirstFrameDecodes() throws {
        #expect(ImageSize.of(Self.redGIF)! == (1, 1))
        let image = try #require(RasterImage.decode(Self.redGIF))
        #expect(image.width == 1 && image.height == 1)
        #expect(image.pixels == [255, 0, 0, 255])
        #expect(RasterImage.decode(Array(Self.redGIF.prefix(20))) == nil, "a cut-off GIF is refused, not a crash")
    }

    @Test func aWebPDecodesAndItsSizeComesFromItsHeader() throws {
        // Made here with libwebp's own lossless encoder: 6×4, left half green, right half blue.
        let pixels: [UInt8] = (0..<24).flatMap { index in
            index % 6 < 3 ? [0, 200, 0, 255] : [0, 0, 220, 255] as [UInt8]
        }
        var output: UnsafeMutablePointer<UInt8>?
        let size = pixels.withUnsafeBufferPointer { WebPEncodeLosslessRGBA($0.baseAddress, 6, 4, 24, &output) }
        let bytes = Array(UnsafeBufferPointer(start: try #require(output), count: size))
        WebPFree(output)
        #expect(ImageSize.of(bytes)! == (6, 4))
        let image = try #require(RasterImage.decode(bytes))
        #expect(image.width == 6 && image.height == 4)
        #expect(Array(image.pixels[0..<4]) == [0, 200, 0, 255] && Array(image.pixels[20..<24]) == [0, 0, 220, 255])
    }
}

/// SVG pictures, drawn by librsvg: inline in a chapter, as a chapter's `<img>`, and as a page of
/// the spine, where bok used to show a drawing's title or its stylesheet's text.
@Suite struct SVGPictureTests {
    /// A 40×20 drawing: its left half red through a class in its own stylesheet, its right half blue.
    static let drawing = """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 4 2">\
        <title>Two colours</title><style><![CDATA[ .left { fill: red } ]]></style>\
        <rect class="left" x="0" y="0" width="2" height="2"/><rect x="2" y="0" width="2" height="2" fill="#00f"/></svg>
        """

    static func colours(_ image: RasterImage) -> (left: (UInt8, UInt8, UInt8), right: (UInt8, UInt8, UInt8)) {
        (image.rgb(x: image.width / 4, y: image.height / 2), image.rgb(x: image.width * 3 / 4, y: image.height / 2))
    }

    @Test func anSVGFileIsDrawnWithItsOwnStylesheet() throws {
        let bytes = Array(("<?xml version=\"1.0\"?>\n" + Self.drawing).utf8)
        #expect(ImageSize.of(bytes).map { [$0.width, $0.height] } == [40, 20])
        let image = try #require(RasterImage.decode(bytes, minimumWidth: 80))
        // Drawn sharp, at least as wide as asked, in its proportions.
        #expect(image.width == 80 && image.height == 40)
        let (left, right) = Self.colours(image)
        #expect(left == (255, 0, 0) && right == (0, 0, 255), "\(left) \(right)")
    }

    @Test func sizesInOtherUnitsOrOnlyAViewBoxAreRead() {
        func size(_ root: String) -> [Int]? {
            ImageSize.of(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" \(root)></svg>".utf8)).map {
                [$0.width, $0.height]
            }
        }
        #expect(size("width=\"1in\" height=\"72pt\"") == [96, 96])
        #expect(size("viewBox=\"0 0 300 150\"") == [300, 150])
        #expect(size("width=\"100%\" height=\"100%\" viewBox=\"0,0,30,10\"") == [30, 10])
        #expect(size("width=\"60\" viewBox=\"0 0 30 10\"") == [60, 20])
        #expect(size("") == nil)
    }

    @Test func whatIsNotAnSVGDrawsNothing() {
        #expect(
            RasterImage.decode(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect".utf8))
                == nil)
        #expect(RasterImage.decode(Array("<html><body>svg</body></html>".utf8)) == nil)
    }

    @Test func aDrawingReadsNoFileOutsideIt() throws {
        // A red picture on disk, which a drawing names by its full path and by a relative one.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("svg-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let red = directory.appendingPathComponent("red.png")
        try Data(PNGWriter.rgba(width: 4, height: 4) { _, _ in (255, 0, 0, 255) }).write(to: red)
        for href in [red.absoluteString, "red.png"] {
            let drawing = """
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" \
                height="10"><image xlink:href="\(href)" width="10" height="10"/></svg>
                """
            let image = try #require(RasterImage.decode(Array(drawing.utf8), minimumWidth: 10))
            #expect(image.pixels[(5 * image.width + 5) * 4 + 3] == 0, "\(href) was drawn")
        }
        // The same picture inside the drawing is drawn: the test would see one read from disk.
        let inside = "data:image/png;base64," + Data(try Data(contentsOf: red)).base64EncodedString()
        let drawing = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" \
            height="10"><image xlink:href="\(inside)" width="10" height="10"/></svg>
            """
        let image = try #require(RasterImage.decode(Array(drawing.utf8), minimumWidth: 10))
        #expect(image.rgb(x: 5, y: 5) == (255, 0, 0))
    }

    @Test func inlineSVGInAChapterIsAPictureLabelledByItsTitle() throws {
        // As a chapter writes it: inside XHTML, whose reading lower-cases SVG's names (viewBox).
        var builder = EPUBBuilder(chapters: [.init("c1.xhtml", "One", "<p>Before.</p>\(Self.drawing)<p>After.</p>")])
        builder.version = "3.0"
        let book = try builder.open()
        let document = BookContent(book: book).document(at: 0)
        let pictures = document.blocks.compactMap { block -> ImageReference? in
            if case .image(let image) = block.kind { return image }
            return nil
        }
        let picture = try #require(pictures.first)
        #expect(picture.alt == "Two colours")
        #expect(!document.plainText.contains("fill"), "the stylesheet is not text: \(document.plainText)")
        let path = try #require(picture.path)
        let image = try #require(RasterImage.decode(try book.resource(at: path), minimumWidth: 40))
        let (left, right) = Self.colours(image)
        #expect(left == (255, 0, 0) && right == (0, 0, 255), "\(left) \(right)")
        #expect(image.width == 40 && image.height == 20, "viewBox kept its case: \(image.width)×\(image.height)")
    }

    @Test func anSVGPageOfTheSpineAndAnSVGImgAreDrawn() throws {
        var builder = EPUBBuilder(chapters: [
            .init("c1.xhtml", "One", "<p>Text.</p><img src=\"pic.svg\" alt=\"A drawing\"/>")
        ])
        builder.extraManifest = "<item id=\"pic\" href=\"pic.svg\" media-type=\"image/svg+xml\"/>"
        builder.extraFiles = [("OEBPS/pic.svg", Array(Self.drawing.utf8))]
        builder.spineOverride = "<itemref idref=\"c0\"/><itemref idref=\"pic\"/>"
        let book = try builder.open()
        let content = BookContent(book: book)
        for index in 0..<2 {
            let document = content.document(at: index)
            let picture = try #require(
                document.blocks.lazy.compactMap { block -> ImageReference? in
                    if case .image(let image) = block.kind { return image }
                    return nil
                }.first, "chapter \(index)")
            #expect(picture.alt == (index == 0 ? "A drawing" : "Two colours"))
            #expect(picture.path == "OEBPS/pic.svg")
            #expect(content.imageSize(at: "OEBPS/pic.svg").map { [$0.width, $0.height] } == [40, 20])
        }
    }
}
