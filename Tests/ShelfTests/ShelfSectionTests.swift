import Catalog
import Foundation
import GRDB
import Shelf
import Testing

@testable import Reader

@Suite("Shelf sections, badges and order")
struct ShelfSectionTests {
    let utc = TimeZone(identifier: "UTC")!
    let synced = DayDate(year: 2026, month: 12, day: 1).startDate(in: TimeZone(identifier: "UTC")!)

    /// A store with loans expiring on the given days (titles as given), written as a sync would.
    func store(loans: [(String, String, DayDate)], reservations: [ReservationRecord] = []) throws -> ShelfStore {
        let store = ShelfStore(database: try ShelfDatabase.inMemory())
        let profile = try store.saveLibrary(name: "Bib", baseURL: "https://x", serviceID: "1")
        try store.database.writer.write { db in
            for (index, (title, author, expiry)) in loans.enumerated() {
                try LoanRecord(
                    libraryProfile: profile.id!, loanID: "L\(index)", productID: "p\(index)", title: title,
                    authors: author, expiryDate: expiry, createdDate: synced.addingTimeInterval(Double(index) * 60),
                    syncedAt: synced
                ).insert(db)
            }
            for var reservation in reservations {
                reservation.libraryProfile = profile.id!
                try reservation.insert(db)
            }
        }
        return store
    }

    @Test(
        "Badges on each side of midnight",
        arguments: [
            (DayDate(year: 2026, month: 12, day: 30), Shelf.SectionKind.loans, Badge.fewDaysLeft(1)),
            (DayDate(year: 2026, month: 12, day: 31), .loans, .lastDay),
            (DayDate(year: 2027, month: 1, day: 1), .ended, .ended),
        ])
    func midnight(today: DayDate, section: Shelf.SectionKind, badge: Badge) throws {
        let store = try store(loans: [("Nyårsboken", "Eva Ek", DayDate(year: 2026, month: 12, day: 31))])
        let shelf = try store.shelf(today: today)
        #expect(shelf.sections.map(\.kind) == [section])
        #expect(shelf.entries(section).first?.badge == badge)
    }

    @Test("An ended loan leaves the Ended section after the window")
    func endedWindow() throws {
        let expiry = DayDate(year: 2026, month: 12, day: 1)
        let store = try store(loans: [("Gammal", "A", expiry)])
        #expect(try store.shelf(today: expiry.adding(days: 31)).entries(.ended).count == 1)
        #expect(try store.shelf(today: expiry.adding(days: 32)).isEmpty)
    }

    @Test("Every section with its badge, downloads and reading progress")
    func allSections() throws {
        let today = DayDate(year: 2026, month: 12, day: 5)
        let store = try store(
            loans: [("Lånad", "A", today.adding(days: 14))],
            reservations: [
                ReservationRecord(
                    libraryProfile: 0, reservationID: "R1", productID: "q1", title: "Köad", queuePosition: 3,
                    estimatedDate: DayDate(year: 2027, month: 1, day: 9), syncedAt: synced),
                ReservationRecord(
                    libraryProfile: 0, reservationID: "R2", productID: "q2", title: "Redo", queuePosition: 1,
                    ready: true, readyUntil: today.adding(days: 2), syncedAt: synced),
                ReservationRecord(
                    libraryProfile: 0, reservationID: "R3", productID: "q3", title: "Förfallen", queuePosition: 1,
                    ready: true, readyUntil: today.adding(days: -1), syncedAt: synced),
            ])
        try store.addSample(productID: "s1", title: "Smakprov", authors: "B", now: synced)
        try store.addToBeRead(productID: "t2", title: "Sedan", now: synced)
        try store.addToBeRead(productID: "t1", title: "Först", now: synced)
        try store.addToBeRead(productID: "t2", title: "Sedan", now: synced)
        try store.recordDownload(
            DownloadRecord(
                productID: "p0", loanID: "L0", path: "/tmp/p0.epub", size: 1234,
                sha256: String(repeating: "ab", count: 32), downloadedAt: synced))
        try store.savePosition(ReadingPosition(bookID: "s1", locator: Locator(spineIndex: 0, offset: 5), percent: 7.5))

        let shelf = try store.shelf(today: today)
        #expect(shelf.sections.map(\.kind) == [.loans, .ready, .reserved, .samples, .toBeRead])
        #expect(shelf.sections.map(\.kind.title) == ["Loans", "Ready to borrow", "Reserved", "Samples", "To be read"])
        let loan = try #require(shelf.entries(.loans).first)
        #expect(loan.badge == .daysLeft(14) && loan.isDownloaded && loan.percentRead == nil)
        #expect(shelf.entries(.ready).map(\.badge) == [.ready(until: today.adding(days: 2))])
        #expect(shelf.entries(.reserved).first?.badge?.text == "#3 in queue · ~9 Jan 2027")
        #expect(shelf.entries(.samples).map(\.badge) == [.sample])
        #expect(shelf.entries(.samples).first?.percentRead == 7.5)
        #expect(!(shelf.entries(.samples).first?.isDownloaded ?? true))
        #expect(shelf.entries(.toBeRead).map(\.title) == ["Sedan", "Först"])
        #expect(shelf.entries(.toBeRead).first?.badge == nil)
    }

    @Test("Titles and authors sort in Swedish order, both ways")
    func swedishOrder() throws {
        let day = DayDate(year: 2026, month: 12, day: 20)
        let store = try store(loans: [
            ("Ödets väg", "Örjan Ås", day), ("Zebran", "Zara Zetterberg", day.adding(days: 1)),
            ("Änglarna", "Ärla Berg", day.adding(days: 2)), ("Åren", "Åke Ek", day.adding(days: 3)),
            ("Anna", "Anna Andersson", day.adding(days: 4)),
        ])
        let today = DayDate(year: 2026, month: 12, day: 1)
        func titles(_ sort: ShelfSort) throws -> [String] {
            try store.shelf(today: today, sort: sort).entries(.loans).map(\.title)
        }
        #expect(try titles(ShelfSort(.title)) == ["Anna", "Zebran", "Åren", "Änglarna", "Ödets väg"])
        #expect(try titles(ShelfSort(.title, .descending)) == ["Ödets väg", "Änglarna", "Åren", "Zebran", "Anna"])
        // By last name, as a library orders authors: Andersson, Berg, Ek, Zetterberg, Ås.
        #expect(try titles(ShelfSort(.author)) == ["Anna", "Änglarna", "Åren", "Zebran", "Ödets väg"])
        #expect(try titles(ShelfSort(.days)) == ["Ödets väg", "Zebran", "Änglarna", "Åren", "Anna"])
        #expect(try titles(ShelfSort(.days, .descending)) == ["Anna", "Åren", "Änglarna", "Zebran", "Ödets väg"])
        #expect(try titles(ShelfSort(.recent)) == ["Anna", "Åren", "Änglarna", "Zebran", "Ödets väg"])
        let english = ShelfStore(database: store.database, collation: Collation(.english))
        #expect(
            try english.shelf(today: today, sort: ShelfSort(.title)).entries(.loans).map(\.title)
                == ["Änglarna", "Anna", "Åren", "Ödets väg", "Zebran"])
    }
}
