import Foundation
import Terminal
import Testing

@testable import Reader

/// A long chapter is laid out only as far as the screen needs, and further on demand. Asserted
/// on the work done (lines laid out) and on where the reader lands, compared with a layout of
/// the whole chapter: whatever the reader does, the pages are the ones a full layout has.
@Suite struct LazyLayoutTests {
    static let sentences = [
        "The ferry left the harbour before dawn, its lamps swinging over the black water.",
        "Anna counted the gulls that followed them and lost count somewhere past forty.",
        "Nobody on board spoke of the letter, although everyone had read it twice.",
        "By noon the islands had thinned to a grey line, and the wind turned cold.",
    ]

    /// A first chapter of 1 200 paragraphs (a section heading every 100, a rule now and then, the
    /// word "Zanzibar" once near its end), then two short chapters.
    static func book() throws -> EPUBBook {
        let long = (1...1_200).map { number in
            let heading = number % 100 == 1 ? "<h2>Section \(number / 100 + 1)</h2>" : ""
            let rule = number % 77 == 0 ? "<hr/>" : ""
            let text = (0..<(1 + number % 4)).map { sentences[(number + $0) % sentences.count] }.joined(separator: " ")
            let word = number == 1_150 ? " They sailed for Zanzibar." : ""
            return heading + rule + "<p>Paragraph \(number). \(text)\(word)</p>"
        }.joined()
        let short = (2...3).map { number in
            EPUBBuilder.Chapter(
                "ch\(number).xhtml", "Chapter \(number)",
                "<h1>Chapter \(number)</h1><p>\(sentences.joined(separator: " "))</p>")
        }
        return try EPUBBuilder(chapters: [.init("ch1.xhtml", "Chapter 1", "<h1>Chapter 1</h1>" + long)] + short).open()
    }

    /// The ways of showing pages: one page, two side by side, scrolling.
    enum Flow: String, CaseIterable, CustomTestStringConvertible {
        case paged, spread, scroll
        var testDescription: String { rawValue }
        var columns: Int { self == .spread ? 200 : 80 }
    }

    /// A session on the book; `whole` lays the long chapter out to its end first, as the reader
    /// did before layouts were made lazily, for the answer to compare with.
    static func session(
        _ book: EPUBBook, flow: Flow = .paged, store: InMemoryPositionStore = InMemoryPositionStore(),
        whole: Bool = false
    ) -> ReaderSession {
        var session = ReaderSession(book: book, store: store, columns: flow.columns, rows: 24)
        session.updatePreferences {
            $0.flow = flow == .scroll ? .scroll : .paged
            $0.twoPage = flow == .spread
        }
        if whole {
            _ = session.chapter(0)
            let complete = session.layout.chapter(0, reachingLine: 0).isComplete
            #expect(complete)
        }
        return session
    }

    /// The text on screen, row by row.
    static func screen(_ session: ReaderSession) -> [[String]] {
        session.visiblePages().map { page in page.map { $0.line.runs.map(\.text).joined() } }
    }

    /// The long chapter laid out whole at the session's settings.
    static func fullLayout(_ session: ReaderSession) -> ChapterLayout {
        ChapterLayout.make(session.content.document(at: 0), spineIndex: 0, settings: session.layout.settings)
    }

    @Test func theFirstFrameLaysOutOnlyTheFirstScreens() throws {
        let book = try Self.book()
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 80, rows: 23)
        let view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 80, rows: 24)
        let rows = view.textRows()
        #expect(rows.contains { $0.contains("Paragraph 1.") })
        let whole = Self.fullLayout(view.session).lines.count
        #expect(whole > 4_000, "the chapter is long enough to matter")
        #expect(
            view.session.content.linesLaidOut < whole / 20,
            "laid out \(view.session.content.linesLaidOut) of \(whole) lines")
        // The status line says the chapter's page count is an estimate until it is laid out.
        let status = try #require(rows.last)
        #expect(status.contains("1/~"), "\(status)")
        // Counting in the background finishes the chapter: the count becomes exact.
        view.session.layout.computePageCounts()
        let counted = view.session.pageInChapter
        #expect(!counted.isEstimate)
        #expect(counted.count == Self.fullLayout(view.session).pageCount)
    }

    /// The background count makes the status line's page count exact without keeping the long
    /// chapter's lines: they stay laid out only as far as the reader has gone.
    @Test(arguments: [Flow.paged, .scroll])
    func theBackgroundCountIsExactAndKeepsNoLines(flow: Flow) throws {
        let book = try Self.book()
        var lazy = Self.session(book, flow: flow)
        let whole = Self.session(book, flow: flow, whole: true)
        for _ in 0..<5 { _ = lazy.nextPage() }
        #expect(lazy.pageInChapter.isEstimate)
        let before = lazy.layout.chapter(0, reachingLine: lazy.position.line).lines.count
        lazy.layout.computePageCounts()
        let counted = lazy.pageInChapter
        #expect(!counted.isEstimate)
        #expect(counted.count == whole.pageInChapter.count)
        #expect(counted.page == 6 || flow == .scroll)
        let kept = lazy.layout.chapter(0, reachingLine: lazy.position.line)
        #expect(!kept.isComplete, "the count did not keep the chapter's lines")
        #expect(kept.lines.count == before)
        #expect(lazy.layout.pageNumber(of: PagePosition(spineIndex: 0, page: 0))?.total ?? 0 > counted.count)
    }

    @Test(arguments: Flow.allCases)
    func turningPagesToTheChaptersEndShowsTheSamePages(flow: Flow) throws {
        let book = try Self.book()
        var lazy = Self.session(book, flow: flow)
        var whole = Self.session(book, flow: flow, whole: true)
        var turns = 0
        while lazy.position.spineIndex == 0 {
            #expect(Self.screen(lazy) == Self.screen(whole), "after \(turns) turns")
            #expect(lazy.pageInChapter.page == whole.pageInChapter.page)
            #expect(lazy.pageInChapter.count >= lazy.pageInChapter.page)
            guard lazy.nextPage(), whole.nextPage() else { break }
            turns += 1
        }
        #expect(turns > 60)
        #expect(lazy.position == whole.position, "both reach chapter 2 on the same turn")
        #expect(lazy.topLocator == whole.topLocator)
        // And back into the long chapter's last page.
        _ = lazy.previousPage()
        _ = whole.previousPage()
        #expect(lazy.position == whole.position)
        #expect(Self.screen(lazy) == Self.screen(whole))
    }

    /// Jumps deep into the long chapter: `G` (in a book whose last chapter is the long one, via
    /// the end of the chapter before `]`), `:goto 50%`, a search hit near the end, and a page
    /// turn back from the next chapter.
    @Test(arguments: Flow.allCases)
    func jumpsDeepIntoTheChapterLandWhereAFullLayoutPutsThem(flow: Flow) throws {
        let book = try Self.book()
        let moves: [(String, (inout ReaderSession) -> Void)] = [
            ("goto 50%", { _ = $0.perform(.gotoPercent(0.5)) }),
            ("goto 30%", { _ = $0.perform(.gotoPercent(0.3)) }),
            ("search", { _ = try? $0.search("zanzibar") }),
            (
                "back from chapter 2",
                {
                    $0.jump(to: Locator(spineIndex: 1, offset: 0))
                    _ = $0.previousPage()
                }
            ),
        ]
        for (name, move) in moves {
            var lazy = Self.session(book, flow: flow)
            var whole = Self.session(book, flow: flow, whole: true)
            move(&lazy)
            move(&whole)
            #expect(lazy.position == whole.position, "\(name)")
            #expect(lazy.topLocator == whole.topLocator, "\(name)")
            #expect(Self.screen(lazy) == Self.screen(whole), "\(name)")
            if name == "search" {
                #expect(Self.screen(lazy).joined().contains { $0.contains("Zanzibar") })
            }
            if name != "back from chapter 2" {
                let complete = lazy.layout.chapter(0, reachingLine: 0).isComplete
                #expect(!complete, "\(name) laid out only what it needed")
            }
        }
    }

    /// `G` on a book whose last chapter is the long one.
    @Test func theEndOfABookEndingInALongChapter() throws {
        let long = (1...900).map { "<p>Paragraph \($0). \(Self.sentences[$0 % 4]) \(Self.sentences[($0 + 1) % 4])</p>" }
        let book = try EPUBBuilder(chapters: [
            .init("ch1.xhtml", "Chapter 1", "<h1>Chapter 1</h1><p>Short.</p>"),
            .init("ch2.xhtml", "Chapter 2", "<h1>Chapter 2</h1>" + long.joined()),
        ]).open()
        for flow in Flow.allCases {
            var lazy = Self.session(book, flow: flow)
            var whole = Self.session(book, flow: flow)
            _ = whole.chapter(1)
            lazy.goToEnd()
            whole.goToEnd()
            #expect(lazy.position == whole.position, "\(flow)")
            #expect(Self.screen(lazy) == Self.screen(whole), "\(flow)")
            #expect(Self.screen(lazy).joined().contains { $0.contains("Paragraph 900.") }, "\(flow)")
            #expect(lazy.fractionRead == 1, "\(flow)")
        }
    }

    @Test func aSavedPlaceNearTheChaptersEndOpensOnItsPage() throws {
        let book = try Self.book()
        let store = InMemoryPositionStore()
        let probe = Self.session(book, store: store)
        let text = probe.content.plainText(at: 0)
        let offset = (text as NSString).range(of: "Paragraph 1100.").location
        #expect(offset != NSNotFound)
        let id = probe.bookID
        store.savePosition(probe.content.locator(spineIndex: 0, offset: offset), percent: 50, bookID: id)
        let lazy = ReaderSession(book: book, store: store, columns: 80, rows: 24)
        let full = Self.fullLayout(lazy)
        let page = full.page(containing: offset)
        #expect(lazy.position == ViewPosition(spineIndex: 0, line: full.firstLine(ofPage: page)))
        #expect(Self.screen(lazy) == [full.lines(onPage: page).map { $0.runs.map(\.text).joined() }])
        #expect(Self.screen(lazy).joined().contains { $0.contains("Paragraph 1100.") })
        #expect(lazy.content.linesLaidOut < full.lines.count, "the rest of the chapter waits")
        #expect(lazy.pageInChapter.page == page + 1)
    }

    @Test(arguments: [Flow.paged, .scroll])
    func aNewWidthDeepInTheChapterKeepsTheSentence(flow: Flow) throws {
        let book = try Self.book()
        var lazy = Self.session(book, flow: flow)
        var whole = Self.session(book, flow: flow, whole: true)
        _ = lazy.perform(.gotoPercent(0.55))
        _ = whole.perform(.gotoPercent(0.55))
        for _ in 0..<3 {
            _ = lazy.nextPage()
            _ = whole.nextPage()
        }
        let anchor = lazy.anchor
        #expect(anchor == whole.anchor)
        lazy.resize(columns: 64, rows: 20)
        whole.resize(columns: 64, rows: 20)
        _ = whole.chapter(0)
        #expect(lazy.anchor == anchor, "the place is kept")
        #expect(lazy.position == whole.position)
        #expect(Self.screen(lazy) == Self.screen(whole))
        let top = lazy.topLocator.offset
        let bottom = lazy.bottomLocator.offset
        #expect(top <= anchor.offset && anchor.offset < bottom, "the sentence is on screen")
    }
}
