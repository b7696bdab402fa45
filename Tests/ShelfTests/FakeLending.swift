import Catalog
import Foundation

/// An in-memory library for one card: loans and reservations the test sets, products for authors.
actor FakeLending: LendingService, PatronLending {
    var currentLoans: [Loan] = []
    var currentReservations: [Reservation] = []
    var products: [String: Product] = [:]
    private(set) var productLookups = 0

    func set(loans: [Loan], reservations: [Reservation] = []) {
        currentLoans = loans
        currentReservations = reservations
    }

    func add(_ product: Product) { products[product.id] = product }

    func search(_ request: SearchRequest) async throws -> SearchPage {
        SearchPage(products: Array(products.values), total: products.count, offset: 0)
    }

    func product(id: String) async throws -> Product {
        productLookups += 1
        guard let product = products[id] else { throw LendingError(.notFound, "No product \(id).") }
        return product
    }

    func availability(productID: String, card: String?) async throws -> Availability { Availability(available: true) }
    func library() async throws -> LibraryPage { LibraryPage(name: "Fake library") }
    func verifyPatron(card: String, pin: String) async throws -> Patron {
        Patron(card: card, name: "Test", loansThisMonth: currentLoans.count, maxLoansPerMonth: 5)
    }
    func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        throw LendingError(.unsupported, "Not in the fake.")
    }
    func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        onlyActive ? currentLoans.filter(\.active) : currentLoans
    }
    func loan(id: String) async throws -> Loan {
        guard let loan = currentLoans.first(where: { $0.id == id }) else {
            throw LendingError(.notFound, "No loan \(id).")
        }
        return loan
    }
    func returnLoan(id: String, card: String?) async throws { currentLoans.removeAll { $0.id == id } }
    func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        throw LendingError(.unsupported, "Not in the fake.")
    }
    func reservations(card: String) async throws -> [Reservation] { currentReservations }
    func cancelReservation(id: String, card: String?) async throws { currentReservations.removeAll { $0.id == id } }
}
