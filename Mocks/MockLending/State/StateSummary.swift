import Catalog
import Foundation

/// What `GET /mock/state` reports: enough for a tester to see where the simulated library stands.
///
/// Loans and queues of the patrons the mock models are listed one by one; those of the others
/// only counted. No PIN appears here.
struct StateSummary: Codable, Sendable {
    struct PatronSummary: Codable, Sendable {
        var card: String
        var name: String
        var loans: Int
        var loansThisMonth: Int
        var reservations: Int
        var demonstrates: String
        var wrongPINs: Int
        var lockedUntil: String?
        enum CodingKeys: String, CodingKey {
            case card = "Card"
            case name = "Name"
            case loans = "Loans"
            case loansThisMonth = "LoansThisMonth"
            case reservations = "Reservations"
            case demonstrates = "Demonstrates"
            case wrongPINs = "WrongPINs"
            case lockedUntil = "LockedUntil"
        }
    }

    struct LoanSummary: Codable, Sendable {
        var loanID: String
        var card: String
        var productID: String
        var title: String
        var expiryDate: DayDate
        var active: Bool
        enum CodingKeys: String, CodingKey {
            case loanID = "LoanID"
            case card = "Card"
            case productID = "ProductID"
            case title = "Title"
            case expiryDate = "ExpiryDate"
            case active = "Active"
        }
    }

    struct QueueSummary: Codable, Sendable {
        struct Place: Codable, Sendable {
            var reservationID: String
            var card: String
            var readyUntil: DayDate?
            enum CodingKeys: String, CodingKey {
                case reservationID = "ReservationID"
                case card = "Card"
                case readyUntil = "ReadyUntil"
            }
        }
        var productID: String
        var title: String
        var copies: Int
        var onLoan: Int
        /// Patrons the mock does not model, ahead of every card.
        var othersAhead: Int
        /// The cards in the queue, in order.
        var cards: [String]
        var places: [Place]
        enum CodingKeys: String, CodingKey {
            case productID = "ProductID"
            case title = "Title"
            case copies = "Copies"
            case onLoan = "OnLoan"
            case othersAhead =
                "OthersAhead"
            case cards = "Cards"
            case places = "Places"
        }
    }

    var clock: String
    var today: DayDate
    var seed: UInt64
    var catalogSize: Int
    var loans: [LoanSummary]
    /// Copies lent to patrons the mock does not model.
    var otherLoans: Int
    /// Titles with a known patron in the queue.
    var queues: [QueueSummary]
    /// Copy titles with every copy out.
    var titlesOut: Int
    /// Patrons waiting in all queues, modelled or not.
    var waiting: Int
    var payPerLoanUsed: Int
    var payPerLoanBudget: Int
    var patrons: [PatronSummary]
    var faults: Faults
    /// `Shared` (the file every `bok --mock` of the user shares), `Private` (that file could not
    /// be used: this process only), or absent (in memory by design).
    var sharedState: String?
    /// Why the state is private: `damaged`, `readOnly`, `folderReadOnly`, `removed`, …
    var sharedStateProblem: String?
    /// In the answer to `POST /mock/reset`: what became of the file (`Shared`, `Rejoined`,
    /// `Rebuilt`, `NotRebuilt`).
    var reset: String?

    enum CodingKeys: String, CodingKey {
        case clock = "Clock"
        case today = "Today"
        case seed = "Seed"
        case catalogSize = "CatalogSize"
        case loans = "Loans"
        case otherLoans = "OtherLoans"
        case queues = "Queues"
        case titlesOut = "TitlesOut"
        case waiting = "Waiting"
        case payPerLoanUsed = "PayPerLoanUsed"
        case payPerLoanBudget = "PayPerLoanBudget"
        case patrons = "Patrons"
        case faults =
            "Faults"
        case sharedState = "SharedState"
        case sharedStateProblem = "SharedStateProblem"
        case reset = "Reset"
    }

    init(_ state: LibraryState, seed: UInt64, catalogSize: Int) {
        clock = Timestamp.format(state.clock)
        today = state.today
        self.seed = seed
        self.catalogSize = catalogSize
        let products = state.products
        loans = state.loans.map { loan in
            LoanSummary(
                loanID: loan.id, card: loan.card, productID: products[loan.productIndex].id,
                title: products[loan.productIndex].title, expiryDate: loan.expires, active: loan.isActive)
        }
        otherLoans = state.otherLoans.values.reduce(0) { $0 + $1.count }
        let active = state.reservations.filter(\.isActive)
        var queued: [Int] = []
        for reservation in active where !queued.contains(reservation.productIndex) {
            queued.append(reservation.productIndex)
        }
        queues = queued.map { index in
            let places = active.filter { $0.productIndex == index }
            return QueueSummary(
                productID: products[index].id, title: products[index].title,
                copies: state.licences[index].copies, onLoan: state.licences[index].onLoan,
                othersAhead: state.licences[index].waiting, cards: places.map(\.card),
                places: places.map {
                    QueueSummary.Place(reservationID: $0.id, card: $0.card, readyUntil: $0.readyUntil)
                })
        }
        titlesOut = state.licences.reduce(0) { $0 + ($1.isExhausted ? 1 : 0) }
        waiting = state.licences.reduce(0) { $0 + $1.waiting } + active.count
        payPerLoanUsed = state.payPerLoanUsed
        payPerLoanBudget = state.payPerLoanBudget
        patrons = state.patrons.values.sorted { $0.card < $1.card }.map { patron in
            PatronSummary(
                card: patron.card, name: patron.name,
                loans: state.loans.filter { $0.card == patron.card && $0.isActive }.count,
                loansThisMonth: state.loansThisMonth(card: patron.card),
                reservations: active.filter { $0.card == patron.card }.count,
                demonstrates: patron.demonstrates, wrongPINs: patron.wrongPINs,
                lockedUntil: patron.lockedUntil.flatMap { $0 > state.clock ? Timestamp.format($0) : nil })
        }
        faults = state.faults
    }
}
