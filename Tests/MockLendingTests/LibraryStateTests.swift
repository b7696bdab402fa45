import Catalog
import Foundation
@testable import MockLending
import Testing

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
}
