import Foundation
import Terminal
import Testing

@testable import Reader

/// A clock the test moves by hand.
private final class TestClock {
    var seconds = 1_000.0
}

@Suite struct ReaderSessionTests {
    static let sentences = [
        "The ferry left the harbour before dawn, its lamps swinging over the black water.",
        "Anna counted the gulls that followed them and lost count somewhere past forty.",
        "Nobody on board spoke of the letter, although everyone had read it twice.",
        "By noon the islands had thinned to a grey line, and the wind turned cold.",
        "She wrote the date in the margin of her book, as her father always had.",
    ]

    /// A book of `chapters` chapters of `paragraphs` paragraphs each, with a footnote in chapter 2.
    static func book(chapters: Int = 6, paragraphs: Int = 40) throws -> EPUBBook {
        let list = (1...chapters).map { number in
            let body =
                "<h1>Chapter \(number)</h1>"
                + (1...paragraphs).map { paragraph in
                    let text = (0..<3).map { sentences[(number + paragraph + $0) % sentences.count] }.joined(
                        separator: " ")
                    let note =
                        number == 2 && paragraph == 3
                        ? " See the note<a epub:type=\"noteref\" href=\"notes.xhtml#n1\">1</a>." : ""
                    return "<p>Paragraph \(number).\(paragraph). \(text)\(note)</p>"
                }.joined()
            return EPUBBuilder.Chapter("ch\(number).xhtml", "Chapter \(number)", body)
        }
        var builder = EPUBBuilder(chapters: list)
        builder.chapters.append(
            .init(
                "notes.xhtml", "Notes",
                "<aside epub:type=\"footnote\" id=\"n1\"><p>The note itself, about ferries.</p></aside>", linear: false)
        )
        return try builder.open()
    }

    private func session(
        _ book: EPUBBook, store: InMemoryPositionStore = InMemoryPositionStore(),
        columns: Int = 80, rows: Int = 24, clock: TestClock = TestClock()
    ) -> ReaderSession {
        ReaderSession(book: book, store: store, columns: columns, rows: rows, now: { clock.seconds })
    }

    private func screenText(_ session: ReaderSession) -> String {
        session.visiblePages().joined().map(\.line.text).joined(separator: "\n")
    }

    // MARK: Moving

    @Test func turnsPagesForwardAndBackAndSavesEachTurn() throws {
        let store = InMemoryPositionStore()
        var reader = session(try Self.book(), store: store)
        #expect(screenText(reader).hasPrefix("Chapter 1"))
        let result1 = reader.previousPage()
        #expect(!result1)
        let first = reader.topLocator
        let result2 = reader.nextPage()
        #expect(result2)
        let second = reader.topLocator
        #expect(second > first)
        #expect(store.loadPosition(bookID: reader.bookID) == second)
        #expect(reader.pageInChapter.page == 2)
        let result3 = reader.previousPage()
        #expect(result3)
        #expect(reader.topLocator == first)
        #expect(store.savedPositionCount >= 2)
    }

    @Test func pagesFlowAcrossChaptersToTheEndAndNotPastIt() throws {
        var reader = session(try Self.book(chapters: 3, paragraphs: 10), rows: 30)
        var turns = 0
        var chapters: [Int] = [reader.position.spineIndex]
        while reader.nextPage() {
            turns += 1
            if chapters.last != reader.position.spineIndex { chapters.append(reader.position.spineIndex) }
        }
        #expect(chapters == [0, 1, 2])  // the non-linear notes are skipped
        #expect(reader.fractionRead == 1)
        #expect(reader.message == "End of the book.")
        for _ in 0..<turns {
            let moved = reader.previousPage()
            #expect(moved)
        }
        #expect(reader.position == ViewPosition(spineIndex: 0, line: 0))
    }

    @Test func reopeningReturnsToTheSavedPlace() throws {
        let book = try Self.book()
        let store = InMemoryPositionStore()
        var reader = session(book, store: store)
        for _ in 0..<7 { reader.nextPage() }
        let place = reader.topLocator
        let again = session(book, store: store)
        #expect(again.topLocator == place)
        #expect(again.bookID.rawValue.hasPrefix("epub:urn:uuid:1234#"))
    }

    @Test func aSavedPlaceFollowsItsSnippetWhenTheTextMoved() throws {
        let book = try Self.book()
        let store = InMemoryPositionStore()
        let content = BookContent(book: book)
        let text = content.plainText(at: 2)
        let target = (text as NSString).range(of: "Paragraph 3.20.").location
        let snippet = content.locator(spineIndex: 2, offset: target).snippet
        store.savePosition(
            Locator(spineIndex: 2, offset: target - 37, snippet: snippet), percent: 10, bookID: BookID(book: book))
        let reader = session(book, store: store)
        #expect(reader.anchor.offset == target)
    }

    @Test func chaptersStartAndEnd() throws {
        var reader = session(try Self.book())
        reader.nextChapter()
        #expect(reader.position == ViewPosition(spineIndex: 1, line: 0))
        reader.nextPage()
        reader.previousChapter()
        #expect(reader.position == ViewPosition(spineIndex: 1, line: 0))
        reader.previousChapter()
        #expect(reader.position.spineIndex == 0)
        reader.goToEnd()
        #expect(reader.fractionRead == 1)
        let result4 = reader.nextPage()
        #expect(!result4)
        reader.goToStart()
        #expect(reader.position == ViewPosition(spineIndex: 0, line: 0))
        #expect(reader.fractionRead < 0.1)
    }

    @Test func goToPercentChapterAndPage() throws {
        var reader = session(try Self.book())
        let result5 = reader.perform(try ReaderCommand.parse("goto 50%").get())
        #expect(result5)
        #expect(abs(reader.fractionRead - 0.5) < 0.06, "at \(reader.fractionRead)")
        reader.perform(try ReaderCommand.parse("goto chapter 3").get())
        #expect(reader.position == ViewPosition(spineIndex: 2, line: 0))
        let result6 = reader.currentChapterTitle()
        #expect(result6 == "Chapter 3")
        reader.perform(try ReaderCommand.parse("goto chapter 30").get())
        #expect(reader.message?.contains("has 6 chapters") == true)
        reader.perform(.gotoPage(1))
        #expect(reader.position == ViewPosition(spineIndex: 0, line: 0))
        let firstOfChapter2 = reader.layout.chapter(0).pageCount + 1
        reader.perform(.gotoPage(firstOfChapter2))
        #expect(reader.position == ViewPosition(spineIndex: 1, line: 0))
        #expect(reader.pageInBook?.page == firstOfChapter2)
        let result7 = reader.goBack()
        #expect(result7)
        #expect(reader.position == ViewPosition(spineIndex: 0, line: 0))
    }

    // MARK: Layout changes

    @Test(arguments: [(80, 24, 40, 20), (120, 40, 60, 30), (50, 15, 200, 60), (100, 30, 30, 10)])
    func resizeKeepsTheSameSentence(fromColumns: Int, fromRows: Int, toColumns: Int, toRows: Int) throws {
        var reader = session(try Self.book(), columns: fromColumns, rows: fromRows)
        for _ in 0..<9 { reader.nextPage() }
        let anchor = reader.anchor
        reader.resize(columns: toColumns, rows: toRows)
        let visible = try #require(reader.visibleRanges().first)
        #expect(visible.spineIndex == anchor.spineIndex)
        #expect(visible.range.contains(anchor.offset) || visible.range.lowerBound == anchor.offset)
        // Back to the first size: the same page as before, with no drift.
        reader.resize(columns: toColumns + 7, rows: toRows + 3)
        reader.resize(columns: fromColumns, rows: fromRows)
        #expect(reader.topLocator == anchor)
    }

    @Test func settingsChangesKeepTheSentenceAndAreSaved() throws {
        let store = InMemoryPositionStore()
        var reader = session(try Self.book(), store: store)
        for _ in 0..<5 { reader.nextPage() }
        let anchor = reader.anchor
        for command in ["spacing 2", "justify on", "margin 6", "width 50", "spacing 1.5", "paragraphs indent"] {
            reader.perform(try ReaderCommand.parse(command).get())
            let visible = try #require(reader.visibleRanges().first)
            #expect(
                visible.range.contains(anchor.offset) || visible.range.lowerBound == anchor.offset, "after \(command)")
        }
        #expect(reader.layout.settings.lineSpacing == .oneAndHalf)
        #expect(reader.layout.settings.justify)
        #expect(reader.layout.settings.margin == 6)
        #expect(reader.layout.settings.textWidth == 50)
        #expect(store.settings(bookID: reader.bookID)?.lineSpacing == .oneAndHalf)
        #expect(store.defaultSettings()?.maxTextWidth == 50)
        reader.perform(try ReaderCommand.parse("theme night").get())
        reader.perform(try ReaderCommand.parse("brightness -2").get())
        #expect(store.settings(bookID: reader.bookID)?.theme == .night)
        #expect(store.settings(bookID: reader.bookID)?.brightness == -2)
        // A new session opens with the book's settings.
        let again = session(reader.book, store: store)
        #expect(again.preferences.theme == .night)
        #expect(again.topLocator == reader.topLocator)
    }

    @Test func twoPagesSideBySideWhenWideEnough() throws {
        var reader = session(try Self.book(), columns: 160, rows: 30)
        #expect(reader.visiblePages().count == 1)
        reader.perform(.twoPage(true))
        #expect(reader.showsTwoPages)
        let pages = reader.visiblePages()
        #expect(pages.count == 2)
        #expect(reader.layout.settings.width == (160 - ReaderPreferences.gutter) / 2)
        let left = try #require(pages[0].last?.line.sourceRange.upperBound)
        let right = try #require(pages[1].first(where: { $0.line.role != .blank })?.line.sourceRange.lowerBound)
        #expect(right >= left)
        reader.nextPage()
        #expect(reader.pageInChapter.page == 3)
        reader.previousPage()
        #expect(reader.pageInChapter.page == 1)
        // Too narrow for two: one page, and the position holds.
        reader.nextPage()
        let anchor = reader.anchor
        reader.resize(columns: 90, rows: 30)
        #expect(!reader.showsTwoPages)
        #expect(reader.visiblePages().count == 1)
        let visible = try #require(reader.visibleRanges().first)
        #expect(visible.range.contains(anchor.offset) || visible.range.lowerBound == anchor.offset)
    }

    @Test func scrollFlowMovesByLinesAcrossChapters() throws {
        var reader = session(try Self.book(chapters: 2, paragraphs: 8), rows: 10)
        reader.perform(.flow(.scroll))
        let rows = reader.visiblePages()[0]
        #expect(rows.count == 10)
        reader.scroll(lines: 1)
        #expect(reader.position.line == 1)
        #expect(reader.visiblePages()[0].first?.line == rows[1].line)
        reader.scroll(lines: -1)
        #expect(reader.position.line == 0)
        var screens = 0
        while reader.nextPage() { screens += 1 }
        #expect(reader.position.spineIndex == 1)
        #expect(reader.visiblePages()[0].count == 10)
        #expect(reader.fractionRead == 1)
        #expect(screens > 2)
        // A chapter's end and the next chapter's start share a screen.
        reader.goToStart()
        let firstLength = reader.chapter(0).lines.count
        reader.scroll(lines: firstLength - 3)
        let spines = Set(reader.visiblePages()[0].map(\.spineIndex))
        #expect(spines == [0, 1])
    }

    // MARK: Search

    @Test func searchJumpsBetweenHitsAndWraps() throws {
        var reader = session(try Self.book())
        let count = try reader.search("GULLS")
        #expect(count > 10)
        let first = try #require(reader.currentHit)
        #expect(
            reader.visibleRanges().contains {
                $0.spineIndex == first.locator.spineIndex && $0.range.contains(first.locator.offset)
            })
        #expect(reader.visibleMarks().contains { $0.kind == .searchHit(current: true) })
        reader.nextHit()
        #expect(try #require(reader.currentHit).locator > first.locator)
        reader.previousHit()
        reader.previousHit()
        #expect(reader.message?.contains("wrapped") == true)
        #expect(reader.search?.current == count - 1)
        reader.clearSearch()
        let result8 = reader.nextHit()
        #expect(!result8)
        #expect(reader.visibleMarks().isEmpty)
        let result9 = try reader.search("no such words here")
        #expect(result9 == 0)
        #expect(reader.search == nil)
        #expect(throws: ReaderError.self) {
            var copy = reader
            try copy.search("[unclosed")
        }
        // Regular expressions, and the back stack returns to where the search began.
        reader.goToStart()
        try reader.search("paragraph 4\\.2[0-9]\\.")
        #expect(reader.position.spineIndex == 3)
        reader.goBack()
        #expect(reader.position == ViewPosition(spineIndex: 0, line: 0))
    }

    // MARK: Bookmarks, highlights, links

    @Test func bookmarksToggleListAndJump() throws {
        let store = InMemoryPositionStore()
        var reader = session(try Self.book(), store: store)
        for _ in 0..<3 { reader.nextPage() }
        let result10 = reader.toggleBookmark()
        let mark = try #require(result10)
        #expect(mark.locator == reader.topLocator)
        #expect(reader.bookmarksOnScreen.count == 1)
        reader.nextChapter()
        reader.toggleBookmark()
        #expect(store.bookmarks(bookID: reader.bookID).count == 2)
        reader.goTo(reader.bookmarks[0])
        #expect(reader.topLocator == mark.locator)
        let result11 = reader.toggleBookmark()
        #expect(result11 == nil)
        #expect(store.bookmarks(bookID: reader.bookID).count == 1)
    }

    @Test func highlightsOfParagraphsAndHitsWithNotes() throws {
        let store = InMemoryPositionStore()
        var reader = session(try Self.book(), store: store)
        reader.nextPage()
        let targets = reader.highlightTargets()
        #expect(targets.count > 2)
        let paragraph = try #require(targets.first { $0.text.hasPrefix("Paragraph") })
        reader.addHighlight(paragraph, color: .green, note: "  The ferry again.  ")
        let saved = try #require(store.highlights(bookID: reader.bookID).first)
        #expect(saved.note == "The ferry again.")
        #expect(saved.text == paragraph.text)
        #expect(saved.color == .green)
        #expect(reader.visibleMarks().contains { $0.kind == .highlight(.green) })
        #expect(reader.highlight(covering: paragraph)?.id == saved.id)

        try reader.search("islands")
        let hitTarget = try #require(reader.highlightTargets().first)
        #expect(hitTarget.isSearchHit)
        #expect(hitTarget.text == "islands")
        reader.addHighlight(hitTarget, color: .pink)
        #expect(store.highlights(bookID: reader.bookID).count == 2)

        let notes = ReaderApp.notesMarkdown(book: reader.book, store: store)
        #expect(notes.contains("# Test Book"))
        #expect(notes.contains("> " + paragraph.text))
        #expect(notes.contains("The ferry again."))
        #expect(notes.contains("islands"))
    }

    @Test func followingAFootnoteAndComingBack() throws {
        var reader = session(try Self.book(), rows: 40)
        reader.nextChapter()
        let links = reader.visibleLinks()
        let note = try #require(links.first)
        #expect(note.isNoteReference)
        #expect(note.text == "1")
        let before = reader.position
        let result12 = reader.follow(note.destination)
        #expect(result12)
        #expect(screenText(reader).contains("The note itself, about ferries."))
        let result13 = reader.goBack()
        #expect(result13)
        #expect(reader.position == before)
        let result14 = reader.goBack()
        #expect(!result14)
        let result15 = reader.follow(.external("https://example.org"))
        #expect(!result15)
    }

    @Test func tableOfContentsGetsPageNumbersOnceCounted() throws {
        var reader = session(try Self.book())
        var toc = reader.tableOfContents()
        #expect(toc.map(\.title) == (1...6).map { "Chapter \($0)" })
        #expect(toc.allSatisfy { $0.page == nil })
        #expect(toc.first?.isCurrent == true)
        reader.layout.computePageCounts()
        reader.nextChapter()
        toc = reader.tableOfContents()
        #expect(toc[0].page == 1)
        #expect(toc[1].page == reader.layout.chapter(0).pageCount + 1)
        #expect(toc[1].isCurrent && !toc[0].isCurrent)
        #expect(reader.pageInBook?.page == toc[1].page)
    }

    /// A spine item of a type bok cannot show (a DTBook, a picture of another kind) whose manifest
    /// fallback is XHTML: the contents that name the item itself still get their page numbers, and
    /// they are the pages the reader shows there.
    @Test(arguments: ["two.dtb", "two.xhtml"])
    func aChapterReachedThroughItsFallbackIsCountedAndNumbered(contentsLink: String) throws {
        let long = String(repeating: "<p>\(Self.sentences.joined(separator: " "))</p>", count: 12)
        var builder = EPUBBuilder(chapters: [
            .init("one.xhtml", "One", "<h1>One</h1>\(long)"),
            .init("two.xhtml", "Two", "<h1 id=\"t\">Two</h1>\(long)"),
        ])
        builder.extraManifest = """
            <item id="dtb" href="two.dtb" media-type="application/x-dtbook-sample" fallback="c1"/>

            """
        builder.spineOverride = #"<itemref idref="c0"/><itemref idref="dtb"/>"#
        builder.extraFiles = [("OEBPS/two.dtb", Array("<dtbook><p>Not shown.</p></dtbook>".utf8))]
        builder.navBody = """
            <nav epub:type="toc"><ol><li><a href="one.xhtml">One</a></li>\
            <li><a href="\(contentsLink)#t">Two</a></li></ol></nav>
            """
        var reader = session(try builder.open(), columns: 40, rows: 12)
        #expect(!reader.pagesAreCounted)
        reader.layout.computePageCounts()
        #expect(reader.pagesAreCounted)
        let toc = reader.tableOfContents()
        #expect(toc.map(\.title) == ["One", "Two"])
        let second = try #require(toc[1].locator)
        #expect(toc[1].page == reader.layout.chapter(0).pageCount + 1)
        reader.show(second)
        #expect(screenText(reader).contains("Two"))
        #expect(reader.pageInBook?.page == toc[1].page)
    }

    // MARK: Pace

    @Test func timeLeftFollowsTheReadersOwnPace() throws {
        let clock = TestClock()
        let store = InMemoryPositionStore()
        var reader = session(try Self.book(), store: store, clock: clock)
        let characters = reader.visibleRanges().reduce(0) { $0 + $1.range.count }
        let before = reader.timeLeft
        #expect(
            abs(before.book * ReaderSession.defaultCharactersPerSecond - Double(reader.chapterLength(0) * 6))
                / Double(reader.chapterLength(0) * 6) < 0.2)
        // A slow reader: two minutes a page.
        for _ in 0..<5 {
            clock.seconds += 120
            reader.nextPage()
        }
        #expect(store.paceSamples(bookID: reader.bookID, limit: 10).count == 5)
        let rate = reader.charactersPerSecond
        #expect(abs(rate - Double(characters) / 120) / rate < 0.25, "rate \(rate)")
        #expect(reader.timeLeft.book > before.book)
        #expect(reader.timeLeft.chapter < reader.timeLeft.book)
        // Flicking through pages is not reading: no samples.
        for _ in 0..<3 {
            clock.seconds += 0.3
            reader.nextPage()
        }
        #expect(store.paceSamples(bookID: reader.bookID, limit: 10).count == 5)
    }

    // MARK: Commands

    @Test(arguments: [
        ("goto 42%", ReaderCommand.gotoPercent(0.42)), ("goto chapter 3", .gotoChapter(3)),
        ("goto 120", .gotoPage(120)),
        ("goto end", .gotoEnd), ("width 70", .width(70)), ("width full", .width(nil)), ("theme night", .theme(.night)),
        ("spacing 1.5", .spacing(.oneAndHalf)), ("justify on", .justify(true)), ("justify off", .justify(false)),
        ("hyphenate off", .hyphenate(false)), ("hyphenate on", .hyphenate(true)),
        ("margin 4", .margin(4)), ("scroll", .flow(.scroll)), ("paged", .flow(.paged)), ("twopage on", .twoPage(true)),
        ("brightness -1", .brightness(-1)), ("brightness +2", .brightness(2)),
        ("search the whale", .search("the whale")),
        ("q", .quit),
    ])
    func commandsParse(line: String, command: ReaderCommand) throws {
        #expect(try ReaderCommand.parse(line).get() == command)
    }

    @Test(arguments: ["goto", "goto 120%", "width 5", "theme purple", "spacing 3", "brightness 9", "frobnicate", ""])
    func badCommandsSayWhatWouldWork(line: String) {
        guard case .failure(let error) = ReaderCommand.parse(line) else {
            Issue.record("\(line) parsed")
            return
        }
        #expect(error.message.contains(":") || error.message.contains("?"))
    }
}

/// A book of pictures moves on in percent as its pages are turned.
@Suite struct PictureBookProgressTests {
    @Test func everyPictureCountsInTheProgress() throws {
        var builder = EPUBBuilder(
            chapters: (1...8).map { .init("p\($0).xhtml", "Page \($0)", "<img src=\"p\($0).png\" alt=\"\"/>") })
        builder.extraFiles = (1...8).map {
            ("OEBPS/p\($0).png", PNGWriter.rgba(width: 8, height: 8) { _, _ in (90, 90, 200, 255) })
        }
        let book = try builder.open()
        var session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 20)
        var seen: [Double] = [session.fractionRead]
        for _ in 1..<8 {
            session.nextPage()
            seen.append(session.fractionRead)
        }
        #expect(seen.first! > 0, "the first picture counts once it is on screen: \(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "every page moves the percent on: \(seen)")
        #expect(seen.last == 1)
    }
}

/// A book with the print edition's pages (`page-list`): the status line shows the print page and
/// `:goto page N` goes there.
@Suite struct PrintPageTests {
    static func book() throws -> EPUBBook {
        let sentence = "The lamps along the harbour went out one by one while the ferry waited. "
        var builder = EPUBBuilder(
            chapters: (1...3).map { chapter in
                let body = (1...4).map { part in
                    let page = (chapter - 1) * 4 + part + 10
                    return
                        """
                        <span epub:type=\"pagebreak\" id=\"p\(page)\" title=\"\(page)\"/><p>Page \(page). \
                        \(String(repeating: sentence, count: 30))</p>
                        """
                }.joined()
                return EPUBBuilder.Chapter("ch\(chapter).xhtml", "Chapter \(chapter)", body)
            })
        let links = (11...22).map { page in "<li><a href=\"ch\((page - 11) / 4 + 1).xhtml#p\(page)\">\(page)</a></li>" }
            .joined()
        builder.navExtra = "<nav epub:type=\"page-list\"><ol>\(links)</ol></nav>"
        return try builder.open()
    }

    @Test func theStatusLineShowsThePrintPageAndGotoPageGoesThere() throws {
        let session = ReaderSession(book: try Self.book(), store: InMemoryPositionStore(), columns: 60, rows: 12)
        var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 13)
        #expect(view.textRows().last?.contains("(p. 11)") == true, "\(view.textRows().last ?? "")")
        for character in ":goto page 19" { _ = view.handle(.character(character)) }
        _ = view.handle(.enter)
        #expect(view.session.printPage() == "19")
        #expect(view.textRows().contains { $0.contains("Page 19.") }, "the view is at print page 19")
        #expect(view.textRows().last?.contains("(p. 19)") == true, "\(view.textRows().last ?? "")")

        var session2 = view.session
        _ = session2.perform(.gotoPrintPage("99"))
        #expect(session2.message == "The book's print pages run from 11 to 22; there is no page 99.")
        var plain = ReaderSession(
            book: try ReaderSessionTests.book(chapters: 1, paragraphs: 3), store: InMemoryPositionStore(), columns: 60,
            rows: 12)
        #expect(plain.printPage() == nil)
        _ = plain.perform(.gotoPrintPage("4"))
        #expect(plain.message?.contains("no print page numbers") == true)
    }
}

/// `:stats`: the reader's pace and time read, from the samples kept for time left.
@Suite struct ReadingStatsTests {
    @Test func statsGiveThePaceAndTheTimeReadHereAndToday() throws {
        let book = try ReaderSessionTests.book(chapters: 1, paragraphs: 5)
        let store = InMemoryPositionStore()
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let id = BookID(book: book)
        // Three screens of this book today, at 20 characters a second (200 words a minute).
        for _ in 0..<3 { store.addPaceSample(PaceSample(characters: 2_400, seconds: 120, date: now), bookID: id) }
        // Another book yesterday.
        store.addPaceSample(
            PaceSample(characters: 2_000, seconds: 600, date: now.addingTimeInterval(-86_400)), bookID: "other")
        var session = ReaderSession(
            book: book, store: store, columns: 60, rows: 20, now: { now.timeIntervalSinceReferenceDate })
        _ = session.perform(.stats)
        let message = try #require(session.message)
        #expect(message.hasPrefix("About 200 words ("), "\(message)")
        #expect(message.contains("6 min read in this book, 6 min today in all books"), "\(message)")

        var fresh = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 20)
        _ = fresh.perform(.stats)
        #expect(fresh.message?.hasPrefix("Not enough reading yet") == true)
    }
}
