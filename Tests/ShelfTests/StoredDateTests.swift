import Catalog
import Foundation
import GRDB
import Reader
import Shelf
import Testing

/// The shelf writes and reads its dates itself; shelves GRDB wrote must read the same, and the
/// text must stay GRDB's, so SQL that compares dates keeps working on old and new rows alike.
@Suite("Dates in the shelf")
struct StoredDateTests {
    /// Moments around the edges a formatter gets wrong: before 1970, leap days, the last
    /// millisecond of a day and of a year, and many ordinary ones.
    static let moments: [Date] = {
        var moments = [
            -1, -0.0005, 0, 0.999, 951_782_400, 951_868_799.999, 1_709_164_800.5, 1_735_689_599.999,
            -2_208_988_800.25, 4_102_444_799.999, 1_795_000_000.123,
        ].map { Date(timeIntervalSince1970: $0) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            moments.append(Date(timeIntervalSince1970: Double.random(in: -3e9...5e9, using: &generator)))
        }
        return moments
    }()

    @Test("A date is written as GRDB writes it, to the millisecond")
    func writesGRDBText() {
        for moment in Self.moments {
            #expect(StoredDate(moment).databaseValue == moment.databaseValue, "\(moment.timeIntervalSince1970)")
        }
    }

    @Test("What GRDB wrote reads back as the moment GRDB reads")
    func readsGRDBText() throws {
        for moment in Self.moments {
            let stored = moment.databaseValue
            let ours = try #require(StoredDate.fromDatabaseValue(stored)?.date)
            let grdb = try #require(Date.fromDatabaseValue(stored))
            #expect(abs(ours.timeIntervalSince(grdb)) < 0.000_01, "\(String(describing: stored))")
        }
    }

    @Test(
        "SQLite's other date forms, and text that is no date, read as GRDB reads them",
        arguments: [
            "2026-11-26", "2026-11-26 14:03", "2026-11-26T14:03:05", "2026-11-26 14:03:05.1",
            "2024-02-29 23:59:59.999999", "2026-11-26x", "2024-02-30", "2026-13-01", "2026-11-26 25:00",
            "26-11-2026", "", "2026-11-26 14:03:05.123Z", "2026-11-26 14:03:05+01:00", "soon",
        ])
    func readsOtherForms(_ text: String) {
        let ours = StoredDate.fromDatabaseValue(text.databaseValue)?.date
        let grdb = Date.fromDatabaseValue(text.databaseValue)
        #expect((ours == nil) == (grdb == nil), "\(text)")
        if let ours, let grdb { #expect(abs(ours.timeIntervalSince(grdb)) < 0.001, "\(text)") }
    }

    @Test(
        "Read from SQLite's column, a date and a day are what their database value reads as",
        arguments: [
            "2026-11-26", "2026-11-26 14:03", "2026-11-26T14:03:05", "2026-11-26 14:03:05.123",
            "2024-02-29 23:59:59.999999", "2026-11-26x", "2024-02-30", "2023-02-29", "2026-13-01", "2026-00-10",
            "2026-11-00", "2026-11-32", "+202-11-26", "2026-1-26", "26-11-2026", "", "2026-11-26 14:03:05.123Z",
            "soon",
        ])
    func readsColumns(_ text: String) throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            // fetchOne reads a StatementColumnConvertible value straight from the statement.
            let date = try? StoredDate.fetchOne(db, sql: "SELECT ?", arguments: [text])
            #expect(date?.date == StoredDate.fromDatabaseValue(text.databaseValue)?.date, "\(text)")
            let day = try? DayDate.fetchOne(db, sql: "SELECT ?", arguments: [text])
            #expect(day == DayDate.fromDatabaseValue(text.databaseValue), "\(text)")
            let number = try StoredDate.fetchOne(db, sql: "SELECT 1795000000")
            #expect(number?.date.timeIntervalSince1970 == 1_795_000_000)
        }
    }

    @Test("Numbers are seconds since 1970, as GRDB reads them")
    func readsNumbers() {
        #expect(StoredDate.fromDatabaseValue(1_795_000_000.databaseValue)?.date.timeIntervalSince1970 == 1_795_000_000)
        #expect(StoredDate.fromDatabaseValue(12.5.databaseValue)?.date.timeIntervalSince1970 == 12.5)
    }

    @Test("A place, bookmark and pace sample keep their times through the shelf")
    func roundTripThroughStore() throws {
        let store = ShelfStore(database: try ShelfDatabase.inMemory())
        let when = Date(timeIntervalSince1970: 1_795_000_000.25)
        let book: BookID = "epub:urn:isbn:1"
        try store.savePosition(
            ReadingPosition(
                bookID: book.rawValue, locator: Locator(spineIndex: 1, offset: 2),
                percent: 10, updatedAt: when))
        try store.addPaceSample(PaceSample(characters: 900, seconds: 60, date: when), bookID: book)
        #expect(try store.position(bookID: book.rawValue)?.updatedAt == when)
        #expect(try store.paceSamples(bookID: book, limit: 5).map(\.date) == [when])
        try store.addBookmark(Locator(spineIndex: 1, offset: 2), bookID: book)
        let created = try #require(try store.bookmarks(bookID: book).first?.created)
        #expect(abs(created.timeIntervalSinceNow) < 60)
    }
}
