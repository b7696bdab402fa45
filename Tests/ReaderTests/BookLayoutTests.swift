import Testing

@testable import Reader

@Suite struct BookLayoutTests {
    static func novel(chapters: Int, paragraphs: Int) -> EPUBBuilder {
        let list = (1...chapters).map { number in
            EPUBBuilder.Chapter(
                "ch\(number).xhtml", "Chapter \(number)",
                "<h1>Chapter \(number)</h1>"
                    + (1...paragraphs).map {
                        """
                        <p>In chapter \(number), paragraph \($0) tells of the <em>long</em> road north, and the \
                        rain that followed.</p>
                        """
                    }.joined())
        }
        return EPUBBuilder(chapters: list)
    }

    @Test func firstPageLaysOutOnlyTheCurrentChapter() throws {
        let book = try Self.novel(chapters: 5, paragraphs: 30).open()
        let layout = BookLayout(content: BookContent(book: book), settings: LayoutSettings(width: 60, rows: 20))
        let first = layout.lines(at: PagePosition(spineIndex: 0, page: 0))
        #expect(first.first?.text == "Chapter 1")
        #expect(layout.knownPageCount(ofSpineItem: 0) != nil)
        #expect(layout.knownPageCount(ofSpineItem: 1) == nil)
        #expect(layout.pageNumber(of: PagePosition(spineIndex: 0, page: 0)) == nil)
        layout.computePageCounts()
        let numbered = try #require(layout.pageNumber(of: PagePosition(spineIndex: 1, page: 0)))
        #expect(numbered.page == layout.chapter(0).pageCount + 1)
    }

    @Test func pageTurnsCrossChaptersAndSkipNonLinearItems() throws {
        var builder = Self.novel(chapters: 3, paragraphs: 3)
        builder.chapters.insert(.init("notes.xhtml", "Notes", "<p>Notes here.</p>", linear: false), at: 1)
        let book = try builder.open()
        let layout = BookLayout(content: BookContent(book: book), settings: LayoutSettings(width: 80, rows: 100))
        var position = PagePosition(spineIndex: 0, page: 0)
        var visited = [position.spineIndex]
        while let next = layout.position(after: position) {
            position = next
            visited.append(next.spineIndex)
        }
        #expect(visited == [0, 2, 3])
        #expect(layout.position(before: PagePosition(spineIndex: 2, page: 0)) == PagePosition(spineIndex: 0, page: 0))
    }

    @Test func locatorSurvivesWidthChange() throws {
        let book = try Self.novel(chapters: 2, paragraphs: 80).open()
        let content = BookContent(book: book)
        let wide = BookLayout(content: content, settings: LayoutSettings(width: 120, rows: 40))
        let position = PagePosition(spineIndex: 1, page: 2)
        #expect(wide.chapter(1).pageCount > 2)
        let locator = wide.locator(atPageStart: position)
        #expect(locator.snippet?.isEmpty == false)
        let narrow = wide.with(settings: LayoutSettings(width: 40, rows: 20))
        let page = narrow.page(containing: locator)
        let lines = narrow.lines(at: page)
        let first = try #require(lines.first?.sourceRange.lowerBound)
        let last = try #require(lines.last?.sourceRange.upperBound)
        #expect(first <= locator.offset && locator.offset <= last)
        // And back: the wide page that contains the narrow page's start is the same or the one before.
        let back = wide.page(containing: narrow.locator(atPageStart: page))
        #expect(
            back == position || back.page == position.page - 1,
            "\(back) \(locator) \(narrow.locator(atPageStart: page)) \(page)")
    }

    @Test func searchFindsHitsAsLocators() throws {
        let book = try Self.novel(chapters: 3, paragraphs: 5).open()
        let content = BookContent(book: book)
        let hits = try content.search("ROAD north")
        #expect(hits.count == 15)
        let hit = try #require(hits.first)
        #expect(hit.context[hit.matchInContext] == "road north")
        #expect(
            content.plainText(at: hit.locator.spineIndex).utf16.dropFirst(hit.locator.offset).starts(
                with: "road north".utf16))
        #expect(try content.search("road north", caseSensitive: true).count == 15)
        #expect(try content.search("ROAD", caseSensitive: true).isEmpty)
        #expect(try content.search("chapter [23],", literal: false).count == 10)
        #expect(try content.search("(", literal: true).isEmpty)
        let error = #expect(throws: ReaderError.self) { try content.search("(") }
        #expect(error?.kind == .invalidSearch)
    }

    @Test func searchFindsEveryHitInALargeBook() throws {
        // About 3.5 MB of text in 60 chapters.
        let paragraph = String(
            repeating: "The quick brown fox jumps over the lazy dog while rain falls on the old town. ", count: 6)
        let chapter = String(repeating: paragraph + "\n", count: 126)
        let texts = Array(repeating: chapter, count: 60)
        #expect(texts.reduce(0) { $0 + $1.utf8.count } > 3_400_000)
        // Speed is measured by the reader benchmark, not here: timed unit tests flake on shared machines.
        let hits = try BookSearch.search("lazy cat|old town", in: texts, limit: 100_000)
        #expect(hits.count == 60 * 126 * 6)
    }

    @Test func theCoverComesFirstWhenTheFirstChapterDoesNotShowIt() throws {
        var builder = Self.novel(chapters: 2, paragraphs: 3)
        builder.extraManifest =
            "<item id=\"cov\" href=\"cover.png\" media-type=\"image/png\" properties=\"cover-image\"/>\n"
        builder.extraFiles = [("OEBPS/cover.png", PNGWriter.rgba(width: 60, height: 90) { _, _ in (10, 20, 30, 255) })]
        let content = BookContent(book: try builder.open())
        let first = content.document(at: 0)
        guard case .image(let image) = first.blocks.first?.kind else {
            Issue.record("no cover block")
            return
        }
        #expect(image.path == "OEBPS/cover.png")
        let plain = try builder.open().document(at: 0).plainText
        #expect(first.plainText == plain)  // offsets do not move
        #expect(content.imageSize(at: "OEBPS/cover.png").map { [$0.width, $0.height] } == [60, 90])
        // Other chapters are as they were.
        if case .image = content.document(at: 1).blocks.first?.kind { Issue.record("cover in chapter 2") }
    }
}
