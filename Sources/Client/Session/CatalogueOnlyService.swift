import Catalog
import Localization

/// The lending side of a library that is an OPDS catalogue: it has none, and says what works instead.
struct CatalogueOnlyService: LendingService, PatronLending {
    let name: String

    private var refusal: LendingError {
        LendingError(
            .unsupported,
            tr(
                "{library} is an OPDS catalogue: browse, search, more, back, info N, get N and read N work here; "
                    + "borrowing with a library card needs an Elib library.",
                ["library": name]))
    }

    func search(_ request: SearchRequest) async throws -> SearchPage { throw refusal }
    func product(id: String) async throws -> Product { throw refusal }
    func availability(productID: String, card: String?) async throws -> Availability { throw refusal }
    func library() async throws -> LibraryPage { throw refusal }
    func verifyPatron(card: String, pin: String) async throws -> Patron { throw refusal }
    func createLoan(card: String, pin: String, productID: String) async throws -> Loan { throw refusal }
    func loans(card: String, onlyActive: Bool) async throws -> [Loan] { [] }
    func loan(id: String) async throws -> Loan { throw refusal }
    func returnLoan(id: String, card: String?) async throws { throw refusal }
    func reserve(card: String, pin: String, productID: String) async throws -> Reservation { throw refusal }
    func reservations(card: String) async throws -> [Reservation] { [] }
    func cancelReservation(id: String, card: String?) async throws { throw refusal }
}
