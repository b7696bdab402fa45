import Foundation
import GRDB
import Reader
import Shelf
import Testing

@Suite("Positions, bookmarks, highlights and lists")
struct AnnotationAndListTests {
    let store: ShelfStore
    init() throws { store = ShelfStore(database: try ShelfDatabase.inMemory()) }

    @Test("Readying the reader's reads beside the book reads only: nothing on the shelf changes")
    func preparingReadsWritesNothing() throws {
        let book: BookID = "epub:urn:isbn:1#aaaaaaaaaaaa"
        try store.savePosition(Locator(spineIndex: 2, offset: 7), percent: 40, bookID: book)
        try store.addBookmark(Locator(spineIndex: 1, offset: 0), bookID: book)
        store.prepareReaderReads()
        #expect(try store.loadPosition(bookID: book) == Locator(spineIndex: 2, offset: 7))
        #expect(try store.bookmarks(bookID: book).count == 1)
        #expect(try store.loadPosition(bookID: "-") == nil)
        #expect(try store.loadPosition(bookID: "") == nil)
    }

    @Test(
        "A book's old id (epub:IDENTIFIER) hands its place, notes, settings and product over once, to an id with none")
    func legacyIdIsAdopted() throws {
        let legacy: BookID = "epub:urn:isbn:1"
        let new: BookID = "epub:urn:isbn:1#aaaaaaaaaaaa"
        let other: BookID = "epub:urn:isbn:1#bbbbbbbbbbbb"
        try store.savePosition(Locator(spineIndex: 2, offset: 7), percent: 40, bookID: legacy)
        try store.addBookmark(Locator(spineIndex: 1, offset: 0), bookID: legacy)
        try store.saveSettings(ReaderPreferences(lineSpacing: .double), bookID: legacy)
        try store.recordBookIdentity(productID: "p1", bookID: legacy)
        try store.adoptLegacy(legacy, as: new)
        #expect(try store.loadPosition(bookID: new) == Locator(spineIndex: 2, offset: 7))
        #expect(try store.bookmarks(bookID: new).count == 1)
        #expect(try store.settings(bookID: new)?.lineSpacing == .double)
        #expect(try store.bookIdentity(productID: "p1") == new)
        #expect(try store.loadPosition(bookID: legacy) == nil)
        // A second book with the same identifier finds nothing left to take.
        try store.adoptLegacy(legacy, as: other)
        #expect(try store.loadPosition(bookID: other) == nil)
        // An id that already has a place of its own keeps it.
        try store.savePosition(Locator(spineIndex: 0, offset: 1), percent: 1, bookID: legacy)
        try store.adoptLegacy(legacy, as: new)
        #expect(try store.loadPosition(bookID: new) == Locator(spineIndex: 2, offset: 7))
    }

    @Test("A position is replaced, not added, and comes back as saved")
    func positions() throws {
        #expect(try store.position(bookID: "b") == nil)
        try store.savePosition(
            ReadingPosition(bookID: "b", locator: Locator(spineIndex: 1, offset: 2, snippet: "ett"), percent: 3))
        try store.savePosition(
            ReadingPosition(bookID: "b", locator: Locator(spineIndex: 4, offset: 5, snippet: "fyra"), percent: 60))
        let position = try #require(try store.position(bookID: "b"))
        #expect(position.locator == Locator(spineIndex: 4, offset: 5, snippet: "fyra"))
        #expect(position.percent == 60)
        // The schema refuses nonsense rather than storing it.
        #expect(throws: DatabaseError.self) {
            try store.savePosition(
                ReadingPosition(bookID: "b", locator: Locator(spineIndex: -1, offset: 0), percent: 10))
        }
        #expect(throws: DatabaseError.self) {
            try store.savePosition(
                ReadingPosition(bookID: "b", locator: Locator(spineIndex: 0, offset: 0), percent: 101))
        }
    }

    @Test("Bookmarks: add in any order, read in reading order, one per place, remove by id")
    func bookmarks() throws {
        let later = try store.addBookmark(Locator(spineIndex: 5, offset: 0, snippet: "sen"), bookID: "b")
        let earlier = try store.addBookmark(Locator(spineIndex: 2, offset: 40, snippet: "tidig"), bookID: "b")
        try store.addBookmark(Locator(spineIndex: 0, offset: 0), bookID: "other")
        #expect(try store.bookmarks(bookID: "b").map(\.locator.snippet) == ["tidig", "sen"])
        let again = try store.addBookmark(Locator(spineIndex: 2, offset: 40, snippet: "igen"), bookID: "b")
        #expect(try store.bookmarks(bookID: "b").map(\.locator.snippet) == ["igen", "sen"])
        #expect(try store.bookmarks(bookID: "b").first?.id == again.id)
        try store.removeBookmark(id: earlier.id, bookID: "b")  // replaced already: nothing happens
        try store.removeBookmark(id: later.id, bookID: "b")
        #expect(try store.bookmarks(bookID: "b").map(\.id) == [again.id])
        #expect(try store.bookmarks(bookID: "other").count == 1)
    }

    @Test("Highlights: saved again with a new colour and note, a backwards range is refused, remove")
    func highlights() throws {
        var highlight = Highlight(
            start: Locator(spineIndex: 1, offset: 10, snippet: "från"),
            end: Locator(spineIndex: 2, offset: 3, snippet: "till"),
            color: .yellow, text: "från här till där")
        try store.saveHighlight(highlight, bookID: "b")
        highlight.color = .purple
        highlight.note = "Så sant."
        try store.saveHighlight(highlight, bookID: "b")
        let stored = try store.highlights(bookID: "b")
        #expect(stored.count == 1)
        #expect(
            stored.first?.color == .purple && stored.first?.note == "Så sant."
                && stored.first?.text == "från här till där")
        #expect(stored.first?.start == Locator(spineIndex: 1, offset: 10) && stored.first?.end.snippet == "till")
        #expect(throws: DatabaseError.self) {
            try store.saveHighlight(
                Highlight(
                    start: Locator(spineIndex: 3, offset: 0), end: Locator(spineIndex: 2, offset: 0),
                    color: .green, text: "x"), bookID: "b")
        }
        try store.removeHighlight(id: highlight.id, bookID: "b")
        #expect(try store.highlights(bookID: "b").isEmpty)
    }

    @Test("Words looked up: one row a word, counted, with the newest meaning and place; each book its own list")
    func lookedUpWords() throws {
        let book: BookID = "epub:urn:isbn:2#aaaaaaaaaaaa"
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try store.addLookedUpWord(
            LookedUpWord(
                word: "huset", found: "hus", meaning: "house", dictionary: "fd-swe-eng",
                locator: Locator(spineIndex: 1, offset: 5), at: start), bookID: book)
        try store.addLookedUpWord(
            LookedUpWord(
                word: "läsa", found: "läsa", meaning: "read", dictionary: "fd-swe-eng", locator: nil, at: start + 60),
            bookID: book)
        try store.addLookedUpWord(
            LookedUpWord(
                word: "huset", found: "hus", meaning: "house, building", dictionary: "fd-swe-eng",
                locator: Locator(spineIndex: 3, offset: 9), at: start + 120), bookID: book)
        let words = try store.lookedUpWords(bookID: book)
        #expect(words.map(\.word) == ["huset", "läsa"])
        #expect(words[0].times == 2 && words[0].meaning == "house, building")
        #expect(words[0].locator?.spineIndex == 3 && words[0].first == start && words[0].last == start + 120)
        #expect(words[1].locator == nil && words[1].times == 1)
        #expect(try store.lookedUpWords(bookID: "epub:other").isEmpty)
    }

    @Test("Reader settings and pace survive in the database; unreadable settings fall back to the defaults")
    func settingsAndPace() throws {
        #expect(try store.settings(bookID: "b") == nil && store.defaultSettings() == nil)
        var preferences = ReaderPreferences()
        preferences.theme = .night
        preferences.maxTextWidth = 60
        try store.saveSettings(preferences, bookID: "b")
        try store.saveDefaultSettings(ReaderPreferences(theme: .sepia))
        #expect(try store.settings(bookID: "b") == preferences)
        #expect(try store.defaultSettings()?.theme == .sepia)
        try store.setBookSettings(bookID: "c", json: #"{"fontScale":1.2}"#)
        #expect(try store.settings(bookID: "c") == nil)

        for n in 1...5 {
            try store.addPaceSample(
                PaceSample(characters: n * 100, seconds: 10), bookID: n.isMultiple(of: 2) ? "b" : "c")
        }
        #expect(try store.paceSamples(bookID: "b", limit: 10).map(\.characters) == [200, 400])
        #expect(try store.paceSamples(bookID: nil, limit: 3).map(\.characters) == [300, 400, 500])
    }

    @Test("Samples, to-be-read, downloads and settings")
    func lists() throws {
        try store.addSample(productID: "s", title: "Prov", authors: "A", path: "/tmp/s.epub")
        #expect(try store.samples().map(\.path) == ["/tmp/s.epub"])
        #expect(try store.removeSample(productID: "s"))
        #expect(try !store.removeSample(productID: "s"))

        try store.addToBeRead(productID: "a", title: "A")
        try store.addToBeRead(productID: "b", title: "B")
        #expect(try store.removeToBeRead(productID: "a"))
        try store.addToBeRead(productID: "a", title: "A")
        #expect(try store.toBeRead().map(\.productID) == ["b", "a"])

        let download = DownloadRecord(
            productID: "p", loanID: "L", path: "/data/p.epub", size: 10,
            sha256: String(repeating: "0", count: 64), downloadedAt: Date())
        try store.recordDownload(download)
        #expect(try store.download(productID: "p")?.path == "/data/p.epub")
        #expect(throws: DatabaseError.self) {
            try store.recordDownload(
                DownloadRecord(productID: "q", path: "/data/q.epub", size: 1, sha256: "short", downloadedAt: Date()))
        }
        #expect(try store.removeDownload(productID: "p"))
        #expect(try store.download(productID: "p") == nil)

        try store.setSetting("sort", to: "title")
        try store.setSetting("sort", to: "days")
        #expect(try store.setting("sort") == "days")
        try store.setBookSettings(bookID: "b", json: #"{"fontScale":1.2}"#)
        #expect(try store.bookSettings(bookID: "b") == #"{"fontScale":1.2}"#)
        #expect(throws: DatabaseError.self) { try store.setBookSettings(bookID: "b", json: "not json") }
    }

    @Test("A profile is saved once per library and never holds the service key")
    func profiles() throws {
        let first = try store.saveLibrary(name: "Bibblan", baseURL: "https://elib.example/v1", serviceID: "7")
        let renamed = try store.saveLibrary(
            name: "Stadsbiblioteket", baseURL: "https://elib.example/v1", serviceID: "7")
        #expect(first.id == renamed.id)
        #expect(try store.libraries().map(\.name) == ["Stadsbiblioteket"])
        let columns = try store.database.writer.read { db in try db.columns(in: "libraryProfile").map(\.name) }
        #expect(!columns.contains { $0.lowercased().contains("key") || $0.lowercased().contains("secret") })
    }
}
