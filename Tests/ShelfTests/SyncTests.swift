import Catalog
import Foundation
import Reader
import Shelf
import TestSupport
import Testing

@Suite("Syncing the shelf from the lending service")
struct SyncTests {
    let today = DayDate(year: 2026, month: 11, day: 21)
    let now = DayDate(year: 2026, month: 11, day: 21).startDate(in: TimeZone(identifier: "UTC")!).addingTimeInterval(
        12 * 3600)

    func makeStore() throws -> (ShelfStore, LibraryRecord) {
        let store = ShelfStore(database: try ShelfDatabase.inMemory())
        let profile = try store.saveLibrary(
            name: "Stadsbiblioteket", baseURL: "https://elib.example/v1", serviceID: "1234")
        return (store, profile)
    }

    @Test("A loan gone from the server moves to Ended and keeps its bookmarks, highlights and position")
    func loanEnds() async throws {
        let (store, profile) = try makeStore()
        let fake = FakeLending()
        await fake.add(
            Product(
                id: "p1", title: "Röda rummet", contributors: [Contributor(firstName: "August", lastName: "Strindberg")]
            ))
        await fake.set(
            loans: [
                Loan(id: "L1", productID: "p1", title: "Röda rummet", expiryDate: today.adding(days: 10)),
                Loan(id: "L2", productID: "p2", title: "Doktor Glas", expiryDate: today.adding(days: 2)),
            ], reservations: [Reservation(id: "R1", productID: "p3", title: "Kallocain", queuePosition: 2)])

        #expect(try store.lastSync() == nil)
        let first = try await store.sync(from: fake, card: "1111", profile: profile, now: now)
        #expect(first.activeLoans == 2 && first.newlyEnded == 0 && first.reservations == 1)
        #expect(try store.lastSync(profileID: profile.id) == now)
        #expect(try store.lastSyncedCard(profileID: try #require(profile.id)) == "1111")

        let bookmark = try store.addBookmark(
            Locator(spineIndex: 3, offset: 120, snippet: "Det var en afton"), bookID: "p1")
        try store.saveHighlight(
            Highlight(
                start: Locator(spineIndex: 3, offset: 10), end: Locator(spineIndex: 3, offset: 40),
                color: .green, note: "citat", text: "citat"), bookID: "p1")
        try store.savePosition(
            ReadingPosition(bookID: "p1", locator: Locator(spineIndex: 4, offset: 9, snippet: "x"), percent: 42))

        var shelf = try store.shelf(today: today)
        #expect(shelf.entries(.loans).map(\.title) == ["Doktor Glas", "Röda rummet"])
        #expect(shelf.entries(.loans).last?.authors == "August Strindberg")
        #expect(shelf.entries(.loans).last?.percentRead == 42)
        #expect(shelf.entries(.reserved).map(\.badge) == [.queued(place: 2, estimate: nil, thisYear: 2026)])

        // The server forgets L1 (returned on another device) and R1 (cancelled).
        await fake.set(loans: [Loan(id: "L2", productID: "p2", title: "Doktor Glas", expiryDate: today.adding(days: 2))]
        )
        let later = now.addingTimeInterval(3600)
        let second = try await store.sync(from: fake, card: "1111", profile: profile, now: later)
        #expect(second.newlyEnded == 1 && second.activeLoans == 1)
        #expect(try store.lastSync() == later)

        let ended = try #require(try store.loans().first { $0.loanID == "L1" })
        #expect(!ended.active)
        #expect(ended.endedAt == later)
        shelf = try store.shelf(today: today)
        #expect(shelf.entries(.loans).map(\.title) == ["Doktor Glas"])
        #expect(shelf.entries(.ended).map(\.title) == ["Röda rummet"])
        #expect(shelf.entries(.ended).first?.badge == .ended)
        #expect(shelf.entries(.ended).first?.percentRead == 42)
        #expect(shelf.entries(.reserved).isEmpty)
        let kept = try store.bookmarks(bookID: "p1")
        #expect(kept.map(\.id) == [bookmark.id] && kept.first?.locator.snippet == "Det var en afton")
        #expect(try store.highlights(bookID: "p1").map(\.note) == ["citat"])
        #expect(try store.position(bookID: "p1")?.percent == 42)

        // Syncing again changes nothing more; the product was looked up once.
        let third = try await store.sync(from: fake, card: "1111", profile: profile, now: later.addingTimeInterval(60))
        #expect(third.newlyEnded == 0)
        #expect(try store.loans().first { $0.loanID == "L1" }?.endedAt == later)
    }

    @Test("A loan the server reports inactive ends")
    func inactiveLoanEnds() async throws {
        let (store, profile) = try makeStore()
        let fake = FakeLending()
        await fake.set(loans: [Loan(id: "L1", productID: "p1", title: "A", expiryDate: today)])
        try await store.sync(from: fake, card: "1", profile: profile, now: now)
        await fake.set(loans: [Loan(id: "L1", productID: "p1", title: "A", expiryDate: today, active: false)])
        let summary = try await store.sync(from: fake, card: "1", profile: profile, now: now)
        #expect(summary.newlyEnded == 1)
        #expect(try store.loans(includeEnded: false).isEmpty)
    }

    @Test("Lists the library says are not whole end nothing they leave out; a loan they call ended still ends")
    func partialListsEndNothing() async throws {
        let (store, profile) = try makeStore()
        let fake = FakeLending()
        await fake.set(
            loans: [
                Loan(id: "L1", productID: "p1", title: "A", expiryDate: today.adding(days: 9)),
                Loan(id: "L2", productID: "p2", title: "B", expiryDate: today.adding(days: 9)),
            ], reservations: [Reservation(id: "R1", productID: "p3", title: "C", queuePosition: 2)])
        try await store.sync(from: fake, card: "1", profile: profile, now: now)
        // The mock lending from a private state: it knows only what it lent itself.
        await fake.set(
            loans: [
                Loan(id: "L2", productID: "p2", title: "B", expiryDate: today.adding(days: 9), active: false),
                Loan(id: "L9-x1", productID: "p9", title: "D", expiryDate: today.adding(days: 28)),
            ], reservations: [])
        let summary = try await store.sync(from: fake, card: "1", profile: profile, now: now, listsAreWhole: { false })
        #expect(summary.newlyEnded == 1 && summary.notices.map(\.kind) == [.loanEnded, .loanMade])
        let shelf = try store.shelf(today: today)
        #expect(shelf.entries(.loans).map(\.title) == ["A", "D"], "L1 is not ended")
        #expect(shelf.entries(.ended).map(\.title) == ["B"])
        #expect(shelf.entries(.reserved).map(\.title) == ["C"])
    }
}
