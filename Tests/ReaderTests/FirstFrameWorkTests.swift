import Foundation
import Terminal
import Testing

@testable import Reader

/// The first frame does no work that grows with the book: it converts the chapter on screen (and
/// at most one more), whatever shape the book has. Asserted on the work done (chapters converted),
/// not on time, which these shared machines cannot measure steadily in a unit test.
@Suite struct FirstFrameWorkTests {
    /// Shapes real books have; each chapter carries section ids that the contents link to.
    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case navWithFragments, ncxWithFragments, manySmallItems, coverPageFirst, hugeChapter

        var testDescription: String { rawValue }

        func builder() -> EPUBBuilder {
            let count = self == .manySmallItems ? 300 : self == .hugeChapter ? 4 : 30
            let sentence = "The lamps along the harbour went out one by one while the ferry waited. "
            let repeats = self == .manySmallItems ? 3 : self == .hugeChapter ? 12_000 : 40
            var chapters = (1...count).map { number in
                let body =
                    "<h1>Chapter \(number)</h1>"
                    + ["s1", "s2", "s3"].map { id in
                        "<h2 id=\"\(id)\">Part \(id)</h2><p>\(String(repeating: sentence, count: repeats / 3))</p>"
                    }.joined()
                return EPUBBuilder.Chapter("ch\(number).xhtml", "Chapter \(number)", body)
            }
            var builder = EPUBBuilder(version: self == .ncxWithFragments ? "2.0" : "3.0")
            if self == .coverPageFirst {
                chapters.insert(
                    .init("cover.xhtml", "Cover", "<div><img src=\"cover.png\" alt=\"Cover\"/></div>"), at: 0)
                builder.extraManifest =
                    "<item id=\"cover-img\" href=\"cover.png\" media-type=\"image/png\" properties=\"cover-image\"/>\n"
                builder.extraFiles = [
                    ("OEBPS/cover.png", PNGWriter.rgba(width: 4, height: 6) { _, _ in (200, 60, 60, 255) })
                ]
            }
            builder.chapters = chapters
            builder.tocFragments = ["s1", "s2", "s3"]
            return builder
        }
    }

    private func openView(_ shape: Shape) throws -> ReaderView {
        let book = try shape.builder().open()
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 120, rows: 39)
        return ReaderView(session: session, capabilities: .plain, badge: nil, columns: 120, rows: 40)
    }

    @Test(arguments: Shape.allCases)
    func theFirstFrameConvertsOnlyTheChapterOnScreen(shape: Shape) throws {
        let view = try openView(shape)
        let status = try #require(view.textRows().last)
        #expect(view.session.content.conversionCount <= 2, "converted \(view.session.content.conversionCount) chapters")
        #expect(status.contains(shape == .coverPageFirst ? "Cover" : "Chapter 1"), "\(status)")
        // Turning pages through the first chapters converts nothing else of the book either: the
        // chapters shown, and the one after them made ready.
        var turning = view
        for _ in 0..<3 { _ = turning.handle(.character(" ")) }
        _ = turning.textRows()
        turning.session.preparing?.value
        #expect(turning.session.content.conversionCount <= (shape == .manySmallItems ? 6 : 4))
    }

    /// Opening a book and drawing its first page lays its first chapter out once: the view taking
    /// the screen's size, which the session already had, does not lay the huge chapter out again.
    @Test func theFirstFrameLaysTheChapterOutOnce() throws {
        let view = try openView(.hugeChapter)
        let status = try #require(view.textRows().last)
        #expect(status.contains("Chapter 1"), "\(status)")
        let session = view.session
        let first = try #require(session.book.readingOrder.first)
        let chapterLines = ChapterLayout.make(
            session.content.document(at: first), spineIndex: first, settings: session.layout.settings
        ).lines.count
        #expect(chapterLines > 1_000, "the chapter is big enough to matter")
        #expect(
            session.content.linesLaidOut <= chapterLines,
            "laid out \(session.content.linesLaidOut) lines for a chapter of \(chapterLines)")
    }

    @Test func contentsEntriesInChaptersNotYetConvertedStillLeadToTheirSection() throws {
        var view = try openView(.navWithFragments)
        _ = view.textRows()
        _ = view.handle(.character("t"))
        let before = view.session.content.conversionCount
        #expect(before <= 2, "opening the contents converts no more chapters")
        // The entry “Chapter 20 s3”: its chapter is converted only now, and the view lands on Part s3.
        guard case .contents(_, let items) = view.mode else {
            Issue.record("no contents panel")
            return
        }
        let index = try #require(items.firstIndex { $0.title == "Chapter 20 s3" })
        for _ in 0..<index { _ = view.handle(.down) }
        _ = view.handle(.enter)
        #expect(
            view.textRows().dropLast().contains { $0.contains("Part s3") },
            "the jump found the section, not the chapter's start")
        #expect(view.session.currentChapterTitle()?.hasPrefix("Chapter 20") == true)

        // :goto chapter 12 in an EPUB 2 book whose NCX links into sections.
        var session = try openView(.ncxWithFragments).session
        _ = session.perform(.gotoChapter(12))
        #expect(session.currentChapterTitle() == "Chapter 12")
        #expect(session.topLocator.spineIndex == 11)
    }

    /// On the last screens of a chapter the next one is converted and laid out in the background,
    /// so that turning into it converts nothing then.
    @Test func theNextChapterIsReadyBeforeTheTurnIntoIt() throws {
        var session = try openView(.navWithFragments).session
        #expect(session.preparing == nil, "the first page is far from the chapter's end")
        let first = session.position.spineIndex
        while session.layout.chapter(first).pageCount - 1
            > session.layout.chapter(first).page(atLine: session.position.line)
        {
            session.nextPage()
        }
        let preparing = try #require(session.preparing, "nothing made ready on the chapter's last page")
        preparing.value
        let converted = session.content.conversionCount
        let laidOut = session.content.linesLaidOut
        session.nextPage()
        #expect(session.position.spineIndex == first + 1)
        #expect(session.content.conversionCount == converted, "the next chapter was converted at the turn")
        #expect(session.content.linesLaidOut == laidOut, "the next chapter was laid out at the turn")
        #expect(session.visiblePages()[0].contains { $0.line.text.contains("Chapter 2") })
    }

    /// The background page count and a cold search pass through every chapter without keeping
    /// their converted documents: the chapter being read is still cached afterwards (drawing it
    /// again converts nothing), and the last chapters counted are not held.
    @Test func countingAndSearchingTheWholeBookKeepTheChapterBeingRead() throws {
        let view = try openView(.navWithFragments)
        _ = view.textRows()
        let content = view.session.content
        view.session.layout.computePageCounts()
        _ = content.allPlainTexts()
        let converted = content.conversionCount
        #expect(converted == view.session.book.readingOrder.count, "every chapter converted once")
        let status = try #require(view.textRows().last)
        #expect(status.contains("Chapter 1"), "\(status)")
        _ = content.document(at: view.session.topLocator.spineIndex)
        #expect(content.conversionCount == converted, "the chapter on screen was converted again")
        #expect(content.cachedDocumentCount <= 2, "kept \(content.cachedDocumentCount) converted chapters")
    }
}
