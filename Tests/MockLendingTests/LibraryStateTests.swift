import Catalog
import Foundation
import Testing

@testable import MockLending

/// The library's state without HTTP: the rules as time passes.
@Suite("Library state")
struct LibraryStateTests {
    @Test("The seeded state keeps its invariants through a year of the clock")
    func invariantsOverTime() throws {
        var state = Fixtures.state
        for _ in 0..<40 {
            state.moveClock(to: state.clock.addingTimeInterval(9 * 86_400 + 3_600))
            for (index, licence) in state.licences.enumerated() where licence.model == .copies {
                let known = state.loans.filter { $0.productIndex == index && $0.isActive }.count
                #expect(licence.onLoan == (state.otherLoans[index]?.count ?? 0) + known, "product \(index)")
                let queue = state.queueCounts(index)
                #expect(licence.onLoan + queue.ready <= licence.copies)
                if licence.onLoan + queue.ready < licence.copies { #expect(licence.waiting == 0 && queue.active == 0) }
            }
        }
        // The queues of the patrons the mock does not model move: they get their copies in turn.
        #expect(state.licences.reduce(0) { $0 + $1.waiting } < Fixtures.state.licences.reduce(0) { $0 + $1.waiting })
        #expect(state.payPerLoanUsed == 0, "a new month refilled the budget")
    }

    /// The index of product `id` in the fixtures' catalogue.
    func index(_ id: String) -> Int { Fixtures.catalog.products.firstIndex { $0.id == id }! }

    @Test("A pay-per-loan title may be reserved while the budget is spent, and is ready when the month turns")
    func payPerLoanReservation() throws {
        var state = Fixtures.state
        let title = index(LendingFixtures.payPerLoanTitle())
        let reservation = try state.reserve(title, card: "1001", pin: "1234")
        #expect(state.reservationView(reservation).estimatedDate == DayDate(year: 2026, month: 12, day: 1))
        state.moveClock(
            to: DayDate(year: 2026, month: 12, day: 1).startDate(in: MockRules.stockholm).addingTimeInterval(3_600))
        let ready = state.reservationView(state.reservations.first { $0.id == reservation.id }!)
        #expect(ready.ready && ready.readyUntil == DayDate(year: 2026, month: 12, day: 4))
        _ = try state.borrow(title, card: "1001", pin: "1234")
        #expect(state.reservations.first { $0.id == reservation.id }?.ending == .fulfilled)
        #expect(state.payPerLoanUsed == 1)
    }

    @Test("A lock that ends after midnight names the day")
    func lockPastMidnight() {
        var state = Fixtures.state
        state.moveClock(
            to: DayDate(year: 2026, month: 11, day: 18).startDate(in: MockRules.stockholm).addingTimeInterval(
                23 * 3_600 + 55 * 60))
        var last: LendingRefusal?
        for _ in 0..<5 {
            do { try state.authenticate(card: "1001", pin: "0000") } catch { last = error }
        }
        #expect(last?.kind == .forbidden)
        #expect(
            last?.reason.english == "Card 1001 is locked after 5 wrong PINs; try again after 00:10 on 19 November 2026."
        )
    }

    @Test("A locked card is refused before any other rule, and the right PIN does not unlock it")
    func lockComesFirst() {
        var state = Fixtures.state
        for _ in 0..<5 { _ = try? state.authenticate(card: "1002", pin: "1") }
        let refusal = #expect(throws: LendingRefusal.self) {
            _ = try state.borrow(Fixtures.byPopularity[0], card: "1002", pin: "2345")
        }
        #expect(refusal?.kind == .forbidden && refusal?.reason.english.contains("locked") == true)
        #expect(state.loansThisMonth(card: "1002") == 5)
        #expect(state.patrons["1002"]?.lockedUntil != nil)
    }
}
