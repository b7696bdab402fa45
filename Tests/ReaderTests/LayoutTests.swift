import Foundation
import Testing

@testable import Reader

@Suite struct LayoutTests {
    private func document(_ body: String) -> ChapterDocument {
        ContentConverter.convert(Array("<html><body>\(body)</body></html>".utf8), path: "c.xhtml")
    }

    private func layout(
        _ body: String, width: Int, margin: Int = 0, justify: Bool = false,
        style: LayoutSettings.ParagraphStyle = .blankLine, rows: Int = 100
    ) -> ChapterLayout {
        ChapterLayout.make(
            document(body), spineIndex: 0,
            settings: LayoutSettings(
                width: width, rows: rows, margin: margin, justify: justify, paragraphStyle: style,
                hyphenate: justify, language: "en"))
    }

    @Test func wrapsAtSpacesWithinWidth() {
        let result = layout("<p>The quick brown fox jumps over the lazy dog.</p>", width: 16)
        #expect(result.lines.map(\.text) == ["The quick brown", "fox jumps over", "the lazy dog."])
        #expect(result.lines.allSatisfy { $0.width <= 16 })
    }

    @Test func sourceRangesCoverTheText() {
        let doc = document("<p>The quick brown fox jumps over the lazy dog.</p>")
        let result = ChapterLayout.make(doc, spineIndex: 0, settings: LayoutSettings(width: 16, margin: 0))
        let utf16 = Array(doc.plainText.utf16)
        for line in result.lines where !line.sourceRange.isEmpty {
            let slice = String(decoding: utf16[line.sourceRange], as: UTF16.self)
            #expect(slice == line.text)
        }
    }

    @Test(arguments: [
        ("日本語のテキストです。とても長い文章。", 10),
        ("漢字とEnglishが混ざった文。", 9),
        ("한국어 텍스트도 넓습니다", 11),
    ])
    func wideCharactersTakeTwoCellsAndAreNeverSplit(text: String, width: Int) {
        let result = layout("<p>\(text)</p>", width: width)
        for line in result.lines {
            #expect(CellWidth.of(line.text) <= width, "line too wide: \(line.text)")
            #expect(line.width == CellWidth.of(line.text))
        }
        #expect(result.lines.map(\.text).joined().filter { $0 != " " } == text.filter { $0 != " " })
        #expect(result.lines.count > 1)
    }

    /// Kinsoku shori (JIS X 4051): wherever the width falls, no line starts with a closing
    /// bracket, comma, full stop, small kana or prolonged sound mark, and none ends with an opening
    /// bracket; the text is all still there, in order.
    @Test(arguments: 10...30)
    func japaneseLinesFollowTheLineBreakingRules(width: Int) {
        let text = "吾輩は猫である。名前はまだ無い。「どこで生れたか」とんと見当がつかぬ、（何でも）薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。ちょっと"
        let result = layout("<p>\(text)</p>", width: width)
        let lines = result.lines.map(\.text).filter { !$0.isEmpty }
        #expect(lines.joined() == text)
        for line in lines {
            #expect(CellWidth.of(line) <= width)
            let first = line.unicodeScalars.first!.value
            let last = line.unicodeScalars.last!.value
            #expect(Kinsoku(first) != .notAtLineStart || line == lines.first, "a line starts with \(line.first!)")
            #expect(Kinsoku(last) != .notAtLineEnd || line == lines.last, "a line ends with \(line.last!)")
        }
    }

    @Test func aClosingMarkGoesToTheNextLineWithTheCharacterBeforeIt() {
        // Five wide characters fit; the full stop may not start the second line, so the fifth
        // character goes with it.
        let result = layout("<p>あいうえお。かきくけこ</p>", width: 10)
        #expect(result.lines.map(\.text) == ["あいうえ", "お。かきく", "けこ"])
        #expect(layout("<p>あいうえ「おかきくけこ</p>", width: 10).lines.first?.text == "あいうえ")
    }

    @Test func combiningMarksTakeNoCells() {
        let decomposed = "Cafe\u{301} na\u{303}o re\u{301}sume\u{301} "
        #expect(CellWidth.of(decomposed) == 16)
        let result = layout("<p>\(String(repeating: decomposed, count: 4))</p>", width: 20)
        for line in result.lines { #expect(CellWidth.of(line.text) <= 20) }
        #expect(result.lines.first?.text == "Cafe\u{301} na\u{303}o re\u{301}sume\u{301} Cafe\u{301}")
        #expect(result.lines.first?.width == 20)
    }

    @Test func emojiAndFlagsAreWide() {
        #expect(CellWidth.of("😀") == 2)
        #expect(CellWidth.of("🇸🇪") == 2)
        #expect(CellWidth.of("\u{AD}") == 0)
        #expect(CellWidth.of("a\u{200B}b") == 2)
    }

    @Test func rightToLeftRunsAreDrawnInDisplayOrderLineByLine() {
        let result = layout("<p>Start <span dir=\"rtl\">שלום עולם ומה שלומך היום</span> end of line</p>", width: 14)
        // Each row shows its part of the Hebrew backwards (read right to left); rows stay in order.
        let rtl = result.lines.map { line in
            String(line.runs.filter { $0.style.contains(.rightToLeft) }.map(\.text).joined().reversed())
        }
        let words = rtl.flatMap { $0.split(separator: " ") }.map(String.init)
        #expect(words == ["שלום", "עולם", "ומה", "שלומך", "היום"])
        #expect(result.lines.first?.text.hasPrefix("Start") == true)
        for line in result.lines { #expect(CellWidth.of(line.text) <= 14) }
    }

    @Test func justificationFillsEveryLineButTheLast() {
        let result = layout(
            "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>",
            width: 24, justify: true)
        for line in result.lines.dropLast() { #expect(line.width == 24, "\(line.text)") }
        #expect(CellWidth.of(result.lines.last!.text) < 24)
    }

    @Test func softHyphenBreaksShowAHyphen() {
        let result = layout("<p>aaaa extra&shy;ordinarily</p>", width: 12)
        #expect(result.lines.map(\.text) == ["aaaa extra-", "ordinarily"])
        // Where the line does not break, the soft hyphen is invisible.
        let wide = layout("<p>aaaa extra&shy;ordinarily</p>", width: 40)
        #expect(wide.lines.map(\.text) == ["aaaa extraordinarily"])
    }

    @Test func justificationHyphenatesALongWordRatherThanLeaveAGap() {
        let result = layout("<p>To be incomprehensibilities now.</p>", width: 16, justify: true)
        // At a point of the English patterns (in-com-pre-hen-si-bil-i-ties), not between any two letters.
        #expect(result.lines[0].text.hasSuffix("incompre-"), "\(result.lines[0].text)")
        #expect(result.lines[0].width == 16)
    }

    @Test func overlongWordIsCut() {
        let result = layout("<p>\(String(repeating: "x", count: 25))</p>", width: 10)
        #expect(result.lines.map(\.text) == ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"])
    }

    @Test func paragraphStyles() {
        let body = "<h1>Title</h1><p>First paragraph.</p><p>Second paragraph.</p>"
        let indented = layout(body, width: 40, style: .indent)
        #expect(indented.lines.map(\.rendered) == ["Title", "", "First paragraph.", "  Second paragraph."])
        let blank = layout(body, width: 40, style: .blankLine)
        #expect(blank.lines.map(\.rendered) == ["Title", "", "First paragraph.", "", "Second paragraph."])
    }

    @Test func listsQuotesRulesAndImages() {
        let result = layout(
            """
            <ol><li>one</li><li>two</li></ol><blockquote><p>quoted</p></blockquote><hr/><img src=\"a.png\" \
            alt=\"A cat\"/>
            """,
            width: 30, margin: 1)
        #expect(
            result.lines.map(\.rendered) == [
                " 1. one", " 2. two", "", "   quoted", "", "            * * *", "", " [image: A cat]",
            ])
    }

    @Test func lineSpacingAddsBlankLines() {
        let doc = document("<p>one two three four five six seven</p>")
        let double = ChapterLayout.make(
            doc, spineIndex: 0, settings: LayoutSettings(width: 10, margin: 0, lineSpacing: .double))
        #expect(double.lines.map(\.text) == ["one two", "", "three four", "", "five six", "", "seven"])
    }

    @Test func pagesAndLocatorsRoundTrip() {
        let paragraphs = (1...40).map { "<p>Paragraph \($0) has a few words that wrap around the narrow column.</p>" }
            .joined()
        let result = layout(paragraphs, width: 30, rows: 10)
        #expect(result.pageCount > 5)
        for page in 0..<result.pageCount {
            #expect(result.page(containing: result.offset(atPageStart: page)) == page)
            #expect(result.lines(onPage: page).count <= 10)
            #expect(result.lines(onPage: page).first?.role != .blank)
        }
    }

    @Test(arguments: [(80, 40), (40, 100), (120, 30), (33, 61)])
    func widthChangeKeepsTheSentence(from: Int, to: Int) {
        let paragraphs = (1...60).map {
            "<p>Sentence number \($0) is here, and it is long enough to wrap at most widths we try.</p>"
        }.joined()
        let doc = document(paragraphs)
        let before = ChapterLayout.make(doc, spineIndex: 0, settings: LayoutSettings(width: from, rows: 12))
        for page in stride(from: 0, to: before.pageCount, by: 3) {
            let offset = before.offset(atPageStart: page)
            let after = ChapterLayout.make(doc, spineIndex: 0, settings: LayoutSettings(width: to, rows: 12))
            let newPage = after.page(containing: offset)
            let range =
                after.lines(onPage: newPage).reduce(Int.max) {
                    min($0, $1.sourceRange.lowerBound)
                }..<(after.lines(onPage: newPage).last?.sourceRange.upperBound ?? 0)
            #expect(range.contains(offset) || range.lowerBound == offset, "offset \(offset) not on page \(newPage)")
        }
    }

    @Test func oneAndAHalfSpacingAddsABlankAfterEverySecondLine() {
        let doc = document("<p>one two three four five six seven</p>")
        let spaced = ChapterLayout.make(
            doc, spineIndex: 0, settings: LayoutSettings(width: 10, margin: 0, lineSpacing: .oneAndHalf))
        #expect(spaced.lines.map(\.text) == ["one two", "three four", "", "five six", "seven"])
        // Blank rows are empty, so a locator finds the line of text, not the blank row.
        #expect(spaced.lines[2].sourceRange.isEmpty)
        #expect(spaced.line(containing: spaced.lines[3].sourceRange.lowerBound) == 3)
    }

    @Test(arguments: [LayoutSettings.LineSpacing.single, .oneAndHalf, .double])
    func spacingKeepsPagesAndLocatorsConsistent(spacing: LayoutSettings.LineSpacing) {
        let paragraphs = (1...30).map { "<p>Paragraph \($0) has words enough to wrap over a few lines here.</p>" }
            .joined()
        let result = ChapterLayout.make(
            document(paragraphs), spineIndex: 0,
            settings: LayoutSettings(width: 30, rows: 9, margin: 0, lineSpacing: spacing))
        for page in 0..<result.pageCount {
            #expect(result.lines(onPage: page).count <= 9)
            #expect(result.page(containing: result.offset(atPageStart: page)) == page)
            #expect(result.lines(onPage: page).first?.role != .blank)
        }
    }

    @Test func twoPageSpreadsHalveTheWidthOnlyWhenThereIsRoom() {
        let preferences = ReaderPreferences(margin: 2, maxTextWidth: nil, twoPage: true)
        let wide = preferences.layoutSettings(columns: 162, rows: 40)
        #expect(wide.width == 80)
        #expect(wide.textWidth == 76)
        let narrow = preferences.layoutSettings(columns: 90, rows: 40)
        #expect(narrow.width == 90)
        var scrolling = preferences
        scrolling.flow = .scroll
        #expect(scrolling.layoutSettings(columns: 162, rows: 40).width == 162)
    }

    @Test func picturesGetRowsAndAreNotCutByAPageBreak() {
        let doc = document("<p>Before.</p><img src=\"a.png\" alt=\"A cat\"/><p>After.</p>")
        var settings = LayoutSettings(width: 40, rows: 8, margin: 0)
        settings.showImages = true
        let result = ChapterLayout.make(doc, spineIndex: 0, settings: settings) { _ in (width: 400, height: 300) }
        let roles = result.lines.map(\.role)
        #expect(roles.contains { if case .image = $0 { true } else { false } })
        let spaces = roles.filter { $0 == .imageSpace }.count
        #expect(spaces + 1 == settings.imageCells(pixels: (400, 300)).rows)
        // The picture does not fit under "Before." on the first page: it starts the second.
        #expect(result.pageCount >= 2)
        #expect(result.lines(onPage: 1).first.map { if case .image = $0.role { true } else { false } } == true)
        // Without picture rows: one label row.
        let labels = ChapterLayout.make(doc, spineIndex: 0, settings: LayoutSettings(width: 40, rows: 8, margin: 0)) {
            _ in (400, 300)
        }
        #expect(labels.lines.map(\.text).contains("[image: A cat]"))
        #expect(!labels.lines.contains { $0.role == .imageSpace })
    }

    @Test func imageCellsFitTheColumnAndThePage() {
        let settings = LayoutSettings(width: 80, rows: 24, margin: 4)
        #expect(settings.imageCells(pixels: (2000, 1000)) == (columns: 72, rows: 18))
        #expect(settings.imageCells(pixels: (40, 20)) == (columns: 10, rows: 3))
        let tall = settings.imageCells(pixels: (600, 3000))
        #expect(tall.rows == 23)
        #expect(tall.columns <= 10)
    }
}
