import Catalog
import Foundation

@testable import MockLending

/// Titles of the default catalogue (seed 1, 600 products) in the situations the lending tests need,
/// found in the seeded state rather than hard-coded, so they follow the generator.
enum LendingFixtures {
    /// A server configuration whose clock starts at `Fixtures.clock` (mid-month, 10:00 in Stockholm).
    static func configuration(rules: MockRules = MockRules()) -> MockConfiguration {
        MockConfiguration(clockStart: Fixtures.clock, rules: rules, clockRuns: false)
    }

    /// The patrons' PINs, as seeded.
    static let pins = ["1001": "1234", "1002": "2345", "1003": "3456", "1004": "4567"]

    static var state: LibraryState { Fixtures.state }

    /// Products no seeded loan or reservation touches, and that are not the scenario titles.
    static var untouched: [Int] {
        let top = Set(Fixtures.byPopularity.prefix(5))
        let used = Set(state.loans.map(\.productIndex) + state.reservations.map(\.productIndex))
        return Fixtures.catalog.products.indices.filter {
            !top.contains($0) && !used.contains($0) && Fixtures.catalog.products[$0].isActive(on: state.today)
        }
    }

    /// The id of the `n`-th untouched copies title with exactly one free copy and nobody waiting
    /// (with `onlyCopy`, a title of one copy, so no other copy comes back meanwhile).
    static func lastCopyTitle(_ n: Int = 0, onlyCopy: Bool = false) -> String {
        let index = untouched.filter {
            let licence = state.licences[$0]
            return licence.model == .copies && licence.copies - licence.onLoan == 1 && licence.waiting == 0
                && (!onlyCopy || licence.copies == 1)
        }[n]
        return Fixtures.catalog.products[index].id
    }

    /// The id of the `n`-th untouched unlimited-access title.
    static func accessTitle(_ n: Int = 0) -> String {
        Fixtures.catalog.products[untouched.filter { state.licences[$0].model == .access }[n]].id
    }

    /// The id of the `n`-th untouched pay-per-loan title.
    static func payPerLoanTitle(_ n: Int = 0) -> String {
        Fixtures.catalog.products[untouched.filter { state.licences[$0].model == .ppu }[n]].id
    }

    /// The id of the title 1003 is first in the queue for (its one copy comes back after tomorrow).
    static var comingBackTitle: String {
        let second = Fixtures.byPopularity[1]
        let index = state.reservations.first { $0.card == "1003" && $0.productIndex != second }!.productIndex
        return Fixtures.catalog.products[index].id
    }

    /// The calendar day of the fixtures' clock, `days` later.
    static func day(_ days: Int = 0) -> DayDate {
        DayDate(Fixtures.clock, in: MockRules.stockholm).adding(days: days)
    }

    /// A day as the mock writes it in an English sentence: `18 November 2026`.
    static func written(_ day: DayDate) -> String {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(day.day) \(months[day.month - 1]) \(day.year)"
    }
}

extension TestServer {
    /// The real client as a `PatronLending`.
    var lending: any PatronLending { client() }

    /// Runs `body` with a server whose clock starts at the fixtures' clock.
    static func lending<T: Sendable>(
        rules: MockRules = MockRules(), _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await with(LendingFixtures.configuration(rules: rules), body)
    }
}

extension LendingFixtures {
    /// The days the copies of `id` lent to patrons the mock does not model come back, as seeded, earliest first.
    static func othersComingBack(_ id: String) -> [DayDate] {
        let index = Fixtures.catalog.products.firstIndex { $0.id == id }!
        return (state.otherLoans[index] ?? []).map { $0.adding(days: 1) }
    }

    /// Copies of `id` the library owns.
    static func copies(_ id: String) -> Int {
        state.licences[Fixtures.catalog.products.firstIndex { $0.id == id }!].copies
    }

    /// The title of `id`.
    static func title(_ id: String) -> String {
        Fixtures.catalog.products.first { $0.id == id }!.title
    }
}
