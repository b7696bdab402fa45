import Catalog
import Foundation
import Testing

@testable import MockLending

/// What the shipped usability scenarios rely on, with the default seed.
@Suite("Scenario guarantees")
struct ScenarioGuaranteeTests {
    let products = Fixtures.catalog.products
    let state = Fixtures.state

    @Test("Several thrillers have a first author whose last name starts with Å, and one can be borrowed")
    func aringThrillers() {
        let indices = products.indices.filter { Fixtures.isAringThriller(products[$0]) }
        #expect(indices.count >= 3)
        #expect(indices.contains { state.availability($0, card: nil).available })
    }

    @Test("The most popular title can be borrowed")
    func mostPopularIsAvailable() {
        let first = Fixtures.byPopularity[0]
        #expect(state.availability(first, card: nil).available)
        #expect(state.availability(first, card: "1001").available)
    }

    @Test("The fourth most popular title has a published date")
    func fourthHasDate() {
        #expect(products[Fixtures.byPopularity[3]].publishedDate != nil)
    }

    @Test("The top ten by popularity have distinct popularity, so the order is unambiguous")
    func topTenDistinct() {
        let top = Fixtures.byPopularity.prefix(10).map { products[$0].popularity! }
        #expect(Set(top).count == 10)
    }

    @Test("Some title is out with patrons waiting")
    func outWithQueue() {
        let out = products.indices.filter {
            let availability = state.availability($0, card: nil)
            return availability.reason == .product && (availability.waiting ?? 0) > 0
        }
        #expect(!out.isEmpty)
        let second = state.availability(Fixtures.byPopularity[1], card: nil)
        #expect(second.reason == .product)
        #expect(second.explanation?.contains("waiting") == true)
    }

    @Test("Every reason a book cannot be borrowed occurs", arguments: [UnavailableReason.product, .library, .borrower])
    func everyReasonOccurs(reason: UnavailableReason) {
        let card = reason == .borrower ? "1002" : nil
        #expect(products.indices.contains { state.availability($0, card: card).reason == reason })
    }

    @Test("Card 1002 is at the monthly limit: any title that could be lent says borrower")
    func borrowerAtLimit() {
        #expect(state.loansThisMonth(card: "1002") == MockRules().maxLoansPerMonth)
        let first = Fixtures.byPopularity[0]
        #expect(state.availability(first, card: "1002").reason == .borrower)
        #expect(state.availability(first, card: "1001").available)
        #expect(state.availability(first, card: "1004").available, "1004 has one loan left")
        // A title that is out still says why the title is out: the patron may reserve it.
        #expect(state.availability(Fixtures.byPopularity[1], card: "1002").reason == .product)
    }

    @Test("Pay-per-loan titles answer library while the budget is spent")
    func payPerLoanSpent() {
        let third = Fixtures.byPopularity[2]
        #expect(Fixtures.catalog.licences[third].model == .ppu)
        #expect(state.availability(third, card: nil).reason == .library)
        var refilled = state
        refilled.payPerLoanUsed = 0
        #expect(refilled.availability(third, card: nil).available)
    }

    @Test("Seeded patrons: 1003 has a loan about to expire, is first in one queue and behind others in another")
    func patron1003() {
        let loans = state.loans.filter { $0.card == "1003" }
        #expect(loans.count == 2)
        let today = DayDate(Fixtures.clock, in: MockRules.stockholm)
        #expect(loans.contains { today.days(until: $0.expires) <= 3 })
        let reservations = state.reservations.filter { $0.card == "1003" }
        #expect(reservations.count == 2)
        let popular = reservations.first { $0.productIndex == Fixtures.byPopularity[1] }
        #expect(popular.map { state.reservationView($0).queuePosition } ?? 0 > 1)
        let soon = reservations.first { $0.productIndex != Fixtures.byPopularity[1] }
        #expect(soon.map { state.reservationView($0).queuePosition } == 1)
        #expect(soon.map { state.reservationView($0).estimatedDate } == today.adding(days: 2))
        #expect(
            soon.map { state.licences[$0.productIndex] } == Licence(model: .copies, copies: 1, onLoan: 1, waiting: 0))
    }

    @Test("The guarantees hold for other seeds too", arguments: [UInt64(2), 3, 42, 2026])
    func otherSeeds(seed: UInt64) {
        let catalog = CatalogGenerator(seed: seed, size: 600).generate()
        let state = LibraryState.seeded(catalog, clock: Fixtures.clock)
        let ordered = ProductOrdering(collation: Collation(.swedish)).sorted(
            Array(catalog.products), by: SortSpec(.popularity))
        let index = Dictionary(uniqueKeysWithValues: catalog.products.enumerated().map { ($1.id, $0) })
        let top = ordered.map { index[$0.id]! }
        #expect(state.availability(top[0], card: nil).available)
        #expect(catalog.products[top[3]].publishedDate != nil)
        let aring = catalog.products.indices.filter { Fixtures.isAringThriller(catalog.products[$0]) }
        #expect(aring.count >= 3)
        #expect(aring.contains { state.availability($0, card: nil).available })
        #expect(
            catalog.products.indices.contains {
                state.availability($0, card: nil).reason == .product
                    && (state.availability($0, card: nil).waiting ?? 0) > 0
            })
    }
}
