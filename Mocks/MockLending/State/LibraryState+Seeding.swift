import Catalog
import Foundation

extension LibraryState {
    /// The patrons every mock library starts with; their stories are told below.
    static let seededPatrons = [
        Patron(card: "1001", pin: "1234", name: "Astrid Lindqvist", demonstrates: "no loans: can borrow"),
        Patron(card: "1002", pin: "2345", name: "Nils Åberg", demonstrates: "monthly limit reached: borrower"),
        Patron(
            card: "1003", pin: "3456", name: "Élise Öberg",
            demonstrates: "a loan about to end; first in a queue that is ready after 2 days"),
        Patron(card: "1004", pin: "4567", name: "Måns Ängström", demonstrates: "one loan left this month"),
    ]

    /// The state the mock starts in (and returns to on `POST /mock/reset`).
    ///
    /// Seeded patrons, each with a story to try (PINs are the mock's own, printed in the README):
    /// - `1001`, PIN `1234`, Astrid Lindqvist: no loans, no reservations. Borrow anything
    ///   available; borrow the same title twice (409); reserve an available title (409); type a
    ///   wrong PIN five times to see the 15-minute lock.
    /// - `1002`, PIN `2345`, Nils Åberg: has made 5 loans this month, the limit. Availability says
    ///   `borrower` and borrowing is refused until the 1st of next month (advance the clock
    ///   there to borrow again); a title that is out still says `product`, and 1002 may reserve it.
    /// - `1003`, PIN `3456`, Élise Öberg: two loans, one with its last day two days from now (it
    ///   ends on the third day), and two reservations: first in the queue of a one-copy title
    ///   whose copy comes back after tomorrow (`POST /mock/clock {"Advance": "2d"}` makes it
    ///   ready, to borrow within 3 days or lose it), and behind the other patrons waiting for the
    ///   second most popular title, with an estimated date.
    /// - `1004`, PIN `4567`, Måns Ängström: has made 4 loans this month: the next loan succeeds
    ///   and the one after says `borrower`.
    ///
    /// The pay-per-loan budget is spent, so `ppu` titles answer `library` until the month turns.
    /// Copies lent to patrons the mock does not model come back over the next four weeks, and
    /// the patrons they count as waiting borrow them first.
    static func seeded(_ catalog: GeneratedCatalog, clock: Date, rules: MockRules = MockRules()) -> LibraryState {
        var state = LibraryState(
            rules: rules, products: catalog.products, licences: catalog.licences, clock: clock,
            faultDice: SplitMix64.stream(catalog.seed, 0xFA17))
        state.payPerLoanUsed = state.payPerLoanBudget
        for patron in seededPatrons { state.patrons[patron.card] = patron }
        state.seedOtherLoans(seed: catalog.seed)

        // Loans go on unlimited-access titles so they take no copy from anyone, avoiding the
        // titles the scenarios name (the top of the popularity list).
        let top = catalog.topByPopularity.prefix(5)
        let avoided = Set(top)
        var access = catalog.licences.indices.lazy.filter {
            catalog.licences[$0].model == .access && !avoided.contains($0)
        }.makeIterator()
        let daysIntoMonth = state.today.day - 1
        let monthStart = state.monthStart
        func lend(_ card: String, daysAgo: Int, thisMonth: Bool = true) {
            guard let index = access.next() else { return }
            var created = clock.addingTimeInterval(-Double(daysAgo) * 86_400 - 3_600)
            // Early on the 1st, "an hour ago" would be last month.
            if thisMonth { created = max(created, min(monthStart, clock)) }
            state.addLoan(productIndex: index, card: card, created: created)
        }
        // This month's loans are spread over the days of the month that have passed.
        let limit = rules.maxLoansPerMonth
        for k in 0..<limit { lend("1002", daysAgo: daysIntoMonth * k / max(1, limit)) }
        lend("1003", daysAgo: rules.loanPeriodDays - 2, thisMonth: false)
        lend("1003", daysAgo: min(daysIntoMonth, 3))
        for k in 0..<max(0, limit - 1) { lend("1004", daysAgo: daysIntoMonth * k / max(1, limit)) }

        if let soon = state.titleComingBack(avoiding: avoided) {
            state.reservations.append(
                Reservation(
                    id: state.takeID(prefix: "R"), productIndex: soon, card: "1003",
                    created: clock.addingTimeInterval(-6 * 86_400)))
        }
        if top.count > 1, state.licences[top[1]].isExhausted {
            state.reservations.append(
                Reservation(
                    id: state.takeID(prefix: "R"), productIndex: top[1], card: "1003",
                    created: clock.addingTimeInterval(-5 * 86_400)))
        }
        return state
    }

    /// Gives every copy the generator counts as lent a last day within the next loan period,
    /// deterministically from the seed.
    mutating func seedOtherLoans(seed: UInt64) {
        let period = max(1, rules.loanPeriodDays)
        let days = (0..<period).map { today.adding(days: $0) }
        var rng = SplitMix64.stream(seed, 0x10A2)
        // Room for them all at once: growing a dictionary of 400 000 titles rehashes it 19 times.
        otherLoans.reserveCapacity(
            otherLoans.count + licences.reduce(0) { $0 + ($1.model == .copies && $1.onLoan > 0 ? 1 : 0) })
        for index in licences.indices where licences[index].model == .copies && licences[index].onLoan > 0 {
            var expiries = (0..<licences[index].onLoan).map { _ in days[rng.below(period)] }
            expiries.sort()
            otherLoans[index] = expiries
        }
    }

    /// Makes a one-copy title whose copy is lent to someone else until tomorrow and that nobody
    /// else waits for: 1003's reservation on it becomes ready when the clock passes tomorrow.
    ///
    /// Takes a title that already is so if there is one, else the first one-copy title that is
    /// out (or, failing that, any copies title), outside the scenario titles and the Å thrillers.
    mutating func titleComingBack(avoiding avoided: Set<Int>) -> Int? {
        let candidates = licences.indices.filter {
            licences[$0].model == .copies && !avoided.contains($0) && !products.isAringThriller($0)
        }
        let oneCopy = candidates.filter { licences[$0].copies == 1 }
        guard
            let index = oneCopy.first(where: { licences[$0].onLoan == 1 && licences[$0].waiting == 0 })
                ?? oneCopy.first(where: { licences[$0].onLoan == 1 }) ?? oneCopy.first ?? candidates.first
        else { return nil }
        licences[index] = Licence(model: .copies, copies: 1, onLoan: 1, waiting: 0)
        otherLoans[index] = [today.adding(days: 1)]
        return index
    }

    /// Records a loan to a known patron and takes its copy.
    mutating func addLoan(productIndex: Int, card: String, created: Date) {
        let expires = DayDate(created, in: rules.timeZone).adding(days: rules.loanPeriodDays)
        loans.append(
            Loan(id: takeID(prefix: "L"), productIndex: productIndex, card: card, created: created, expires: expires))
        licences[productIndex].onLoan += 1
    }
}
