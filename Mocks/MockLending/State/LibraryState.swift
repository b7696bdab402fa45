import Catalog
import Foundation

/// Everything about the simulated library that changes: the clock, licence counters, queues,
/// patrons, loans, reservations and injected faults.
///
/// A value type kept behind one `Mutex` in `MockLibrary`: each request takes the lock once, reads
/// or changes what it needs and leaves, so every rule is applied to one consistent state (two
/// patrons borrowing the last copy at once get exactly one loan between them). The rules live
/// in the extensions: `+Clock` (days turning over), `+Patrons` (PINs), `+Loans`, `+Reservations`,
/// `+Seeding`.
///
/// Invariant, kept by every change: a copies title has a free copy only when nobody waits for
/// it. A copy that comes back goes at once to the first patron the mock does not model, or is
/// held for the first reservation (which becomes ready), and only otherwise is free to borrow.
struct LibraryState: Sendable {
    /// The rules this library lends by.
    let rules: MockRules
    /// The products, index-aligned with `licences` (for titles and active statuses).
    let products: ProductTable
    /// The virtual clock: "now" for loans, reservations, PIN locks and monthly limits.
    var clock: Date
    /// Virtual minus real time; `MockLibrary` moves `clock` to real time plus this on every access.
    var clockOffset: TimeInterval = 0
    /// The clock's day in the library's time zone; every day up to it has been processed.
    var today: DayDate
    /// Licence and circulation per product, index-aligned with the catalogue. For copies titles
    /// `onLoan` counts the loans in `otherLoans` and the active ones in `loans`.
    var licences: [Licence]
    /// Copies lent to patrons the mock does not model: per product, the last days of their
    /// loans, earliest first. They come back by themselves like any loan.
    var otherLoans: [Int: [DayDate]] = [:]
    /// Pay-per-loan loans the library may make per month, and how many it made this month.
    var payPerLoanBudget: Int
    var payPerLoanUsed: Int
    /// Patrons by card number.
    var patrons: [String: Patron] = [:]
    /// Loans to known patrons, in the order they were made, ended ones included.
    var loans: [Loan] = []
    /// Reservations of known patrons, in the order they were made (so each title's queue is
    /// first come, first served), ended ones included so that a repeated cancel still succeeds.
    var reservations: [Reservation] = []
    /// Faults injected into the API routes.
    var faults: Faults = .none
    /// Decides which calls an `ErrorRate` fault fails; seeded so a test run can be repeated.
    var faultDice: SplitMix64
    /// For the next `LoanID` and `ReservationID`.
    var nextNumber = 1
    /// Ends every id this state gives from now on: empty for the shared library; a tag of its
    /// own for a private one (see `MockLibrary`), whose numbers go on from the shared library's
    /// and would otherwise name its loans' ids anew, so the patron's shelf would take the one
    /// loan for the other.
    var idSuffix = ""
    /// Bookmarks, highlights and reading places patrons keep through the OPDS face's annotation
    /// service (W3C Web Annotations, as Palace's circulation manager keeps them).
    var annotations: [MockAnnotation] = []
    /// The cards whose patron chose to keep annotations on the server (Palace's
    /// `simplified:synchronize_annotations`); off until they do.
    var annotationSyncCards: Set<String> = []

    init(rules: MockRules, products: ProductTable, licences: [Licence], clock: Date, faultDice: SplitMix64) {
        self.rules = rules
        self.products = products
        self.licences = licences
        self.clock = clock
        self.today = DayDate(clock, in: rules.timeZone)
        self.payPerLoanBudget = rules.payPerLoanMonthlyBudget
        self.payPerLoanUsed = 0
        self.faultDice = faultDice
    }

    mutating func takeID(prefix: String) -> String {
        defer { nextNumber += 1 }
        return prefix + String(100_000 + nextNumber) + idSuffix
    }

    // MARK: Reading

    /// The first instant of the clock's month, in the library's time zone.
    var monthStart: Date {
        DayDate(year: today.year, month: today.month, day: 1).startDate(in: rules.timeZone)
    }

    /// The first day of next month, when monthly limits and the budget start again.
    var nextMonth: DayDate {
        today.month == 12
            ? DayDate(year: today.year + 1, month: 1, day: 1)
            : DayDate(year: today.year, month: today.month + 1, day: 1)
    }

    /// Active reservations on a product, and how many of them have a copy held.
    func queueCounts(_ index: Int) -> (active: Int, ready: Int) {
        var active = 0
        var ready = 0
        for reservation in reservations where reservation.productIndex == index && reservation.isActive {
            active += 1
            if reservation.readyUntil != nil { ready += 1 }
        }
        return (active, ready)
    }

    /// Patrons waiting for a product: those the mock does not model plus reservations made here.
    func waiting(_ index: Int) -> Int {
        licences[index].waiting + queueCounts(index).active
    }

    /// The ready reservation of `card` for product `index`, if a copy is held for them.
    func readyReservation(_ index: Int, card: String) -> Int? {
        reservations.firstIndex { $0.productIndex == index && $0.card == card && $0.isReady }
    }

    /// Whether product `index` can be borrowed now, and if not why.
    ///
    /// The title's own state comes first (all copies out or held for a reservation → `product`,
    /// budget spent → `library`): that tells a patron at their limit whether reserving makes
    /// sense. Only a title that could otherwise be borrowed answers `borrower`. A copy held for
    /// `card`'s ready reservation counts as available to that card.
    func availability(_ index: Int, card: String?) -> Availability {
        availability(index, card: card, limit: borrowerLimit(card: card))
    }

    /// `availability(_:card:)` with the card's `borrowerLimit` worked out once by the caller, for
    /// a search that asks for every title (nil: the card may borrow, or none is given).
    func availability(_ index: Int, card: String?, limit: Availability?) -> Availability {
        let licence = licences[index]
        guard products.isActive(index, on: today) else { return Availability(available: false, reason: .product) }
        switch licence.model {
        case .copies:
            let queue = queueCounts(index)
            let waiting = licence.waiting + queue.active
            let heldForCard = queue.ready > 0 && card.map { readyReservation(index, card: $0) != nil } == true
            if licence.onLoan + queue.ready >= licence.copies && !heldForCard {
                return Availability(available: false, reason: .product, copies: licence.copies, waiting: waiting)
            }
            if var limit {
                limit.copies = licence.copies
                limit.waiting = waiting
                return limit
            }
            return Availability(available: true, copies: licence.copies, waiting: waiting)
        case .ppu:
            if payPerLoanUsed >= payPerLoanBudget {
                return Availability(available: false, reason: .library, estimatedDate: nextMonth)
            }
        case .access:
            break
        }
        return limit ?? Availability(available: true)
    }

    /// The licence models of product `index`, as `GET libraryproducts/{id}` reports them.
    func modelAvailabilities(_ index: Int) -> [ModelAvailability] {
        let licence = licences[index]
        switch licence.model {
        case .access:
            // Upstream reports access titles with no meaningful maximum; clients treat them as always available.
            return [ModelAvailability(model: "access", current: licence.onLoan, max: 0)]
        case .copies:
            // Copies held for a ready reservation are not free either.
            return [
                ModelAvailability(
                    model: "copies", current: licence.onLoan + queueCounts(index).ready, max: licence.copies)
            ]
        case .ppu:
            return [ModelAvailability(model: "ppu", current: payPerLoanUsed, max: payPerLoanBudget)]
        }
    }
}
