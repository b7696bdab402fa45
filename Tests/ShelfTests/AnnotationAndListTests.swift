import Foundation
import GRDB
import Shelf
import Testing

@Suite("Positions, bookmarks, highlights and lists")
struct AnnotationAndListTests {
    let store: ShelfStore
    init() throws { store = ShelfStore(database: try ShelfDatabase.inMemory()) }

    @Test("A position is replaced, not added, and comes back as saved")
    func positions() throws {
        #expect(try store.position(bookID: "b") == nil)
        try store.savePosition(ReadingPosition(bookID: "b", locator: Locator(spineIndex: 1, offset: 2, snippet: "ett"), percent: 3))
        try store.savePosition(ReadingPosition(bookID: "b", locator: Locator(spineIndex: 4, offset: 5, snippet: "fyra"), percent: 60))
        let position = try #require(try store.position(bookID: "b"))
        #expect(position.locator == Locator(spineIndex: 4, offset: 5, snippet: "fyra"))
        #expect(position.percent == 60)
        // The schema refuses nonsense rather than storing it.
        #expect(throws: DatabaseError.self) {
            try store.savePosition(ReadingPosition(bookID: "b", locator: Locator(spineIndex: -1, offset: 0), percent: 10))
        }
        #expect(throws: DatabaseError.self) {
            try store.savePosition(ReadingPosition(bookID: "b", locator: Locator(spineIndex: 0, offset: 0), percent: 101))
        }
    }

    @Test("Bookmarks: add in any order, read in reading order, one per place, note, remove")
    func bookmarks() throws {
        let later = try store.addBookmark(Bookmark(bookID: "b", locator: Locator(spineIndex: 5, offset: 0, snippet: "sen")))
        let earlier = try store.addBookmark(Bookmark(bookID: "b", locator: Locator(spineIndex: 2, offset: 40, snippet: "tidig")))
        try store.addBookmark(Bookmark(bookID: "other", locator: Locator(spineIndex: 0, offset: 0)))
        #expect(try store.bookmarks(bookID: "b").map(\.snippet) == ["tidig", "sen"])
        let again = try store.addBookmark(Bookmark(bookID: "b", locator: Locator(spineIndex: 2, offset: 40, snippet: "igen")))
        #expect(try store.bookmarks(bookID: "b").map(\.snippet) == ["igen", "sen"])
        #expect(try store.setBookmarkNote(id: try #require(again.id), note: "viktigt"))
        #expect(try store.bookmarks(bookID: "b").first?.note == "viktigt")
        #expect(try !store.removeBookmark(id: try #require(earlier.id)))  // replaced already
        #expect(try store.removeBookmark(id: try #require(later.id)))
        #expect(try store.bookmarks(bookID: "b").count == 1)
    }

    @Test("Highlights: colour and note change, a backwards range is refused, remove")
    func highlights() throws {
        var highlight = try store.addHighlight(Highlight(
            bookID: "b", start: Locator(spineIndex: 1, offset: 10, snippet: "från"), end: Locator(spineIndex: 2, offset: 3, snippet: "till")))
        #expect(highlight.colour == .yellow)
        highlight.colour = .pink
        highlight.note = "Så sant."
        #expect(try store.updateHighlight(highlight))
        let stored = try #require(try store.highlights(bookID: "b").first)
        #expect(stored.colour == .pink && stored.note == "Så sant.")
        #expect(stored.start == Locator(spineIndex: 1, offset: 10, snippet: "från"))
        #expect(stored.end == Locator(spineIndex: 2, offset: 3, snippet: "till"))
        #expect(throws: DatabaseError.self) {
            try store.addHighlight(Highlight(bookID: "b", start: Locator(spineIndex: 3, offset: 0), end: Locator(spineIndex: 2, offset: 0)))
        }
        #expect(try store.removeHighlight(id: try #require(highlight.id)))
        #expect(try !store.updateHighlight(highlight))
        #expect(try store.highlights(bookID: "b").isEmpty)
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

        let download = DownloadRecord(productID: "p", loanID: "L", path: "/data/p.epub", size: 10,
                                      sha256: String(repeating: "0", count: 64), downloadedAt: Date())
        try store.recordDownload(download)
        #expect(try store.download(productID: "p")?.path == "/data/p.epub")
        #expect(throws: DatabaseError.self) {
            try store.recordDownload(DownloadRecord(productID: "q", path: "/data/q.epub", size: 1, sha256: "short", downloadedAt: Date()))
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
        let first = try store.saveProfile(name: "Bibblan", baseURL: "https://elib.example/v1", serviceID: "7")
        let renamed = try store.saveProfile(name: "Stadsbiblioteket", baseURL: "https://elib.example/v1", serviceID: "7")
        #expect(first.id == renamed.id)
        #expect(try store.profiles().map(\.name) == ["Stadsbiblioteket"])
        let columns = try store.database.writer.read { db in try db.columns(in: "libraryProfile").map(\.name) }
        #expect(!columns.contains { $0.lowercased().contains("key") || $0.lowercased().contains("secret") })
    }
}
