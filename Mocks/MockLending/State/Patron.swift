import Catalog
import Foundation

/// A library card holder of the simulated library.
struct Patron: Sendable, Hashable {
    /// The card number, as the patron types it.
    var card: String
    /// The PIN that proves the card is theirs (used by lending, which comes next).
    var pin: String
    /// The name shown on the patron's page.
    var name: String
    /// What this patron shows testers, for `GET /mock/state`.
    var demonstrates: String
}

/// A loan of one product to one patron.
struct Loan: Sendable, Hashable {
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
}

/// A place in a title's reservation queue held by a known patron.
///
/// Patrons the mock does not model are counted in `Licence.waiting`; the queue a patron sees is
/// those plus the reservations made here.
struct Reservation: Sendable, Hashable {
    /// The reservation's id (`ReservationID`).
    var id: String
    /// Index of the product in the catalogue.
    var productIndex: Int
    /// The patron's card.
    var card: String
    /// When it was made, on the virtual clock.
    var created: Date
}
