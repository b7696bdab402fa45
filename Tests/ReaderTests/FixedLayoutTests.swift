import Foundation
import Testing

@testable import Reader
@testable import Terminal

/// Fixed-layout books (picture books, comics): a page a screen, fitted, two side by side where
/// they fit, and the page's words popped out beside or under the picture.
@Suite struct FixedLayoutTests {
    /// Each page's colour, in reading order: the cover red, then green, blue, yellow, purple.
    static let colours: [(UInt8, UInt8, UInt8)] = [
        (220, 30, 30), (30, 200, 40), (30, 40, 210), (230, 220, 20), (150, 30, 170),
    ]
    static let words = [
        "The little fox", "Once upon a time a fox lived by the sea.", "Every morning it watched the boats.",
        "One day a boat did not come back.", "The fox went to look for it.",
    ]

    /// A picture book of five 3:4 pages, each a picture of one colour and a line of words (none
    /// on the page `wordless`, whose picture has a description instead).
    static func book(
        metadata: String = "<meta property=\"rendition:layout\">pre-paginated</meta>", spine: String? = nil,
        spineAttributes: String = "", wordless: Int? = nil, textAfter: Bool = false
    ) throws -> EPUBBook {
        var chapters: [EPUBBuilder.Chapter] = colours.indices.map { index in
            let words = index == wordless ? "" : "<div class=\"text\"><p>\(Self.words[index])</p></div>"
            let alt = index == wordless ? "A fox on a rock" : ""
            return .init("p\(index).xhtml", "Page \(index)", "<img src=\"p\(index).png\" alt=\"\(alt)\"/>\(words)")
        }
        var spineItems = colours.indices.map { "<itemref idref=\"c\($0)\"/>" }
        if textAfter {
            chapters.append(.init("after.xhtml", "After", "<p>About the author, in words that flow.</p>"))
            spineItems.append("<itemref idref=\"c\(colours.count)\" properties=\"rendition:layout-reflowable\"/>")
        }
        var builder = EPUBBuilder(chapters: chapters)
        builder.extraMetadata = metadata
        builder.spineOverride = spine ?? spineItems.joined(separator: "\n")
        builder.spineExtra = spineAttributes
        builder.extraManifest = colours.indices.map {
            "<item id=\"i\($0)\" href=\"p\($0).png\" media-type=\"image/png\"/>"
        }.joined()
        builder.extraFiles = colours.enumerated().map { index, colour in
            (
                "OEBPS/p\(index).png",
                PNGWriter.rgba(width: 60, height: 80) { _, _ in (colour.0, colour.1, colour.2, 255) }
            )
        }
        return try builder.open()
    }

    static func view(_ book: EPUBBook, columns: Int = 120, rows: Int = 40, screenReader: Bool = false) -> ReaderView {
        let cells = ImageCells(book: book) { _ in PictureDetection(method: .blocks, reason: "test") }
        var capabilities = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        capabilities.screenReader = screenReader
        let session = ReaderSession(
            book: book, store: InMemoryPositionStore(), columns: columns, rows: rows - 1, drawsImages: true)
        var view = ReaderView(session: session, capabilities: capabilities, badge: nil, columns: columns, rows: rows)
        view.images = cells
        return view
    }

    /// The pages on screen, left to right, by their colours (the colour of the middle row's cells,
    /// in runs).
    static func pagesShown(_ view: ReaderView) -> [Int] {
        let rows = view.frameWithOverlays().rows.filter { $0.text.contains("▀") }
        guard !rows.isEmpty else { return [] }
        var pages: [Int] = []
        for segment in rows[rows.count / 2].segments where segment.text.contains("▀") {
            guard case .rgb(let r, let g, let b) = segment.style.foreground,
                let page = colours.firstIndex(where: {
                    abs(Int($0.0) - Int(r)) + abs(Int($0.1) - Int(g)) < 40 && abs(Int($0.2) - Int(b)) < 40
                }),
                pages.last != page
            else { continue }
            pages.append(page)
        }
        return pages
    }

    static func pictureRows(_ view: ReaderView) -> Int {
        view.frameWithOverlays().rows.filter { $0.text.contains("▀") }.count
    }

    static func screen(_ view: ReaderView) -> String { view.textRows().joined(separator: "\n") }

    @Test func thePageFillsTheScreenWithItsWordsBesideIt() throws {
        let view = Self.view(try Self.book())
        #expect(Self.pagesShown(view) == [0])
        // The whole height but the status line: a picture book's page is not a line of text.
        #expect(Self.pictureRows(view) >= 36, "\(Self.pictureRows(view)) rows")
        let rows = view.textRows()
        let wordsRow = try #require(rows.first { $0.contains("The little fox") })
        let pictureRow = try #require(rows.first { $0.contains("▀") })
        // Beside the picture, not under it.
        let wordsColumn = try #require(wordsRow.range(of: "The little fox")).lowerBound
        let pictureEnd = try #require(pictureRow.lastIndex(of: "▀"))
        #expect(
            wordsRow.distance(from: wordsRow.startIndex, to: wordsColumn)
                > pictureRow.distance(from: pictureRow.startIndex, to: pictureEnd))
    }

    @Test func twoPagesSideBySideWhereTheyFitTheCoverAlone() throws {
        var view = Self.view(try Self.book())
        #expect(Self.pagesShown(view) == [0])
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [1, 2])
        // Both pages' words, under the pictures (there is no room beside two).
        let screen = Self.screen(view)
        #expect(screen.contains(Self.words[1]) && screen.contains(Self.words[2]))
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [3, 4])
        _ = view.handle(.character(" "))
        #expect(view.session.message == "End of the book.")
        _ = view.handle(.character("b"))
        #expect(Self.pagesShown(view) == [1, 2])
        _ = view.handle(.character("b"))
        #expect(Self.pagesShown(view) == [0])
    }

    @Test func aNarrowWindowShowsOnePageATurn() throws {
        var view = Self.view(try Self.book(), columns: 70, rows: 40)
        var seen: [[Int]] = [Self.pagesShown(view)]
        for _ in 1..<5 {
            _ = view.handle(.character(" "))
            seen.append(Self.pagesShown(view))
        }
        #expect(seen == [[0], [1], [2], [3], [4]])
    }

    @Test func spreadNoneKeepsPagesAlone() throws {
        let book = try Self.book(
            metadata: """
                <meta property="rendition:layout">pre-paginated</meta><meta property="rendition:spread">none</meta>
                """)
        var view = Self.view(book)
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [1])
    }

    @Test func pagesPairByTheSidesTheBookGivesThem() throws {
        // The cover on the left of the first spread, as the book says (not alone, as by default).
        let sides = [
            "page-spread-left", "page-spread-right", "rendition:page-spread-center", "page-spread-left",
            "page-spread-right",
        ]
        let spine = sides.enumerated().map { "<itemref idref=\"c\($0)\" properties=\"\($1)\"/>" }.joined()
        var view = Self.view(try Self.book(spine: spine))
        #expect(Self.pagesShown(view) == [0, 1])
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [2])
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [3, 4])
    }

    @Test func rightToLeftBooksPutTheFirstPageOfASpreadOnTheRight() throws {
        var view = Self.view(try Self.book(spineAttributes: " page-progression-direction=\"rtl\""))
        _ = view.handle(.character(" "))
        #expect(Self.pagesShown(view) == [2, 1])
    }

    @Test func wHidesTheWordsAndThePictureTakesTheirRoom() throws {
        var view = Self.view(try Self.book())
        _ = view.handle(.character(" "))
        let withWords = Self.pictureRows(view)
        _ = view.handle(.character("w"))
        #expect(!Self.screen(view).contains(Self.words[1]))
        #expect(Self.pictureRows(view) > withWords, "\(Self.pictureRows(view)) rows, \(withWords) with words")
        _ = view.handle(.character("w"))
        #expect(Self.screen(view).contains(Self.words[1]))
        // On a book of text, w says what it is for.
        let text = try EPUBBuilder(chapters: [.init("c1.xhtml", "One", "<p>Only words.</p>")]).open()
        var plain = Self.view(text)
        _ = plain.handle(.character("w"))
        #expect(plain.session.message == "Only a picture book's pages have words to show beside the picture.")
    }

    @Test func linesSetApartByALayoutProgramAreReadAsOneParagraph() throws {
        var builder = EPUBBuilder(chapters: [
            .init(
                "p0.xhtml", "Page",
                """
                <img src="p0.png" alt=""/><div style="position:absolute;top:10px">Once upon a time</div>\
                <div style="position:absolute;top:30px">a fox lived by the sea.</div>\
                <div style="position:absolute;top:50px">It was happy.</div>
                """)
        ])
        builder.extraMetadata = "<meta property=\"rendition:layout\">pre-paginated</meta>"
        builder.extraManifest = "<item id=\"i0\" href=\"p0.png\" media-type=\"image/png\"/>"
        builder.extraFiles = [("OEBPS/p0.png", PNGWriter.rgba(width: 60, height: 80) { _, _ in (20, 20, 200, 255) })]
        let view = Self.view(try builder.open())
        let page = try #require(view.session.fixedSpread().first)
        #expect(page.words == ["Once upon a time a fox lived by the sea.", "It was happy."])
        #expect(Self.screen(view).contains("Once upon a time a fox lived by the sea."))
    }

    @Test func aPageWithoutWordsPopsOutItsPicturesDescription() throws {
        let view = Self.view(try Self.book(wordless: 0))
        #expect(Self.screen(view).contains("A fox on a rock"))
    }

    @Test func textAfterThePicturesFlowsAndTurningBackFindsTheLastSpread() throws {
        var view = Self.view(try Self.book(textAfter: true))
        for _ in 0..<3 { _ = view.handle(.character(" ")) }
        #expect(Self.screen(view).contains("About the author"))
        #expect(Self.pagesShown(view).isEmpty)
        _ = view.handle(.character("b"))
        #expect(Self.pagesShown(view) == [3, 4])
    }

    @Test func aPlaceInAPictureBookIsKeptAndReopensOnItsSpread() throws {
        let book = try Self.book()
        let store = InMemoryPositionStore()
        var session = ReaderSession(book: book, store: store, columns: 120, rows: 39, drawsImages: true)
        _ = session.nextPage()
        _ = session.nextPage()
        session.savePosition()
        let again = ReaderSession(book: book, store: store, columns: 120, rows: 39, drawsImages: true)
        #expect(again.fixedSpread().map(\.spineIndex) == [3, 4])
        // A narrower window opens the same place alone.
        let narrow = ReaderSession(book: book, store: store, columns: 70, rows: 39, drawsImages: true)
        #expect(narrow.fixedSpread().map(\.spineIndex) == [3])
    }

    @Test func aScreenReaderGetsThePagesWordsAsText() throws {
        let view = Self.view(try Self.book(), screenReader: true)
        #expect(Self.screen(view).contains("The little fox"))
    }
}
