import Catalog
import Foundation
import GRDB
import ReadingState
import Testing

@testable import Shelf

/// Bookmark and highlight changes of a synced book wait on the shelf, committed with the change,
/// until the server has them; a deletion leaves a tombstone; the server's changes settle them.
struct AnnotationSyncQueueTests {
    let store: ShelfStore
    let link = CalibreBookLink(
        server: URL(string: "http://127.0.0.1:8080")!, library: "Calibre_Library", bookID: 3, format: "EPUB")

    init() throws { store = ShelfStore(database: try ShelfDatabase.inMemory()) }

    @Test("A server naming a highlight by another book's id moves nothing out of that book")
    func anotherBooksIDIsNotTaken() throws {
        let place = Locator(spineIndex: 0, offset: 10, snippet: "Det var")
        let mine = Highlight(start: place, end: Locator(spineIndex: 0, offset: 20), color: .green, text: "Det var")
        try store.saveHighlight(mine, bookID: "book-other")
        try store.linkForSync("book-a", to: link)
        try store.applySynced(
            [
                .highlight(
                    mine, key: mine.id.uuidString, startCFI: "epubcfi(/2/2/4/2/1:10)",
                    endCFI: "epubcfi(/2/2/4/2/1:20)", time: Date())
            ], to: "book-a")
        #expect(try store.highlights(bookID: "book-other").map(\.id) == [mine.id], "still in its own book")
        let synced = try store.localAnnotations(of: "book-a").filter { !$0.removed }
        #expect(synced.map(\.key) == [mine.id.uuidString], "known here by the server's name for it")
        #expect(synced.first?.uuid != mine.id.uuidString, "with an id of its own")
    }

    @Test func changesWaitDeletionsLeaveTombstonesAndUnsyncedBooksQueueNothing() throws {
        let place = Locator(spineIndex: 0, offset: 10, snippet: "Det var en kall vinter")
        try store.addBookmark(place, bookID: "loose")
        #expect(try store.pendingAnnotationCount() == 0, "a book that does not sync queues nothing")

        try store.linkForSync("book-a", to: link)
        let mark = try store.addBookmark(place, bookID: "book-a")
        let highlight = Highlight(
            start: place, end: Locator(spineIndex: 0, offset: 20), color: .green, text: "kall vinter")
        try store.saveHighlight(highlight, bookID: "book-a")
        #expect(try store.pendingAnnotationCount(of: "book-a") == 2)
        let local = try store.localAnnotations(of: "book-a")
        #expect(Set(local.map(\.key)) == ["Det var en kall vinter", highlight.id.uuidString])

        // A second bookmark at the same place replaces the first: the first's deletion waits too.
        try store.removeBookmark(id: mark.id, bookID: "book-a")
        try store.removeHighlight(id: highlight.id, bookID: "book-a")
        let gone = try store.localAnnotations(of: "book-a")
        #expect(gone.allSatisfy(\.removed) && gone.count == 2, "\(gone)")
        let waiting = try store.pendingAnnotations(of: "book-a")
        #expect(waiting.count == 2)

        // The server's newer change of the highlight settles it; the bookmark's deletion still waits.
        try store.applySynced(
            [
                .highlight(
                    highlight, key: highlight.id.uuidString, startCFI: "epubcfi(/2/2/4/2/1:10)",
                    endCFI: "epubcfi(/2/2/4/2/1:20)", time: Date())
            ], to: "book-a")
        #expect(try store.highlights(bookID: "book-a").map(\.id) == [highlight.id])
        #expect(try store.pendingAnnotations(of: "book-a").map(\.kind) == ["bookmark"])
        try store.annotationsSent(try store.pendingAnnotations(of: "book-a"))
        #expect(try store.pendingAnnotationCount() == 0)
    }

    @Test func bookmarksGetTitlesCalibreCanTellApart() {
        #expect(ShelfStore.bookmarkTitle("  Det var\n en  kall ") == "Det var en kall")
        #expect(ShelfStore.uniqueTitle("A", among: ["A", "A (2)"]) == "A (3)")
        #expect(ShelfStore.bookmarkTitle("") == "bok")
    }

    @Test("A v6 shelf moves to v7 with its bookmarks kept, each titled apart, and highlights unchanged")
    func migratesFromV6() throws {
        let queue = try DatabaseQueue(configuration: ShelfDatabase.configuration())
        try ShelfDatabase.migrator.migrate(queue, upTo: "v6")
        let first = UUID().uuidString
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO bookmark (uuid, bookID, spineIndex, "offset", snippet, createdAt)
                        VALUES (?, 'b', 2, 40, 'Det var en afton', '2026-11-20 10:00:00.000'),
                               (?, 'b', 3, 0, 'Det var en afton', '2026-11-21 10:00:00.000'),
                               (?, 'c', 0, 0, '', '2026-11-21 10:00:00.000');
                    """, arguments: [first, UUID().uuidString, UUID().uuidString])
        }
        let store = ShelfStore(database: try ShelfDatabase(queue))
        #expect(try store.bookmarks(bookID: "b").map(\.id.uuidString).first == first)
        let titles = try store.localAnnotations(of: "b").map(\.key).sorted()
        #expect(titles == ["Det var en afton", "Det var en afton (2)"])
        #expect(try store.localAnnotations(of: "c").map(\.key) == ["bok"])
        // Bookmarks at one place from two devices may now stand side by side.
        try store.applySynced(
            [
                .bookmark(
                    key: "Från telefonen", uuid: UUID().uuidString, at: Locator(spineIndex: 2, offset: 40),
                    cfi: "epubcfi(/6/2)", time: Date())
            ], to: "b")
        #expect(try store.bookmarks(bookID: "b").count == 3)
    }
}
