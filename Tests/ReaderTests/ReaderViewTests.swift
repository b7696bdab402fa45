import Foundation
import Localization
import Terminal
import Testing

@testable import Reader

@Suite struct ReaderViewTests {
    private func view(
        columns: Int = 80, rows: Int = 24, capabilities: TerminalCapabilities = .plain,
        store: InMemoryPositionStore = InMemoryPositionStore(), badge: String? = "12 days"
    ) throws -> ReaderView {
        let book = try ReaderSessionTests.book()
        let session = ReaderSession(book: book, store: store, columns: columns, rows: rows - 1)
        return ReaderView(session: session, capabilities: capabilities, badge: badge, columns: columns, rows: rows)
    }

    private func type(_ text: String, into view: inout ReaderView) {
        for character in text { _ = view.handle(.character(character)) }
    }

    @Test func statusLineShowsTitleChapterPagePercentTimeAndBadge() throws {
        let reader = try view()
        let rows = reader.textRows()
        #expect(rows.count == 24)
        #expect(rows.allSatisfy { $0.count == 80 })
        let status = try #require(rows.last)
        #expect(status.contains("Test Book — Chapter 1"))
        #expect(status.contains("1/"))
        #expect(status.contains("2%"))  // how far the end of the first page is
        #expect(status.contains("min"))
        #expect(status.hasSuffix("12 days "))
        #expect(rows[0].trimmingCharacters(in: .whitespaces) == "Chapter 1")
    }

    @Test("A message longer than the status line is shown whole above it, at any width, until the next key")
    func longMessagesWrap() throws {
        let message =
            "Today 42 min, in this book 3 h 05 min; your pace is 230 words a minute over the last 14 days, "
            + "and the book has 2 h 40 min left at that pace."
        for columns in [40, 60, 80, 120] {
            var reader = try view(columns: columns)
            let before = reader.textRows()
            reader.session.message = message
            let rows = reader.textRows()
            #expect(rows.count == 24 && rows.allSatisfy { $0.count == columns })
            // Every word of the message is on screen, in order, none cut.
            let shown = rows.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(shown.contains(message.split(separator: " ").joined(separator: " ")), "\(columns): \(rows)")
            // The status line keeps its pages and percent.
            #expect(rows.last?.contains("%") == true, "\(rows.last ?? "")")
            _ = reader.handle(.character("j"))
            _ = reader.handle(.character("k"))
            #expect(reader.textRows() == before, "\(columns): the next key clears it")
        }
        // A short message stays on the status line.
        var reader = try view()
        reader.session.message = "Bookmark added."
        #expect(reader.textRows().last?.contains("Bookmark added.") == true)
        #expect(reader.textRows()[22] == (try view()).textRows()[22])
    }

    @Test("In Swedish the status line, the keys overlay and the panels speak Swedish")
    func swedish() throws {
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        var reader = try view(columns: 120)
        #expect(reader.textRows().last?.contains("kvar i kapitlet") == true, "\(reader.textRows().last ?? "")")
        _ = reader.handle(.character("?"))
        let keys = reader.textRows().joined(separator: "\n")
        #expect(keys.contains("Tangenter") && keys.contains("nästa sida") && keys.contains("bokens början"), "\(keys)")
        _ = reader.handle(.escape)
        _ = reader.handle(.character("t"))
        #expect(reader.textRows().joined().contains("Innehåll"))
    }

    @Test func keysTurnPagesAndQQuits() throws {
        var reader = try view()
        let first = reader.textRows()
        for key: Key in [.character(" "), .pageDown, .right, .character("l"), .character("j")] {
            _ = reader.handle(key)
        }
        #expect(reader.session.pageInChapter.page == 6)
        for key: Key in [.character("b"), .pageUp, .left, .character("h"), .character("k")] { _ = reader.handle(key) }
        #expect(reader.textRows() == first)
        _ = reader.handle(.character("G"))
        #expect(reader.session.fractionRead == 1)
        _ = reader.handle(.home)
        #expect(reader.session.position == ViewPosition(spineIndex: 0, line: 0))
        let goesOn = reader.handle(.character("q"))
        #expect(!goesOn)
    }

    @Test func theMouseWheelTurnsPagesOrScrolls() throws {
        var reader = try view()
        _ = reader.handle(.wheelDown(row: 3, column: 3))
        #expect(reader.session.pageInChapter.page == 2)
        _ = reader.handle(.wheelUp(row: 3, column: 3))
        #expect(reader.session.pageInChapter.page == 1)
        for character in ":scroll" { _ = reader.handle(.character(character)) }
        _ = reader.handle(.enter)
        _ = reader.handle(.wheelDown(row: 3, column: 3))
        #expect(reader.session.position.line == 3)
        _ = reader.handle(.down)
        #expect(reader.session.position.line == 4)
    }

    @Test func searchPromptThenNAndNMoveBetweenHitsAndEscapeEndsIt() throws {
        var reader = try view()
        _ = reader.handle(.character("/"))
        type("gulls", into: &reader)
        #expect(reader.textRows().last?.contains("/gulls") == true)
        _ = reader.handle(.enter)
        #expect(reader.textRows().last?.contains("Match 1 of") == true)
        _ = reader.handle(.character("n"))
        #expect(reader.session.search?.current == 1)
        _ = reader.handle(.character("N"))
        #expect(reader.session.search?.current == 0)
        _ = reader.handle(.escape)
        #expect(reader.session.search == nil)
        let spine = reader.session.position.spineIndex
        _ = reader.handle(.character("n"))  // without a search, n is the next chapter
        #expect(reader.session.position == ViewPosition(spineIndex: spine + 1, line: 0))
    }

    @Test func commandLineChangesSettings() throws {
        var reader = try view()
        for command in [":theme night\r", ":spacing 2\r", ":goto 50%\r"] {
            for character in command { _ = reader.handle(character == "\r" ? .enter : .character(character)) }
        }
        #expect(reader.session.preferences.theme == .night)
        #expect(reader.session.preferences.lineSpacing == .double)
        #expect(abs(reader.session.fractionRead - 0.5) < 0.1)
        for character in ":frobnicate" { _ = reader.handle(.character(character)) }
        _ = reader.handle(.enter)
        #expect(reader.textRows().last?.contains("no :frobnicate command") == true)
        _ = reader.handle(.character(":"))
        type("q", into: &reader)
        let continues = reader.handle(.enter)
        #expect(!continues)
    }

    @Test func helpListsEveryKey() throws {
        // Tall enough for the whole panel: keys and : commands keep being added.
        var reader = try view(rows: 90)
        _ = reader.handle(.character("?"))
        let screen = reader.textRows().joined(separator: "\n")
        for key in [
            "space PgDn", "b PgUp", "g Home", "n / p", "n / N", "t", "] / [", "/", "m", "'", "v", "Enter f",
            "Backspace u", "> / <", "d", ":goto", ":theme", ":define", "q",
        ] {
            #expect(screen.contains(key), "help lacks \(key)")
        }
        _ = reader.handle(.escape)
        #expect(!reader.textRows().joined().contains("Backspace u"))
    }

    @Test(
        "The ? panel wraps each description beside its key: nothing is cut, in English or Swedish, at 80 or 50 columns",
        arguments: ["en", "sv"], [80, 50])
    func helpPanelCutsNothing(language: String, columns: Int) throws {
        Localization.use(language, environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        var reader = try view(columns: columns, rows: 200)
        _ = reader.handle(.character("?"))
        let screen = reader.textRows()
        // No row of the panel is cut short.
        for row in reader.helpRows {
            #expect(!row.hasSuffix("…") && DisplayWidth.of(row) <= reader.panelWidth - 4, "\(row)")
        }
        // Every word of every description is on the panel.
        let shown = Set(screen.joined(separator: " ").split(separator: " ").map(String.init))
        for (_, description) in reader.helpLines {
            for word in description.split(separator: " ") {
                #expect(shown.contains(String(word)), "\(language) \(columns): \(word) of \(description)")
            }
        }
    }

    @Test func contentsPanelJumpsToAChapter() throws {
        var reader = try view()
        _ = reader.handle(.character("t"))
        #expect(reader.textRows().joined(separator: "\n").contains("Chapter 4"))
        for key: Key in [.down, .down, .down, .enter] { _ = reader.handle(key) }
        #expect(reader.session.position == ViewPosition(spineIndex: 3, line: 0))
    }

    /// "counting pages…" says the count runs; it ends with the count, even in contents no entry
    /// of which gets a page (they all lead outside the reading order).
    @Test func theContentsStopSayingCountingPagesWhenTheCountEnds() throws {
        var builder = EPUBBuilder(chapters: [
            .init("one.xhtml", "One", "<p>First chapter.</p>"), .init("two.xhtml", "Two", "<p>Second chapter.</p>"),
        ])
        builder.navBody = #"<nav epub:type="toc"><ol><li><a href="https://example.org/">Web</a></li></ol></nav>"#
        let session = ReaderSession(book: try builder.open(), store: InMemoryPositionStore(), columns: 60, rows: 19)
        var reader = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 20)
        _ = reader.handle(.character("t"))
        #expect(reader.textRows().joined(separator: "\n").contains("counting pages…"))
        reader.session.layout.computePageCounts()
        reader.pageCountsChanged()
        #expect(!reader.textRows().joined(separator: "\n").contains("counting pages…"))
    }

    @Test func highlightWithColourAndNote() throws {
        let store = InMemoryPositionStore()
        var reader = try view(store: store)
        _ = reader.handle(.character("v"))
        #expect(reader.textRows().joined().contains("1 yellow"))
        _ = reader.handle(.down)
        _ = reader.handle(.character("3"))
        type("Remember this", into: &reader)
        _ = reader.handle(.enter)
        let saved = try #require(store.highlights(bookID: reader.session.bookID).first)
        #expect(saved.color == .blue)
        #expect(saved.note == "Remember this")
    }

    @Test func bookmarkAndBookmarksList() throws {
        var reader = try view()
        _ = reader.handle(.character(" "))
        _ = reader.handle(.character("m"))
        #expect(reader.session.bookmarks.count == 1)
        _ = reader.handle(.character("G"))
        _ = reader.handle(.character("'"))
        #expect(reader.textRows().joined().contains("Bookmarks"))
        _ = reader.handle(.enter)
        #expect(reader.session.pageInChapter.page == 2)
    }

    @Test func aFootnoteOpensOverThePageAndEnterGoesToItAndBackspaceComesBack() throws {
        var reader = try view(rows: 41)
        _ = reader.handle(.character("n"))
        let before = reader.session.position
        _ = reader.handle(.enter)
        // The note is shown over the page, which stays where it was.
        let popup = reader.textRows().joined(separator: "\n")
        #expect(popup.contains("Note") && popup.contains("The note itself, about ferries."), "\(popup)")
        #expect(reader.session.position == before)
        _ = reader.handle(.escape)
        #expect(!reader.textRows().joined().contains("The note itself"), "Esc closes it")
        #expect(reader.session.position == before)
        // Enter in the pop-up goes to the note itself; Backspace comes back.
        _ = reader.handle(.enter)
        _ = reader.handle(.enter)
        #expect(reader.session.position != before)
        #expect(reader.textRows().joined().contains("The note itself"))
        _ = reader.handle(.backspace)
        #expect(reader.session.position == before)
    }

    @Test func twoPagesSideBySide() throws {
        var reader = try view(columns: 140, rows: 30)
        for character in ":twopage on" { _ = reader.handle(.character(character)) }
        _ = reader.handle(.enter)
        let rows = reader.textRows()
        let pageWidth = (140 - ReaderPreferences.gutter) / 2
        // Text on both halves of the same row.
        #expect(
            rows.dropLast().contains {
                !$0.prefix(pageWidth).allSatisfy { $0 == " " } && !$0.dropFirst(pageWidth + 2).allSatisfy { $0 == " " }
            })
        #expect(rows.last?.contains("1–2/") == true)
    }

    @Test func coloursOnlyWhenTheTerminalHasThem() throws {
        let plain = try view()
        #expect(!plain.renderedRows().joined().contains("\u{1B}"))
        var colour = try view(capabilities: TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true))
        let rendered = colour.renderedRows().joined()
        #expect(rendered.contains("48;2;250;250;246"))  // the day page
        for character in ":theme night" { _ = colour.handle(.character(character)) }
        _ = colour.handle(.enter)
        #expect(colour.renderedRows().joined().contains("48;2;22;22;26"))
    }

    @Test func resizeKeepsThePlace() throws {
        var reader = try view()
        for _ in 0..<4 { _ = reader.handle(.character(" ")) }
        let anchor = reader.session.anchor
        reader.resize(columns: 50, rows: 16)
        #expect(reader.textRows().count == 16)
        #expect(reader.textRows().allSatisfy { $0.count == 50 })
        let visible = try #require(reader.session.visibleRanges().first)
        #expect(visible.range.contains(anchor.offset) || visible.range.lowerBound == anchor.offset)
    }
}

/// Links out of the book: listed with the others, opened only after asking, never fetched by bok.
@Suite struct ExternalLinkTests {
    private func view(opened: @escaping (String) -> Void) throws -> ReaderView {
        let body = """
            <p>See <a href="https://example.org/ferries">the timetable</a>, write to \
            <a href="mailto:bok@example.org">the author</a>, skip <a href="javascript:alert(1)">this</a> \
            or read <a href="two.xhtml">the next chapter</a>.</p>
            """
        let book = try EPUBBuilder(chapters: [
            .init("one.xhtml", "One", body), .init("two.xhtml", "Two", "<p>Next.</p>"),
        ]).open()
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 80, rows: 23)
        var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 80, rows: 24)
        view.openLink = { address in
            opened(address)
            return true
        }
        return view
    }

    @Test func aWebLinkIsListedAndOpensOnlyAfterYes() throws {
        final class Opened { var addresses: [String] = [] }
        let opened = Opened()
        var reader = try view { opened.addresses.append($0) }
        _ = reader.handle(.character("f"))
        let panel = reader.textRows().joined(separator: "\n")
        #expect(panel.contains("↗ the timetable") && panel.contains("example.org"), "\(panel)")
        #expect(panel.contains("↗ the author"))
        #expect(!panel.contains("↗ this") && !panel.contains("  this "), "a javascript: link is not offered")
        _ = reader.handle(.enter)
        let asked = reader.textRows().suffix(3).joined(separator: " ")
        #expect(asked.contains("Open https://example.org/ferries outside bok? y opens it, any other key"), "\(asked)")
        // In a narrow window the question wraps above the status line: the address is never cut.
        reader.resize(columns: 40, rows: 24)
        let narrow = reader.textRows().joined(separator: " ")
        #expect(narrow.contains("https://example.org/ferries") && narrow.contains("y opens it"), "\(narrow)")
        reader.resize(columns: 80, rows: 24)
        #expect(opened.addresses.isEmpty, "nothing is opened before the answer")
        _ = reader.handle(.character("n"))
        #expect(opened.addresses.isEmpty)
        _ = reader.handle(.character("f"))
        _ = reader.handle(.enter)
        _ = reader.handle(.character("y"))
        #expect(opened.addresses == ["https://example.org/ferries"])
        #expect(reader.session.message?.contains("Opened https://example.org/ferries") == true)
    }
}

/// Books whose pages turn right to left: the left-hand keys go forward, and a spread starts on the right.
@Suite struct RightToLeftPagesTests {
    private func view(spine: String = "", language: String = "en", columns: Int = 60) throws -> ReaderView {
        let sentence = "Page text that fills the screen so that there are several pages to turn. "
        var builder = EPUBBuilder(chapters: [
            .init(
                "one.xhtml", "One",
                (1...12).map { "<p>Part \($0). \(String(repeating: sentence, count: 4))</p>" }.joined())
        ])
        builder.spineExtra = spine
        builder.language = language
        let session = ReaderSession(
            book: try builder.open(), store: InMemoryPositionStore(), columns: columns, rows: 11)
        return ReaderView(session: session, capabilities: .plain, badge: nil, columns: columns, rows: 12)
    }

    @Test(arguments: [(" page-progression-direction=\"rtl\"", "en"), ("", "ar"), ("", "he-IL")])
    func theLeftKeyTurnsForward(spine: String, language: String) throws {
        var reader = try view(spine: spine, language: language)
        #expect(reader.session.book.pagesTurnRightToLeft)
        _ = reader.handle(.left)
        #expect(reader.session.pageInChapter.page == 2)
        _ = reader.handle(.right)
        #expect(reader.session.pageInChapter.page == 1)
        _ = reader.handle(.character(" "))
        #expect(reader.session.pageInChapter.page == 2, "space still goes forward")
    }

    @Test func aLeftToRightBookIsUnchanged() throws {
        var reader = try view(spine: " page-progression-direction=\"ltr\"", language: "ar")
        #expect(!reader.session.book.pagesTurnRightToLeft)
        _ = reader.handle(.right)
        #expect(reader.session.pageInChapter.page == 2)
    }

    @Test func aSpreadStartsOnTheRight() throws {
        var reader = try view(spine: " page-progression-direction=\"rtl\"", columns: 140)
        for character in ":twopage on" { _ = reader.handle(.character(character)) }
        _ = reader.handle(.enter)
        let rows = reader.textRows()
        let half = (140 - ReaderPreferences.gutter) / 2
        #expect(rows.contains { $0.dropFirst(half).contains("Part 1.") }, "the first page is the right-hand one")
        #expect(!rows.contains { $0.prefix(half).contains("Part 1.") })
    }
}
