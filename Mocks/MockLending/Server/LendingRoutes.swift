import Catalog
import Foundation
import Hummingbird
import NIOCore

/// The lending calls of `elib-api.md`: verify a patron, create, list, read and return loans,
/// reserve, list and cancel reservations.
///
/// POST calls take a form (`ServiceID`, `Card`, `ProductID`, `Pin`, `Checksum`); the PIN is read
/// from the body only and never written anywhere. GET and DELETE take `serviceid`, `checksum` and
/// `card` in the query. `DELETE` also accepts an optional `card` (an extension): when given, the
/// loan or reservation must be that card's.
struct LendingRoutes: Sendable {
    let library: MockLibrary
    let authentication: ServiceAuthentication

    func register(on api: RouterGroup<MockRequestContext>) {
        api.post("loans") { request, context in try await createLoan(request, context: context) }
        api.get("loans") { request, _ in try loans(request) }
        api.get("loans/:id") { request, context in try loan(request, id: context.parameters.require("id")) }
        // The patron check, early return and reservations are extensions a plain Elib server lacks.
        guard library.configuration.dialect != .upstreamOnly else { return }
        api.post("patrons/verify") { request, _ in try await verify(request) }
        api.delete("loans/:id") { request, context in try returnLoan(request, id: context.parameters.require("id")) }
        api.post("reservations") { request, _ in try await reserve(request) }
        api.get("reservations") { request, _ in try reservations(request) }
        api.delete("reservations/:id") { request, context in
            try cancelReservation(request, id: context.parameters.require("id"))
        }
    }

    // MARK: Patrons

    func verify(_ request: Request) async throws -> Response {
        let form = try await request.formFields()
        let card = form["Card"] ?? ""
        try authentication.check(form, over: [card])
        let patron = try refusing { () throws(LendingRefusal) in
            try library.update { (state) throws(LendingRefusal) in
                state.patronView(try state.authenticate(card: card, pin: form["Pin"]))
            }
        }
        return JSONResponse.make(Wire.PatronAnswer(patron: patron))
    }

    // MARK: Loans

    func createLoan(_ request: Request, context: MockRequestContext) async throws -> Response {
        let form = try await request.formFields()
        let card = form["Card"] ?? ""
        let productID = form["ProductID"] ?? ""
        try authentication.check(form, over: [card, productID])
        guard let index = library.index(of: productID) else { throw APIFailure.productNotFound }
        let (loan, drop) = try refusing { () throws(LendingRefusal) in
            try library.update { (state) throws(LendingRefusal) in
                (try state.borrow(index, card: card, pin: form["Pin"]), state.faults.dropAfterCommit)
            }
        }
        if drop {
            // The loan is made; the answer is lost on the way.
            try? await context.channel.close()
            throw FaultMiddleware.Dropped()
        }
        return JSONResponse.make(Wire.CreatedLoanAnswer(createdLoan: wire(loan, request)))
    }

    func loans(_ request: Request) throws -> Response {
        let query = QueryParameters(request.uri.query)
        let card = query["card"] ?? ""
        try authentication.check(query, over: [card])
        // Upstream's default is not documented; without `onlyactive=false` only active loans are listed.
        let onlyActive = query["onlyactive"]?.lowercased() != "false"
        let loans = try refusing { () throws(LendingRefusal) in
            try library.read { (state) throws(LendingRefusal) -> [Loan] in
                let patron = try state.knownPatron(card)
                return state.loans.filter { $0.card == patron.card && (!onlyActive || $0.isActive) }
            }
        }
        return JSONResponse.make(Wire.LoansAnswer(loans: loans.map { wire($0, request) }))
    }

    func loan(_ request: Request, id: String) throws -> Response {
        try authentication.check(QueryParameters(request.uri.query), over: [id])
        let loan = try refusing { () throws(LendingRefusal) in
            try library.read { (state) throws(LendingRefusal) -> Loan in state.loans[try state.loanIndex(id)] }
        }
        return JSONResponse.make(Wire.LoanAnswer(loan: wire(loan, request)))
    }

    func returnLoan(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [id])
        try refusing { () throws(LendingRefusal) in
            try library.update { (state) throws(LendingRefusal) in try state.returnLoan(id: id, card: query["card"]) }
        }
        return Response(status: .noContent)
    }

    // MARK: Reservations

    func reserve(_ request: Request) async throws -> Response {
        let form = try await request.formFields()
        let card = form["Card"] ?? ""
        let productID = form["ProductID"] ?? ""
        try authentication.check(form, over: [card, productID])
        guard let index = library.index(of: productID) else { throw APIFailure.productNotFound }
        let reservation = try refusing { () throws(LendingRefusal) in
            try library.update { (state) throws(LendingRefusal) in
                state.reservationView(try state.reserve(index, card: card, pin: form["Pin"]))
            }
        }
        return JSONResponse.make(Wire.CreatedReservationAnswer(createdReservation: reservation))
    }

    func reservations(_ request: Request) throws -> Response {
        let query = QueryParameters(request.uri.query)
        let card = query["card"] ?? ""
        try authentication.check(query, over: [card])
        let reservations = try refusing { () throws(LendingRefusal) in
            try library.read { (state) throws(LendingRefusal) -> [Catalog.Reservation] in
                let patron = try state.knownPatron(card)
                return state.reservations.filter { $0.card == patron.card && $0.isActive }.map(state.reservationView)
            }
        }
        return JSONResponse.make(Wire.ReservationsAnswer(reservations: reservations))
    }

    func cancelReservation(_ request: Request, id: String) throws -> Response {
        let query = QueryParameters(request.uri.query)
        try authentication.check(query, over: [id])
        try refusing { () throws(LendingRefusal) in
            try library.update { (state) throws(LendingRefusal) in
                try state.cancelReservation(id: id, card: query["card"])
            }
        }
        return Response(status: .noContent)
    }

    // MARK: Answers

    /// Runs a rule of the library, answering its refusal as an API failure.
    @discardableResult
    func refusing<T>(_ body: () throws(LendingRefusal) -> T) throws(APIFailure) -> T {
        do {
            return try body()
        } catch {
            throw APIFailure(error)
        }
    }

    /// A loan as the API answers it, its cover and content links absolute for this request's host.
    func wire(_ loan: Loan, _ request: Request) -> Catalog.Loan {
        let origin = LibraryRoutes.origin(of: request, fallback: library.configuration)
        let product = library.catalog.products[loan.productIndex]
        let cover = product.coverImage.map { $0.hasPrefix("/") ? origin + $0 : $0 }
        let epub = Catalog.Loan.Link(
            formatID: "4104",
            contents: [
                Catalog.Loan.Link.Part(part: 1, url: origin + ContentRoutes.loanPath(loan.id))
            ])
        return Catalog.Loan(
            id: loan.id, productID: product.id, title: product.title, coverImage: cover,
            createdDate: loan.created, expiryDate: loan.expires, active: loan.isActive, links: [epub])
    }
}
