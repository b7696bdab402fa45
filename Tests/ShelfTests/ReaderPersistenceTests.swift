import Catalog
import Foundation
import Reader
import Shelf
import Testing

@testable import MockLending

/// The reader on the shelf's database: what a patron leaves in a book is there next time.
@Suite("Reading state in the shelf's database")
struct ReaderPersistenceTests {
    @Test(
        """
        A book reopens at the page it was left on, with its bookmark, highlight, theme and percent, from a new \
        connection
        """
    )
    func reopens() throws {
        let dir = try TemporaryDirectory()
        let product = try #require(CatalogGenerator(seed: 1, size: 600).generate().products.first)
        let bookFile = dir.url.appendingPathComponent("book.epub")
        try MockBooks.epub(for: product, seed: 1, sample: false).write(to: bookFile)
        let book = try EPUBBook.open(path: bookFile.path)
        let databaseFile = dir.url.appendingPathComponent("shelf.sqlite")

        var left: Locator
        do {
            let store = ShelfStore(database: try ShelfDatabase.open(at: databaseFile))
            try store.recordBookIdentity(productID: product.id, bookID: BookID(book: book))
            var session = ReaderSession(book: book, store: store, columns: 80, rows: 24)
            for _ in 0..<6 { _ = session.nextPage() }
            _ = session.toggleBookmark()
            let target = try #require(session.highlightTargets().first)
            session.addHighlight(target, color: .purple, note: "fint")
            session.updatePreferences { $0.theme = .sepia }
            for _ in 0..<3 { _ = session.nextPage() }
            left = session.anchor
            session.savePosition()
        }

        // Another process, another day: a new connection to the same file.
        let store = ShelfStore(database: try ShelfDatabase.open(at: databaseFile))
        let again = ReaderSession(book: book, store: store, columns: 80, rows: 24)
        #expect(again.anchor == left)
        #expect(again.preferences.theme == .sepia)
        #expect(try store.bookmarks(bookID: BookID(book: book)).count == 1)
        #expect(
            try store.highlights(bookID: BookID(book: book)).first.map { ($0.note, $0.color) }.map {
                $0 == ("fint", .purple)
            } == true)
        // The shelf shows the loan's percent through the product's book id.
        let percent = try #require(try store.position(bookID: BookID(book: book).rawValue)?.percent)
        #expect(percent > 0 && percent < 100)
        try store.addSample(productID: product.id, title: product.title)
        let entry = try store.shelf(today: DayDate(year: 2026, month: 11, day: 21)).entries(.samples).first
        #expect(entry?.percentRead == percent)
    }
}
