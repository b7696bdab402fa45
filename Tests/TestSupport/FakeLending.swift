public import Catalog

/// An in-memory library for one card: loans and reservations the test sets, products for authors.
public actor FakeLending: LendingService, PatronLending {
    public var currentLoans: [Loan] = []
    public var currentReservations: [Reservation] = []
    public var products: [String: Product] = [:]
    public private(set) var productLookups = 0

    /// An empty library.
    public init() {}

    public func set(loans: [Loan], reservations: [Reservation] = []) {
        currentLoans = loans
        currentReservations = reservations
    }

    public func add(_ product: Product) { products[product.id] = product }

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        SearchPage(products: Array(products.values), total: products.count, offset: 0)
    }

    public func product(id: String) async throws -> Product {
        productLookups += 1
        guard let product = products[id] else { throw LendingError(.notFound, "No product \(id).") }
        return product
    }

    public func availability(productID: String, card: String?) async throws -> Availability {
        Availability(available: true)
    }
    public func library() async throws -> LibraryPage { LibraryPage(name: "Fake library") }
    public func verifyPatron(card: String, pin: String) async throws -> Patron {
        Patron(card: card, name: "Test", loansThisMonth: currentLoans.count, maxLoansPerMonth: 5)
    }
    public func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        throw LendingError(.unsupported, "Not in the fake.")
    }
    public func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        onlyActive ? currentLoans.filter(\.active) : currentLoans
    }
    public func loan(id: String) async throws -> Loan {
        guard let loan = currentLoans.first(where: { $0.id == id }) else {
            throw LendingError(.notFound, "No loan \(id).")
        }
        return loan
    }
    public func returnLoan(id: String, card: String?) async throws { currentLoans.removeAll { $0.id == id } }
    public func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        throw LendingError(.unsupported, "Not in the fake.")
    }
    public func reservations(card: String) async throws -> [Reservation] { currentReservations }
    public func cancelReservation(id: String, card: String?) async throws {
        currentReservations.removeAll { $0.id == id }
    }
}
