import Foundation
import Testing

@testable import Reader

@Suite struct PositionStoreTests {
    @Test func positionsBookmarksAndHighlightsAreKeptPerBook() {
        let store = InMemoryPositionStore()
        let one: BookID = "epub:one"
        let two: BookID = "epub:two"
        #expect(store.loadPosition(bookID: one) == nil)
        store.savePosition(Locator(spineIndex: 2, offset: 40), percent: 5, bookID: one)
        store.savePosition(Locator(spineIndex: 3, offset: 10), percent: 5, bookID: one)
        #expect(store.loadPosition(bookID: one) == Locator(spineIndex: 3, offset: 10))
        #expect(store.loadPosition(bookID: two) == nil)

        let later = store.addBookmark(Locator(spineIndex: 5, offset: 0), bookID: one)
        store.addBookmark(Locator(spineIndex: 1, offset: 7), bookID: one)
        #expect(store.bookmarks(bookID: one).map(\.locator.spineIndex) == [1, 5])
        store.removeBookmark(id: later.id, bookID: one)
        #expect(store.bookmarks(bookID: one).map(\.locator.spineIndex) == [1])
        #expect(store.bookmarks(bookID: two).isEmpty)

        var highlight = Highlight(
            start: Locator(spineIndex: 1, offset: 5), end: Locator(spineIndex: 1, offset: 20),
            color: .yellow, text: "a marked sentence")
        store.saveHighlight(highlight, bookID: one)
        highlight.color = .green
        highlight.note = "Why?"
        store.saveHighlight(highlight, bookID: one)
        #expect(store.highlights(bookID: one) == [highlight])
        store.removeHighlight(id: highlight.id, bookID: one)
        #expect(store.highlights(bookID: one).isEmpty)
    }

    @Test func settingsPerBookWithAGlobalDefault() {
        let store = InMemoryPositionStore()
        #expect(store.defaultSettings() == nil)
        var night = ReaderPreferences()
        night.theme = .night
        store.saveDefaultSettings(night)
        store.saveSettings(ReaderPreferences(lineSpacing: .double), bookID: "epub:one")
        #expect(store.settings(bookID: "epub:one")?.lineSpacing == .double)
        #expect(store.settings(bookID: "epub:two") == nil)
        #expect(store.defaultSettings()?.theme == .night)
    }

    @Test func paceSamplesPerBookAndForAllBooks() {
        let store = InMemoryPositionStore()
        store.addPaceSample(PaceSample(characters: 1200, seconds: 60), bookID: "epub:one")
        store.addPaceSample(PaceSample(characters: 900, seconds: 30), bookID: "epub:two")
        #expect(store.paceSamples(bookID: "epub:one", limit: 10).map(\.charactersPerSecond) == [20])
        #expect(store.paceSamples(bookID: nil, limit: 10).count == 2)
        #expect(store.paceSamples(bookID: nil, limit: 1).map(\.charactersPerSecond) == [30])
    }

    @Test func preferencesSurviveJSON() throws {
        let preferences = ReaderPreferences(
            margin: 4, lineSpacing: .oneAndHalf, justify: true, maxTextWidth: 60, theme: .sepia,
            brightness: -1, flow: .scroll, twoPage: true)
        let decoded = try JSONDecoder().decode(ReaderPreferences.self, from: JSONEncoder().encode(preferences))
        #expect(decoded == preferences)
    }

    @Test func bookIDsComeFromTheUniqueIdentifierElseTheFile() throws {
        let book = try EPUBBuilder(chapters: [.init("c.xhtml", "C", "<p>Text.</p>")]).open()
        #expect(BookID(book: book).rawValue.hasPrefix("epub:urn:uuid:1234#"))
        #expect(BookID(book: book).rawValue.count == "epub:urn:uuid:1234#".count + 12)
        let bytes = Array("the same bytes".utf8)
        #expect(BookID(fileBytes: bytes) == BookID(fileBytes: bytes))
        #expect(BookID(fileBytes: bytes).rawValue.hasPrefix("sha256:"))
        #expect(BookID(fileBytes: bytes).rawValue.count == 7 + 64)
        #expect(BookID(fileBytes: bytes) != BookID(fileBytes: bytes + [0]))
    }

    @Test("Two different books with one identifier keep their own places; the same book built again keeps its id")
    func booksSharingAnIdentifierStayApart() throws {
        let first = try EPUBBuilder(chapters: [.init("c.xhtml", "C", "<p>Text.</p>")]).open()
        let again = try EPUBBuilder(chapters: [.init("c.xhtml", "C", "<p>Text, watermarked for this loan.</p>")]).open()
        var other = EPUBBuilder(chapters: [.init("a.xhtml", "A", "<p>Another book.</p>")])
        other.title = "Another Book"
        let second = try other.open()
        #expect(BookID(book: first) == BookID(book: again), "a new download of the same book")
        #expect(BookID(book: first) != BookID(book: second), "the same urn:uuid:1234, another book")

        let store = InMemoryPositionStore()
        store.savePosition(Locator(spineIndex: 0, offset: 3), percent: 50, bookID: BookID(book: first))
        #expect(ReaderSession(book: second, store: store, columns: 60, rows: 20).topLocator.offset == 0)
        #expect(store.loadPosition(bookID: BookID(book: first)) == Locator(spineIndex: 0, offset: 3))
    }

    @Test("A place kept under a book's old id (epub:IDENTIFIER) is taken over by the first book to open with it")
    func theOldIdIsAdoptedOnce() throws {
        let book = try EPUBBuilder(chapters: [.init("c.xhtml", "C", "<p>Text.</p>")]).open()
        var other = EPUBBuilder(chapters: [.init("a.xhtml", "A", "<p>Another book.</p>")])
        other.title = "Another Book"
        let stranger = try other.open()
        let store = InMemoryPositionStore()
        let legacy: BookID = "epub:urn:uuid:1234"
        store.savePosition(Locator(spineIndex: 0, offset: 2), percent: 10, bookID: legacy)
        store.addBookmark(Locator(spineIndex: 0, offset: 2), bookID: legacy)
        #expect(BookID.opening(book, in: store) == BookID(book: book))
        #expect(store.loadPosition(bookID: BookID(book: book)) == Locator(spineIndex: 0, offset: 2))
        #expect(store.bookmarks(bookID: BookID(book: book)).count == 1)
        #expect(store.loadPosition(bookID: legacy) == nil)
        _ = BookID.opening(stranger, in: store)
        #expect(store.loadPosition(bookID: BookID(book: stranger)) == nil, "the other book starts afresh")
    }
}
