public import Catalog

/// A lending service that is never called: rendering needs only a session.
public struct UnusedService: LendingService, PatronLending {
    /// What every call throws.
    public struct Unused: Error {}

    /// A service to hand a session that only renders.
    public init() {}

    public func search(_ request: SearchRequest) async throws -> SearchPage { throw Unused() }
    public func product(id: String) async throws -> Product { throw Unused() }
    public func availability(productID: String, card: String?) async throws -> Availability { throw Unused() }
    public func library() async throws -> LibraryPage { throw Unused() }
    public func verifyPatron(card: String, pin: String) async throws -> Patron { throw Unused() }
    public func createLoan(card: String, pin: String, productID: String) async throws -> Loan { throw Unused() }
    public func loans(card: String, onlyActive: Bool) async throws -> [Loan] { throw Unused() }
    public func loan(id: String) async throws -> Loan { throw Unused() }
    public func returnLoan(id: String, card: String?) async throws { throw Unused() }
    public func reserve(card: String, pin: String, productID: String) async throws -> Reservation { throw Unused() }
    public func reservations(card: String) async throws -> [Reservation] { throw Unused() }
    public func cancelReservation(id: String, card: String?) async throws { throw Unused() }
}
