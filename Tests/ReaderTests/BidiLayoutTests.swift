import Foundation
import Terminal
import Testing

@testable import Reader

/// Right-to-left paragraphs (Arabic, Hebrew): set against the right edge, each line in display
/// order (GNU FriBidi), while offsets, search and positions stay on the logical text.
@Suite struct BidiLayoutTests {
    private static func document(_ body: String, language: String = "en") -> ChapterDocument {
        ContentConverter.convert(
            Array("<html xml:lang=\"\(language)\"><body>\(body)</body></html>".utf8), path: "c.xhtml")
    }

    private static func layout(
        _ body: String, width: Int = 40, language: String = "en", justify: Bool = false
    ) -> ChapterLayout {
        ChapterLayout.make(
            document(body, language: language), spineIndex: 0,
            settings: LayoutSettings(width: width, rows: 100, margin: 0, justify: justify, language: language))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        var language = "en"
        /// The rows as drawn, left to right, with their indent.
        let rows: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "an Arabic paragraph is right-aligned, reversed into display order, its letters joined",
            body: "<p dir=\"rtl\">مرحبا بالعالم</p>",
            // بالعالم and مرحبا right to left, each letter in its joined form: ﻢﻟﺎﻌﻟﺎﺑ ﺎﺒﺣﺮﻣ (meem final, lam
            // initial, alef final, ain medial, …; reh joins only the letter before it, so hah starts anew).
            rows: [
                String(repeating: " ", count: 27)
                    + BidiLayoutTests.helloWorld
            ]),
        Case(
            name: "a Hebrew line keeps an English word and a number left to right inside it",
            body: "<p dir=\"rtl\">שלום world 42 עולם</p>",
            rows: [String(repeating: " ", count: 22) + "םלוע world 42 םולש"]),
        Case(
            name: "a number after a Hebrew word stays in its place and left to right",
            body: "<p dir=\"rtl\">ספר 1984 טוב</p>",
            rows: [String(repeating: " ", count: 28) + "בוט 1984 רפס"]),
        Case(
            name: "dir=\"ltr\" inside a right-to-left paragraph is one left-to-right stretch",
            body: "<p dir=\"rtl\">ספר <span dir=\"ltr\">1-2-3!</span> טוב</p>",
            rows: [String(repeating: " ", count: 26) + "בוט 1-2-3! רפס"]),
        Case(
            name: "without dir a paragraph whose first strong letter is Hebrew reads right to left",
            body: "<p>123 שלום world</p>",
            rows: [String(repeating: " ", count: 26) + "world םולש 123"]),
        Case(
            name: "without dir or strong letters a paragraph in a Hebrew book reads right to left",
            body: "<p>2024 (1)</p>", language: "he",
            rows: [String(repeating: " ", count: 32) + "(1) 2024"]),
        Case(
            name: "brackets in right-to-left text are mirrored",
            body: "<p dir=\"rtl\">אבג (דהו) זחט</p>",
            rows: [String(repeating: " ", count: 27) + "טחז (והד) גבא"]),
        Case(
            name: "each line after a forced break is right-aligned on its own",
            body: "<p dir=\"rtl\">שלום<br/>עולם רב</p>",
            rows: [String(repeating: " ", count: 36) + "םולש", String(repeating: " ", count: 33) + "בר םלוע"]),
        Case(
            name: "a quotation's indent is on the right",
            body: "<blockquote dir=\"rtl\"><p>שלום</p></blockquote>",
            rows: [String(repeating: " ", count: 34) + "םולש"]),
        Case(
            name: "an English paragraph with an Arabic name in it stays left-aligned, the name in display order",
            body: "<p>The poet مرحبا wrote.</p>",
            rows: ["The poet \u{FE8E}\u{FE92}\u{FEA3}\u{FEAE}\u{FEE3} wrote."]),
    ]

    @Test(arguments: cases)
    func rowsAreInDisplayOrder(_ example: Case) {
        let result = Self.layout(example.body, language: example.language)
        #expect(result.lines.map(\.rendered) == example.rows)
    }

    /// `dir="auto"`: an inline element is set apart as `<bdi>` is, in its own first strong letter's
    /// direction; a block reads by its own first strong letter, not the direction around it.
    @Test func dirAutoIsTheFirstStrongLettersDirection() {
        func rows(_ body: String) -> [String] { Self.layout(body).lines.map(\.rendered) }
        let isolated = rows("<p>User <bdi>إيان</bdi>: 3 posts.</p>")
        #expect(rows("<p>User <span dir=\"auto\">إيان</span>: 3 posts.</p>") == isolated)
        #expect(rows("<p>User <span>إيان</span>: 3 posts.</p>") != isolated, "the number joins the name without it")
        #expect(rows("<div dir=\"rtl\"><p dir=\"auto\">Hello world</p></div>") == ["Hello world"])
        #expect(rows("<div dir=\"ltr\"><p dir=\"auto\">שלום עולם</p></div>") == rows("<p dir=\"rtl\">שלום עולם</p>"))
    }

    @Test func anEnglishBookWithOneArabicParagraph() {
        let result = Self.layout("<p>Hello there.</p><p>مرحبا بالعالم</p><p>Goodbye.</p>", width: 30)
        let text = result.lines.filter { $0.role == .text }
        #expect(
            text.map(\.rendered) == ["Hello there.", String(repeating: " ", count: 17) + Self.helloWorld, "Goodbye."])
    }

    /// مرحبا بالعالم as drawn: right to left, each letter in its joined form.
    static let helloWorld =
        "\u{FEE2}\u{FEDF}\u{FE8E}\u{FECC}\u{FEDF}\u{FE8E}\u{FE91} \u{FE8E}\u{FE92}\u{FEA3}\u{FEAE}\u{FEE3}"

    @Test("Arabic letters are drawn joined, while the text bok searches and saves keeps the letters as written")
    func arabicLettersJoinOnlyWhereDrawn() {
        // A lone letter is isolated; one that cannot join its neighbour (reh, alef) ends the joining.
        #expect(BidiParagraph.displayLine("ب") == "\u{FE8F}")
        #expect(BidiParagraph.displayLine("بب") == "\u{FE90}\u{FE91}")
        #expect(BidiParagraph.displayLine("مرحبا بالعالم") == Self.helloWorld)
        // Hebrew letters do not join: as written, reversed.
        #expect(BidiParagraph.displayLine("שלום") == "םולש")
        let document = Self.document("<p dir=\"rtl\">مرحبا بالعالم</p>")
        #expect(document.text(in: 0..<13) == "مرحبا بالعالم")
    }

    @Test func longRightToLeftParagraphsBreakOnTheLogicalTextAndEveryLineEndsAtTheRightEdge() {
        let words = ["אחת", "שתיים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע", "עשר"]
        let body = "<p dir=\"rtl\">" + words.joined(separator: " ") + "</p>"
        for justify in [false, true] {
            let result = Self.layout(body, width: 16, justify: justify)
            #expect(result.lines.count > 2)
            for line in result.lines { #expect(line.indent + line.width == 16, "\(line.rendered)") }
            if justify { #expect(result.lines.dropLast().allSatisfy { $0.indent == 0 }) }
            // Reading each row right to left, row after row, gives the words in their order.
            let read = result.lines.flatMap { $0.text.split(separator: " ").reversed() }.map {
                String($0.reversed())
            }
            #expect(read == words)
            // Each row shows the stretch of logical text its source range says.
            let document = Self.document(body)
            for line in result.lines {
                let logical = document.text(in: line.sourceRange)
                #expect(Set(logical.filter { $0 != " " }) == Set(line.text.filter { $0 != " " }))
            }
        }
    }

    @Test(arguments: [
        ("<p dir=\"rtl\">שלום <b>עולם</b> טוב</p>", "םלוע"),
        ("<p>Read <b>שלום עולם</b> today</p>", "םלוע םולש"),
        ("<p dir=\"rtl\">אבג <a href=\"#x\">link here</a> דהו</p>", "link here"),
    ])
    func stylesStayOnTheirLetters(body: String, styled: String) {
        let result = Self.layout(body)
        let runs = result.lines.flatMap(\.runs)
        let marked = runs.filter { $0.style.contains(.strong) || $0.style.contains(.link) }
        #expect(marked.map(\.text).joined() == styled)
        // Every run shows the text at its offset, backwards when it is drawn right to left.
        let document = Self.document(body)
        for run in runs {
            let offset = try! #require(run.sourceOffset)
            let logical = document.text(in: offset..<offset + run.text.utf16.count)
            #expect((run.isReversed ? String(logical.reversed()) : logical) == run.text)
            #expect(document.blocks[0].runs.contains { $0.text.contains(logical) && $0.style == run.style })
        }
    }

    @Test func aListItemsMarkerHangsOnTheRight() {
        let result = Self.layout("<ol dir=\"rtl\"><li>שלום</li></ol>", width: 20)
        let line = try! #require(result.lines.first)
        #expect(line.rendered.hasSuffix("םולש .1"))
        #expect(line.indent + line.width <= 20)
    }

    @Test func aLeftToRightBookIsLaidOutAsBefore() {
        let result = Self.layout("<p>Plain (text) with 42 numbers.</p>")
        #expect(result.lines.map(\.rendered) == ["Plain (text) with 42 numbers."])
        #expect(result.lines[0].runs.allSatisfy { !$0.isReversed })
    }

    // MARK: - Drawing and positions

    private static func book(paragraphs: Int = 30) throws -> EPUBBook {
        let sentence = "הספינה חיכתה בנמל (ליד המגדלור) כל הלילה, ו-Anna ספרה 12 סירות. "
        var builder = EPUBBuilder(chapters: [
            .init(
                "one.xhtml", "אחד",
                (1...paragraphs).map { "<p>פסקה \($0). \(String(repeating: sentence, count: 3))</p>" }.joined())
        ])
        builder.language = "he"
        builder.title = "ספר הבדיקה"
        return try builder.open()
    }

    @Test func aSearchHitIsPaintedOnTheWordItFound() throws {
        var session = ReaderSession(book: try Self.book(), store: InMemoryPositionStore(), columns: 60, rows: 20)
        let hits = try session.search("המגדלור")
        #expect(hits > 0)
        let view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 21)
        let painted = view.frame().flatMap(\.segments).filter { $0.style.inverse }.map(\.text)
        #expect(!painted.isEmpty)
        #expect(painted.allSatisfy { $0 == "רולדגמה" }, "\(painted)")
    }

    @Test(arguments: [(60, 20, 35, 12), (40, 12, 90, 30)])
    func aPositionInARightToLeftChapterSurvivesAWidthChange(
        fromColumns: Int, fromRows: Int, toColumns: Int, toRows: Int
    ) throws {
        var reader = ReaderSession(
            book: try Self.book(), store: InMemoryPositionStore(), columns: fromColumns, rows: fromRows)
        for _ in 0..<5 { reader.nextPage() }
        let anchor = reader.anchor
        reader.resize(columns: toColumns, rows: toRows)
        let visible = try #require(reader.visibleRanges().first)
        #expect(visible.range.contains(anchor.offset) || visible.range.lowerBound == anchor.offset)
        reader.resize(columns: fromColumns, rows: fromRows)
        #expect(reader.topLocator == anchor)
    }

    @Test func theContentsPanelShowsAHebrewChapterTitleRightToLeft() throws {
        var builder = EPUBBuilder(chapters: [.init("one.xhtml", "פרק ראשון", "<p>טקסט.</p>")])
        builder.language = "he"
        let session = ReaderSession(book: try builder.open(), store: InMemoryPositionStore(), columns: 60, rows: 19)
        var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 20)
        _ = view.handle(.character("t"))
        let panel = view.textRows().joined(separator: "\n")
        #expect(panel.contains("ןושאר קרפ"), "\(panel)")
        #expect(!panel.contains("פרק ראשון"))
    }

    @Test func aRightToLeftTitleDoesNotScrambleTheStatusLine() throws {
        let session = ReaderSession(book: try Self.book(), store: InMemoryPositionStore(), columns: 80, rows: 23)
        let view = ReaderView(session: session, capabilities: .plain, badge: "12 days", columns: 80, rows: 24)
        let status = try #require(view.textRows().last)
        #expect(status.hasPrefix(" הקידבה רפס"), "\(status)")
        #expect(status.hasSuffix("12 days "))
        #expect(!status.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
    }

    /// `dir` on the package and on its `dc:title` and `dc:creator`s (EPUB 3.3): an RTL title that
    /// starts with a Latin word reads right to left in the status line (its first strong letter
    /// would say left to right), and the notes export keeps each name in its direction with isolates.
    @Test func thePackagesDirOnTitleAndCreatorsIsHonoured() throws {
        var builder = EPUBBuilder(chapters: [.init("one.xhtml", "One", "<p>Text.</p>")])
        builder.title = "EPUB 3 מדריך"
        builder.packageExtra = #" dir="rtl""#
        builder.extraMetadata = #"<dc:creator dir="ltr">Ada Lovelace</dc:creator><dc:creator>נעמי כהן</dc:creator>"#
        let book = try builder.open()
        #expect(book.metadata.titleDirection == .rightToLeft)
        #expect(book.metadata.creators.map(\.direction) == [.leftToRight, .rightToLeft])

        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 80, rows: 23)
        let view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 80, rows: 24)
        let status = try #require(view.textRows().last)
        #expect(status.hasPrefix(" ךירדמ EPUB 3"), "\(status)")

        let notes = ReaderApp.notesMarkdown(book: book, store: InMemoryPositionStore())
        #expect(notes.hasPrefix("# \u{2067}EPUB 3 מדריך\u{2069}\n"), "\(notes)")
        #expect(notes.contains("*\u{2066}Ada Lovelace\u{2069}, \u{2067}נעמי כהן\u{2069}*"), "\(notes)")

        // The title's own dir wins over the package's; without either, the first strong letter decides.
        builder.titleExtra = #" dir="ltr""#
        #expect(try builder.open().metadata.titleDirection == .leftToRight)
        builder.packageExtra = ""
        builder.titleExtra = ""
        let plain = try builder.open()
        #expect(
            plain.metadata.titleDirection == nil && plain.metadata.creators.map(\.direction) == [.leftToRight, nil])
        let undirected = ReaderView(
            session: ReaderSession(book: plain, store: InMemoryPositionStore(), columns: 80, rows: 23),
            capabilities: .plain, badge: nil, columns: 80, rows: 24)
        #expect(try #require(undirected.textRows().last).hasPrefix(" EPUB 3 ךירדמ"))
    }

    /// Paragraphs of a left-to-right book skip FriBidi unless they hold something it would order;
    /// this checks that quick test against FriBidi's own table for every scalar, so no right-to-left
    /// letter, Arabic number or bidi control is ever taken for left to right.
    @Test func everyScalarFriBidiWouldOrderIsSentToIt() {
        var missed: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), BidiParagraph.fribidiOrdersRightToLeft(value) else { continue }
            if !String(scalar).utf16.contains(where: BidiParagraph.mayOrderRightToLeft) {
                missed.append(String(value, radix: 16, uppercase: true))
            }
        }
        #expect(missed.isEmpty, "U+\(missed.prefix(20).joined(separator: ", U+"))")
        // And typographic punctuation, dashes and CJK in a left-to-right paragraph do not count.
        let runs = [TextRun(text: "\u{2019}Tis \u{201C}so\u{201D} \u{2014} 東京, 1\u{2009}000 \u{2026}")]
        #expect(!BidiParagraph.mayReorder(runs, declared: nil, language: { "en" }))
        #expect(BidiParagraph.mayReorder(runs + [TextRun(text: "\u{200F}")], declared: nil, language: { "en" }))
    }
}
