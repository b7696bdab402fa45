import Catalog
import Foundation
import ReadingState
import Testing

@testable import Shelf

/// The places waiting for a sync server: one a book (the newest), kept until the server has it,
/// and a newer one made while an older was being sent is not lost when the older is marked sent.
struct ReadingSyncQueueTests {
    let store: ShelfStore
    let link = CalibreBookLink(
        server: URL(string: "http://127.0.0.1:8080")!, library: "Calibre_Library", bookID: 3, format: "epub")

    init() throws { store = ShelfStore(database: try ShelfDatabase.inMemory()) }

    @Test func theNewestPlaceOfABookWaitsUntilSent() throws {
        #expect(try store.syncLink(of: "book-a") == nil)
        try store.linkForSync("book-a", to: link)
        #expect(try store.syncLink(of: "book-a") == link)
        #expect(link.format == "EPUB")

        let early = PendingPositionRecord(
            bookID: "book-a", cfi: "epubcfi(/2/2/4/2/1:0)", fraction: 0.1, madeAt: Date(timeIntervalSince1970: 1000))
        let later = PendingPositionRecord(
            bookID: "book-a", cfi: "epubcfi(/4/2/4/2/1:0)", fraction: 0.3, madeAt: Date(timeIntervalSince1970: 2000))
        try store.queuePosition(early)
        try store.queuePosition(later)
        #expect(try store.pendingPositions().map(\.position) == [later])
        #expect(try store.syncCounts() == (books: 1, loans: 0, waiting: 1))

        // The older one comes back from the server after the newer was made: the newer stays.
        try store.positionSent(early)
        #expect(try store.pendingPositions().map(\.position) == [later])
        try store.positionSent(later)
        #expect(try store.pendingPositions().isEmpty)
    }

    @Test func aPlaceOfABookWithNoServerIsNotSentAnywhere() throws {
        try store.linkForSync("book-a", to: link)
        try store.queuePosition(
            PendingPositionRecord(bookID: "book-a", cfi: "epubcfi(/2/2/4/2/1:0)", fraction: 0.1, madeAt: Date()))
        #expect(
            throws: (any Error).self,
            "a place of a book with no link is refused by the database"
        ) {
            try store.queuePosition(
                PendingPositionRecord(bookID: "book-b", cfi: "epubcfi(/2/2)", fraction: 0, madeAt: Date()))
        }
        #expect(try store.pendingPositions().count == 1)
    }
}
