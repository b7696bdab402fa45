import Foundation
import Terminal
import Testing

@testable import Reader

/// EPUB CFIs: read in both forms other readers write, written so that they come back to the same
/// words on screen, and a foreign one resolved to the nearest place, never to an error.
struct EPUBCFITests {
    @Test func readsTheStandardFormWithAssertionsAndEscapes() throws {
        let cfi = try #require(EPUBCFI("epubcfi(/6/14[chap^[07^]]!/4[body01]/10[para05]/3:10[yyy,zzz;s=b])"))
        #expect(cfi.form == .standard)
        #expect(cfi.spineIndex == 6)
        #expect(cfi.spineItemID == "chap[07]")
        #expect(cfi.path.map(\.index) == [4, 10, 3])
        #expect(cfi.path.map(\.assertion) == ["body01", "para05", nil])
        #expect(cfi.offset == 10)
        #expect(cfi.string == "epubcfi(/6/14[chap^[07^]]!/4[body01]/10[para05]/3:10)")
    }

    @Test func readsCalibresFormFromTheDocumentNode() throws {
        let cfi = try #require(EPUBCFI("epubcfi(/10/2/4/2[p12]/3:120)"))
        #expect(cfi.form == .calibre)
        #expect(cfi.spineIndex == 4)
        #expect(cfi.path.map(\.index) == [4, 2, 3])
        #expect(cfi.offset == 120)
        #expect(cfi.string == "epubcfi(/10/2/4/2[p12]/3:120)")
        #expect(cfi.inForm(.standard).string == "epubcfi(/6/10!/4/2[p12]/3:120)")
    }

    @Test func readsARangeAsItsStartAndALinkFragment() throws {
        let range = try #require(EPUBCFI("epubcfi(/6/4[c1]!/4/2,/1:5,/3:9)"))
        #expect(range.path.map(\.index) == [4, 2, 1])
        #expect(range.offset == 5)
        let link = try #require(EPUBCFI("book.epub#epubcfi(/6/2!/4/1:0)"))
        #expect(link.spineIndex == 0)
        let spatial = try #require(EPUBCFI("epubcfi(/6/4!/4/2/1:3~2.5@10:20)"))
        #expect(spatial.offset == 3)
    }

    @Test(arguments: [
        "", "epubcfi()", "epubcfi(/6/4!)", "epubcfi(/5/4!/4)", "chapter 3", "epubcfi(/6/4!/4/x)",
        "epubcfi(/6/4!/4/1:9999999999)", "epubcfi(/6/4!/4" + String(repeating: "/2", count: 300) + ")",
    ])
    func refusesWhatIsNotACFI(text: String) {
        #expect(EPUBCFI(text) == nil)
    }

    /// A chapter written as calibre's reader and Thorium see it: ids, inline elements, a head
    /// whose title repeats the heading, text the chapter hides.
    static let book = EPUBBuilder(chapters: [
        .init("one.xhtml", "One", "<p>Opening words.</p>"),
        .init(
            "two.xhtml", "Two",
            """
            <section id="s1">
              <h1>The Second Chapter</h1>
              <p>First paragraph with <em>emphasis</em> and a tail of words.</p>
              <p id="p2" style="text-transform: uppercase">shouted words here</p>
              <p hidden="hidden">Secret text that is never shown.</p>
              <p>Last   paragraph,
                 spread over lines.</p>
            </section>
            """),
    ])

    @Test func aForeignCFILandsOnTheWordsItNames() throws {
        let content = BookContent(book: try Self.book.open())
        let text = content.document(at: 1).plainText
        func words(at cfi: String) throws -> String {
            let parsed = try #require(EPUBCFI(cfi))
            let locator = try #require(content.locator(for: parsed))
            #expect(locator.spineIndex == 1)
            return String(text.utf16.dropFirst(locator.offset).prefix(12)) ?? ""
        }
        // calibre's reader: the tail after <em>, 3 characters in ("a tail…" begins after " and ").
        #expect(try words(at: "epubcfi(/4/2/4/2[s1]/4/3:5)") == "a tail of wo")
        // The same in the standard form, by the itemref's id, with a wrong index beside it.
        #expect(try words(at: "epubcfi(/6/40[c1]!/4/2[s1]/4/3:5)") == "a tail of wo")
        // An id assertion wins over a step that no longer matches (the book changed).
        #expect(try words(at: "epubcfi(/6/4!/4/2/98[p2]/1:8)").lowercased().hasPrefix("words here"))
        // White space the chapter collapsed still counts in the document's offsets.
        #expect(try words(at: "epubcfi(/6/4!/4/2/10/1:20)") == "spread over ")
        // A step past what the document holds: the nearest place, not page one.
        #expect(try words(at: "epubcfi(/6/4!/4/2/40/1:0)").hasPrefix("Last"))
    }

    @Test func aCFIThatDoesNotFitTheBookIsRefused() throws {
        let content = BookContent(book: try Self.book.open())
        for text in ["epubcfi(/6/20!/4/2/1:0)", "epubcfi(/6/4!/12/2/1:0)"] {
            let cfi = try #require(EPUBCFI(text))
            #expect(content.locator(for: cfi) == nil, "\(text)")
        }
    }

    @Test func everyWordOfAChapterComesBack() throws {
        let content = BookContent(book: try Self.book.open())
        let text = Array(content.document(at: 1).plainText.utf16)
        for offset in text.indices where text[offset] != 0x20 && text[offset] != 0x0A {
            for form in [EPUBCFI.Form.standard, .calibre] {
                let cfi = try #require(content.cfi(for: Locator(spineIndex: 1, offset: offset), form: form))
                let parsed = try #require(EPUBCFI(cfi.string))
                let back = try #require(content.locator(for: parsed))
                #expect(back.offset == offset, "\(cfi.string)")
            }
        }
    }
}

@Suite(DebianEPUBs.installed)
struct RealBookCFITests {
    /// Places across books nobody here wrote, at three widths: a place → CFI → place is on the same
    /// page and starts with the same word, and nearly always at the very same character.
    @Test(arguments: DebianEPUBs.present)
    func placesComeBackToTheSameWords(path: String) throws {
        let content = BookContent(book: try EPUBBook.open(path: path))
        var sampled = 0
        var exact = 0
        for width in [37, 80, 133] {
            let layout = BookLayout(content: content, settings: LayoutSettings(width: width, rows: 24, justify: true))
            var position: PagePosition? = PagePosition(spineIndex: content.book.readingOrder[0], page: 0)
            var pageNumber = 0
            while let page = position {
                defer {
                    position = layout.position(after: page)
                    pageNumber += 1
                }
                guard pageNumber % 4 == 0 else { continue }
                for line in layout.lines(at: page).enumerated().filter({ $0.offset % 3 == 0 }).map(\.element)
                where !line.sourceRange.isEmpty {
                    let place = Locator(spineIndex: page.spineIndex, offset: line.sourceRange.lowerBound)
                    let form: EPUBCFI.Form = sampled % 2 == 0 ? .standard : .calibre
                    let cfi = try #require(content.cfi(for: place, form: form))
                    let parsed = try #require(EPUBCFI(cfi.string))
                    let back = try #require(content.locator(for: parsed), "\(cfi.string)")
                    sampled += 1
                    if back == place { exact += 1 }
                    #expect(layout.page(containing: back) == page, "\(cfi.string) at width \(width)")
                    #expect(
                        Self.firstWord(content, back) == Self.firstWord(content, place),
                        "\(cfi.string) at width \(width)")
                }
            }
        }
        #expect(sampled > 150)
        #expect(exact * 100 >= sampled * 98, "\(exact) of \(sampled) places came back to the same character")
    }

    static func firstWord(_ content: BookContent, _ place: Locator) -> String {
        let text = content.document(at: place.spineIndex).plainText.utf16.dropFirst(place.offset).prefix(40)
        return (String(text) ?? "").split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
    }
}

/// A page-list that points by CFI (as W3C's `georgia-cfi` does), and `:goto epubcfi(…)`.
@Suite struct CFINavigationTests {
    static func book() throws -> EPUBBook {
        let sentence = "The lamps along the harbour went out one by one while the ferry waited. "
        var builder = EPUBBuilder(
            chapters: (1...3).map { chapter in
                let body = (1...4).map { part in
                    "<p>Page \((chapter - 1) * 4 + part + 10). \(String(repeating: sentence, count: 30))</p>"
                }.joined()
                return EPUBBuilder.Chapter("ch\(chapter).xhtml", "Chapter \(chapter)", body)
            })
        // The first chapter's pages by a path into the document, the others' through the package.
        let links = (11...22).map { page in
            let chapter = (page - 11) / 4 + 1
            let part = (page - 11) % 4 + 1
            let href =
                chapter == 1
                ? "ch1.xhtml#epubcfi(/4/\(2 * part)/1:0)" : "content.opf#epubcfi(/6/\(2 * chapter)!/4/\(2 * part)/1:0)"
            return "<li><a href=\"\(href)\">\(page)</a></li>"
        }.joined()
        builder.navExtra = "<nav epub:type=\"page-list\"><ol>\(links)</ol></nav>"
        return try builder.open()
    }

    @Test func printPagesByCFIAreShownAndReached() throws {
        let session = ReaderSession(book: try Self.book(), store: InMemoryPositionStore(), columns: 60, rows: 12)
        var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 13)
        #expect(view.textRows().last?.contains("(p. 11)") == true, "\(view.textRows().last ?? "")")
        for page in ["13", "19"] {
            for character in ":goto page \(page)" { _ = view.handle(.character(character)) }
            _ = view.handle(.enter)
            #expect(view.textRows().contains { $0.contains("Page \(page).") }, "the view is at print page \(page)")
            // The top of the screen may still be on the page before (the jump shows the page
            // the print page begins on); the status line names the page the top is on.
            let status = view.textRows().last ?? ""
            #expect(status.contains("(p. \(page))") || status.contains("(p. \(Int(page)! - 1))"), "\(status)")
        }
    }

    @Test func gotoACFIPastedFromAnotherReader() throws {
        let session = ReaderSession(book: try Self.book(), store: InMemoryPositionStore(), columns: 60, rows: 12)
        var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 13)
        // calibre's form, into the third paragraph of the second chapter.
        for character in ":goto epubcfi(/4/2/4/6/1:0)" { _ = view.handle(.character(character)) }
        _ = view.handle(.enter)
        #expect(view.textRows().contains { $0.contains("Page 17.") }, "\(view.textRows())")
        var moved = view.session
        _ = moved.perform(.gotoCFI(try #require(EPUBCFI("epubcfi(/6/40!/4/2/1:0)"))))
        #expect(moved.message == "That place is not in this book: the CFI names a part this book does not have.")
        #expect(
            ReaderCommand.parse("goto epubcfi(/6/4!/4/x)")
                == .failure(
                    ReaderCommandError(
                        "That is not a whole EPUB CFI; paste it as written, like :goto epubcfi(/6/4!/4/2/1:0).")))
    }
}

/// `notes --json` carries each highlight and bookmark with the CFI that finds it elsewhere.
struct NotesExportTests {
    @Test func highlightsAndBookmarksCarryCFIsThatComeBack() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cfi-notes-\(UUID().uuidString).epub")
        try Data(EPUBCFITests.book.build()).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let book = try EPUBBook.open(path: file.path)
        let content = BookContent(book: book)
        let text = content.document(at: 1).plainText
        let store = InMemoryPositionStore()
        let id = BookID.opening(book, in: store)
        let start = (text as NSString).range(of: "a tail").location
        let end = (text as NSString).range(of: "WORDS HERE", options: .caseInsensitive).location + 5
        store.saveHighlight(
            Highlight(
                start: Locator(spineIndex: 1, offset: start), end: Locator(spineIndex: 1, offset: end), color: .green,
                note: "Läs igen", text: "a tail … words"), bookID: id)
        _ = store.addBookmark(Locator(spineIndex: 1, offset: start), bookID: id)

        let export = try ReaderApp.notesExport(bookPath: file.path, store: store)
        let highlight = try #require(export.highlights.first)
        let range = try #require(highlight.cfi)
        // The common parent (the section), then each end's own steps: into two paragraphs.
        #expect(range == "epubcfi(/6/4[c1]!/4/2[s1],/4/3:5,/6[p2]/1:13)", "\(range)")
        let parsed = try #require(EPUBCFI(range))
        #expect(content.locator(for: parsed)?.offset == start, "a range is read as its start")
        #expect(highlight.note == "Läs igen" && highlight.colour == "green")
        let mark = try #require(export.bookmarks.first?.cfi)
        let markCFI = try #require(EPUBCFI(mark))
        #expect(content.locator(for: markCFI)?.offset == start)
    }
}
