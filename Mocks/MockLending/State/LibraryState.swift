import Catalog
import Foundation

/// Everything about the simulated library that changes: the clock, licence counters, queues,
/// patrons, loans, reservations and injected faults.
///
/// A value type kept behind one `Mutex` in `MockLibrary`: each request takes the lock once, reads
/// or changes what it needs and leaves, so the state is always consistent. Lending (create and
/// return loans, reserve, verify PINs) adds methods here, not new storage.
struct LibraryState: Sendable {
    /// The virtual clock: "now" for loans, reservations and monthly limits.
    var clock: Date
    /// Licence and circulation per product, index-aligned with the catalogue.
    var licences: [Licence]
    /// Pay-per-loan loans the library may make per month, and how many it made this month.
    var payPerLoanBudget: Int
    var payPerLoanUsed: Int
    /// Patrons by card number.
    var patrons: [String: Patron]
    var loans: [Loan]
    var reservations: [Reservation]
    /// Faults injected into the API routes.
    var faults: Faults
    /// Decides which calls an `ErrorRate` fault fails; seeded so a test run can be repeated.
    var faultDice: SplitMix64
    /// For the next `LoanID` and `ReservationID`.
    var nextNumber: Int

    /// The library's lending rules.
    static let loanPeriodDays = 28
    static let maxLoansPerMonth = 5
    static let payPerLoanMonthlyBudget = 40
    /// The library's time zone: months and loan days turn over at Swedish midnight.
    static let timeZone = TimeZone(identifier: "Europe/Stockholm") ?? TimeZone(secondsFromGMT: 3_600)!

    // MARK: Seeding

    /// The state the mock starts in (and returns to on `POST /mock/reset`).
    ///
    /// Seeded patrons, each showing one situation:
    /// - `1001` (PIN 1234) has no loans: everything available can be borrowed;
    /// - `1002` (PIN 2345) has made 5 loans this month, the limit: availability says `borrower`;
    /// - `1003` (PIN 3456) has two loans (one about to expire) and a place in the queue of the
    ///   second most popular title, which is out;
    /// - `1004` (PIN 4567) has made 4 loans this month: one more and they reach the limit.
    /// The pay-per-loan budget is spent, so `ppu` titles answer `library`.
    static func seeded(_ catalog: GeneratedCatalog, clock: Date) -> LibraryState {
        var state = LibraryState(
            clock: clock, licences: catalog.licences, payPerLoanBudget: payPerLoanMonthlyBudget,
            payPerLoanUsed: payPerLoanMonthlyBudget, patrons: [:], loans: [], reservations: [],
            faults: .none, faultDice: SplitMix64.stream(catalog.seed, 0xFA17), nextNumber: 1)
        let patrons = [
            Patron(card: "1001", pin: "1234", name: "Astrid Lindqvist", demonstrates: "no loans: can borrow"),
            Patron(card: "1002", pin: "2345", name: "Nils Åberg", demonstrates: "monthly limit reached: borrower"),
            Patron(card: "1003", pin: "3456", name: "Élise Öberg", demonstrates: "loans, one expiring, and a reservation"),
            Patron(card: "1004", pin: "4567", name: "Måns Ängström", demonstrates: "one loan left this month"),
        ]
        for patron in patrons { state.patrons[patron.card] = patron }

        // Loans go on unlimited-access titles so they take no copy from anyone, avoiding the
        // titles the scenarios name (the top of the popularity list).
        let top = Set(ScenarioGuarantees.topByPopularity(catalog.products, count: 5))
        var access = catalog.licences.indices.lazy.filter { catalog.licences[$0].model == .access && !top.contains($0) }.makeIterator()
        let today = DayDate(clock, in: timeZone)
        let daysIntoMonth = today.day - 1
        func lend(_ card: String, daysAgo: Int) {
            guard let index = access.next() else { return }
            state.addLoan(productIndex: index, card: card, created: clock.addingTimeInterval(-Double(daysAgo) * 86_400 - 3_600))
        }
        // This month's loans are spread over the days of the month that have passed.
        for k in 0..<maxLoansPerMonth { lend("1002", daysAgo: daysIntoMonth * k / maxLoansPerMonth) }
        lend("1003", daysAgo: loanPeriodDays - 2)
        lend("1003", daysAgo: min(daysIntoMonth, 3))
        for k in 0..<(maxLoansPerMonth - 1) { lend("1004", daysAgo: daysIntoMonth * k / maxLoansPerMonth) }

        let ranked = ScenarioGuarantees.topByPopularity(catalog.products, count: 2)
        if ranked.count > 1, catalog.licences[ranked[1]].isExhausted {
            state.reservations.append(Reservation(id: state.takeID(prefix: "R"), productIndex: ranked[1], card: "1003",
                                                  created: clock.addingTimeInterval(-5 * 86_400)))
        }
        return state
    }

    mutating func takeID(prefix: String) -> String {
        defer { nextNumber += 1 }
        return prefix + String(100_000 + nextNumber)
    }

    mutating func addLoan(productIndex: Int, card: String, created: Date) {
        let expires = DayDate(created, in: Self.timeZone).adding(days: Self.loanPeriodDays)
        loans.append(Loan(id: takeID(prefix: "L"), productIndex: productIndex, card: card, created: created, expires: expires))
        licences[productIndex].onLoan += 1
    }

    // MARK: Reading

    /// The first instant of the clock's month, in the library's time zone.
    var monthStart: Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.timeZone
        let parts = calendar.dateComponents([.year, .month], from: clock)
        return calendar.date(from: parts) ?? clock
    }

    /// Loans a patron has made since the start of the clock's month.
    func loansThisMonth(card: String) -> Int {
        let start = monthStart
        return loans.reduce(0) { $0 + ($1.card == card && $1.created >= start ? 1 : 0) }
    }

    /// Patrons waiting for a product: those the mock does not model plus reservations made here.
    func waiting(_ index: Int) -> Int {
        licences[index].waiting + reservations.reduce(0) { $0 + ($1.productIndex == index ? 1 : 0) }
    }

    /// Whether the patron with `card` may make another loan this month (unknown cards may).
    func hasReachedLimit(card: String?) -> Bool {
        guard let card, patrons[card] != nil else { return false }
        return loansThisMonth(card: card) >= Self.maxLoansPerMonth
    }

    /// Whether product `index` can be borrowed now, and if not why.
    ///
    /// The title's own state comes first (all copies out → `product`, budget spent → `library`):
    /// that tells a patron at their limit whether reserving makes sense. Only a title that could
    /// otherwise be borrowed answers `borrower`.
    func availability(_ index: Int, card: String?, borrowerLimited: Bool? = nil) -> Availability {
        let licence = licences[index]
        switch licence.model {
        case .copies:
            let waiting = waiting(index)
            if licence.onLoan >= licence.copies {
                return Availability(available: false, reason: .product, copies: licence.copies, waiting: waiting)
            }
            if borrowerLimited ?? hasReachedLimit(card: card) {
                return Availability(available: false, reason: .borrower, copies: licence.copies, waiting: waiting)
            }
            return Availability(available: true, copies: licence.copies, waiting: waiting)
        case .ppu:
            if payPerLoanUsed >= payPerLoanBudget { return Availability(available: false, reason: .library) }
        case .access:
            break
        }
        if borrowerLimited ?? hasReachedLimit(card: card) { return Availability(available: false, reason: .borrower) }
        return Availability(available: true)
    }

    /// The licence models of product `index`, as `GET libraryproducts/{id}` reports them.
    func modelAvailabilities(_ index: Int) -> [ModelAvailability] {
        let licence = licences[index]
        switch licence.model {
        case .access:
            // Upstream reports access titles with no meaningful maximum; clients treat them as always available.
            return [ModelAvailability(model: "access", current: licence.onLoan, max: 0)]
        case .copies:
            return [ModelAvailability(model: "copies", current: licence.onLoan, max: licence.copies)]
        case .ppu:
            return [ModelAvailability(model: "ppu", current: payPerLoanUsed, max: payPerLoanBudget)]
        }
    }
}
