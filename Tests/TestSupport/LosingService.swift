public import Catalog
import Synchronization

/// The real mock over HTTP, except that the borrow's answer is lost after the loan is made,
/// and the first `failingChecks` looks at the loans after it fail with HTTP 500.
public final class LosingService: LendingService, PatronLending {
    let base: HTTPLendingService
    let failingChecks: Int
    /// Looks at the loans left to fail, once the borrow is made.
    let failing = Mutex(0)

    public init(_ base: HTTPLendingService, failingChecks: Int) {
        self.base = base
        self.failingChecks = failingChecks
    }

    public func search(_ request: SearchRequest) async throws -> SearchPage { try await base.search(request) }
    public func product(id: String) async throws -> Product { try await base.product(id: id) }
    public func availability(productID: String, card: String?) async throws -> Availability {
        try await base.availability(productID: productID, card: card)
    }
    public func library() async throws -> LibraryPage { try await base.library() }
    public func verifyPatron(card: String, pin: String) async throws -> Patron {
        try await base.verifyPatron(card: card, pin: pin)
    }
    public func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        _ = try await base.createLoan(card: card, pin: pin, productID: productID)
        failing.withLock { $0 = failingChecks }
        throw LendingError(.dropped, "the connection closed before the answer")
    }
    public func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        let fail = failing.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        if fail { throw LendingError(.rejected, "The library could not answer (HTTP 500).", status: 500) }
        return try await base.loans(card: card, onlyActive: onlyActive)
    }
    public func loan(id: String) async throws -> Loan { try await base.loan(id: id) }
    public func returnLoan(id: String, card: String?) async throws { try await base.returnLoan(id: id, card: card) }
    public func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        try await base.reserve(card: card, pin: pin, productID: productID)
    }
    public func reservations(card: String) async throws -> [Reservation] { try await base.reservations(card: card) }
    public func cancelReservation(id: String, card: String?) async throws {
        try await base.cancelReservation(id: id, card: card)
    }
}
