import Catalog
import Foundation

/// A lending service that may still be starting: every call waits for it (starting it if no
/// one has), then goes through.
///
/// The built-in mock library binds its port and indexes its catalogue while the banner and the
/// prompt are already on screen; the first command waits for it if it has to. A one-shot command
/// that never asks the library (`bok read FILE`) never starts it.
struct DeferredLendingService: LendingService, PatronLending {
    let ready: StartOnDemand<any LendingService & PatronLending>

    /// The service, once started.
    var service: any LendingService & PatronLending {
        get async throws { try await ready.value }
    }

    func search(_ request: SearchRequest) async throws -> SearchPage { try await service.search(request) }
    func product(id: String) async throws -> Product { try await service.product(id: id) }
    func availability(productID: String, card: String?) async throws -> Availability {
        try await service.availability(productID: productID, card: card)
    }
    func library() async throws -> LibraryPage { try await service.library() }
    func similar(productID: String, card: String?, limit: Int) async throws -> [Product] {
        try await service.similar(productID: productID, card: card, limit: limit)
    }
    func verifyPatron(card: String, pin: String) async throws -> Patron {
        try await service.verifyPatron(card: card, pin: pin)
    }
    func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        try await service.createLoan(card: card, pin: pin, productID: productID)
    }
    func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        try await service.loans(card: card, onlyActive: onlyActive)
    }
    func loan(id: String) async throws -> Loan { try await service.loan(id: id) }
    func returnLoan(id: String, card: String?) async throws { try await service.returnLoan(id: id, card: card) }
    func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        try await service.reserve(card: card, pin: pin, productID: productID)
    }
    func reservations(card: String) async throws -> [Reservation] { try await service.reservations(card: card) }
    func cancelReservation(id: String, card: String?) async throws {
        try await service.cancelReservation(id: id, card: card)
    }
}
