import Catalog
import Foundation

/// A library card holder of the simulated library.
struct Patron: Sendable, Hashable, Codable {
    /// The card number, as the patron types it.
    var card: String
    /// The PIN that proves the card is theirs. Never leaves the state: not in an answer, a
    /// reason, a log line or `/mock/state`.
    var pin: String
    /// The name shown on the patron's page.
    var name: String
    /// What this patron shows testers, for `GET /mock/state`.
    var demonstrates: String
    /// Wrong PINs in a row since the last right one (or the last lock).
    var wrongPINs = 0
    /// Until when the card is locked after too many wrong PINs.
    var lockedUntil: Date?

    /// Stored without the PIN: the seed has it, and no file holds a patron's PIN (see `restore`).
    enum CodingKeys: String, CodingKey { case card, name, demonstrates, wrongPINs, lockedUntil }

    init(card: String, pin: String, name: String, demonstrates: String) {
        self.card = card
        self.pin = pin
        self.name = name
        self.demonstrates = demonstrates
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        card = try c.decode(String.self, forKey: .card)
        pin = ""
        name = try c.decode(String.self, forKey: .name)
        demonstrates = try c.decode(String.self, forKey: .demonstrates)
        wrongPINs = try c.decode(Int.self, forKey: .wrongPINs)
        lockedUntil = try c.decodeIfPresent(Date.self, forKey: .lockedUntil)
    }
}

/// A loan of one product to one patron the mock models.
///
/// Loans to patrons it does not model are only expiry days (`LibraryState.otherLoans`).
struct Loan: Sendable, Hashable, Codable {
    /// How a loan ended.
    enum Ending: Sendable, Hashable, Codable {
        /// Returned early, at that moment.
        case returned(Date)
        /// Ran out after its last day.
        case expired
    }

    /// The loan's id (`LoanID`).
    var id: String
    /// Index of the product in the catalogue.
    var productIndex: Int
    /// The borrower's card.
    var card: String
    /// When the loan was made, on the virtual clock.
    var created: Date
    /// The last day of the loan.
    var expires: DayDate
    /// How it ended; nil while it is active.
    var ending: Ending?

    /// True until the loan is returned or runs out.
    var isActive: Bool { ending == nil }
}

/// A place in a title's reservation queue held by a known patron.
///
/// Patrons the mock does not model are counted in `Licence.waiting` and stand ahead of every
/// reservation made here (they were there first); the queue a patron sees is both.
struct Reservation: Sendable, Hashable, Codable {
    /// How a reservation ended.
    enum Ending: Sendable, Hashable, Codable {
        /// The patron borrowed the book.
        case fulfilled
        /// The patron did not borrow it while it was ready.
        case lapsed
        /// The patron left the queue.
        case cancelled
    }

    /// The reservation's id (`ReservationID`).
    var id: String
    /// Index of the product in the catalogue.
    var productIndex: Int
    /// The patron's card.
    var card: String
    /// When it was made, on the virtual clock; the queue is in this order.
    var created: Date
    /// Set when a copy is held for the patron: the last day they may borrow it.
    var readyUntil: DayDate?
    /// How it ended; nil while the patron is in the queue.
    var ending: Ending?

    /// True while the patron is in the queue (waiting or ready).
    var isActive: Bool { ending == nil }
    /// True when a copy is held for the patron.
    var isReady: Bool { ending == nil && readyUntil != nil }
}
