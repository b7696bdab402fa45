import Dispatch
import Reader
import Synchronization
import Testing

/// `bok read FILE` opens the shelf's database beside the book; what the reader reads and writes
/// through it must be what it would have been had the database been open from the start.
@Suite("A position store opened beside the book")
struct OpeningPositionStoreTests {
    let book: BookID = "epub:urn:isbn:1#aaaaaaaaaaaa"

    @Test("A store known to be empty answers reads without waiting for it to open, and writes reach it")
    func emptyStoreDoesNotWait() throws {
        let backing = InMemoryPositionStore()
        let gate = DispatchSemaphore(value: 0)
        let opened = Mutex(false)
        let store = OpeningPositionStore(startsEmpty: true) {
            _ = gate.wait(timeout: .now() + 30)
            opened.withLock { $0 = true }
            return backing
        }
        #expect(try store.loadPosition(bookID: book) == nil)
        #expect(try store.settings(bookID: book) == nil)
        #expect(try store.defaultSettings() == nil)
        #expect(try store.bookmarks(bookID: book).isEmpty)
        #expect(try store.highlights(bookID: book).isEmpty)
        #expect(try store.paceSamples(bookID: nil, limit: 50).isEmpty)
        try store.adoptLegacy("epub:urn:isbn:1", as: book)
        // The database is still being made: none of that waited for it.
        #expect(!opened.withLock { $0 })
        gate.signal()
        let place = Locator(spineIndex: 3, offset: 120)
        try store.savePosition(place, percent: 12, bookID: book)
        #expect(opened.withLock { $0 })
        #expect(backing.loadPosition(bookID: book) == place)
        // From the first write on, reads are the store's.
        try store.addBookmark(place, bookID: book)
        #expect(try store.loadPosition(bookID: book) == place)
        #expect(try store.bookmarks(bookID: book).map(\.locator) == [place])
    }

    @Test("A store that holds a book's place is read once it has opened")
    func storeWithContentIsRead() throws {
        let backing = InMemoryPositionStore()
        let place = Locator(spineIndex: 2, offset: 40)
        backing.savePosition(place, percent: 5, bookID: book)
        backing.saveSettings(ReaderPreferences(lineSpacing: .double), bookID: book)
        let store = OpeningPositionStore(startsEmpty: false) { backing }
        #expect(try store.loadPosition(bookID: book) == place)
        #expect(try store.settings(bookID: book)?.lineSpacing == .double)
    }

    @Test("An old id's place moves to the new id through a store that was not empty")
    func legacyIsAdopted() throws {
        let backing = InMemoryPositionStore()
        let legacy: BookID = "epub:urn:isbn:1"
        backing.savePosition(Locator(spineIndex: 1, offset: 9), percent: 1, bookID: legacy)
        let store = OpeningPositionStore(startsEmpty: false) { backing }
        try store.adoptLegacy(legacy, as: book)
        #expect(try store.loadPosition(bookID: book) == Locator(spineIndex: 1, offset: 9))
    }
}
