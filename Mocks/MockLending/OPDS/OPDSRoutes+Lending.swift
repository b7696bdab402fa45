import Catalog
import Foundation
import Hummingbird
import NIOCore

/// Borrowing, reserving, the shelf, returning and the loan's file over OPDS: each call is the
/// same `LibraryState` operation as the Elib API's (`borrow`, `reserve`, `returnLoan`,
/// `cancelReservation`, `readableLoan`), refused in the same words, with card and PIN from
/// HTTP Basic.
extension OPDSRoutes {
    func registerLending(on opds: RouterGroup<MockRequestContext>) {
        opds.get("books/:id/borrow") { request, context in
            try await borrow(request, id: context.parameters.require("id"), context: context)
        }
        opds.post("books/:id/borrow") { request, context in
            try await borrow(request, id: context.parameters.require("id"), context: context)
        }
        opds.get("books/:id/revoke") { request, context in try revoke(request, id: context.parameters.require("id")) }
        opds.post("books/:id/revoke") { request, context in try revoke(request, id: context.parameters.require("id")) }
        opds.delete("books/:id/revoke") { request, context in
            try revoke(request, id: context.parameters.require("id"))
        }
        opds.get("loans") { request, _ in try shelf(request) }
        opds.get("loans/:id/fulfil") { request, context in try fulfil(request, id: context.parameters.require("id")) }
    }

    /// The login of a call that needs one; without it, 401 with the authentication document.
    func login(_ request: Request) throws -> BasicLogin {
        guard let login = BasicLogin(request) else { throw OPDSProblem.loginWanted(authenticationDocument(request)) }
        return login
    }

    // MARK: Borrow

    /// What a borrow link did.
    private enum Outcome: Sendable {
        /// The patron had it on loan already: nothing changed (200).
        case alreadyLent
        /// A loan, or a hold on a title that is out, was made (201).
        case made
    }

    /// Borrows the book when the patron can have it now (a ready reservation included), else
    /// places a hold; answers the entry as it now stands for them.
    func borrow(_ request: Request, id: String, context: MockRequestContext) async throws -> Response {
        let login = try login(request)
        guard let index = library.index(of: id) else { throw OPDSProblem.unknownBook(id) }
        var attempt = OPDSProblem.Attempt.loan
        var limitReached = false
        let answer: (Outcome, BookStanding, Bool)
        do {
            answer = try library.update { (state) throws(LendingRefusal) in
                try state.authenticate(card: login.card, pin: login.pin)
                let standing = BookStanding(index, card: login.card, in: state)
                switch standing.mine {
                case .loan:
                    return (.alreadyLent, standing, false)
                case .ready:
                    _ = try state.borrow(index, card: login.card, pin: login.pin)
                case .waiting where !standing.availability.available:
                    // Already in the queue: the Elib API's own refusal says so.
                    attempt = .hold
                    _ = try state.reserve(index, card: login.card, pin: login.pin)
                case .waiting, .none:
                    // (A waiting patron whose title can be lent now, e.g. with next month's
                    // pay-per-loan budget, borrows it: the loan fulfils the reservation.)
                    // A title the patron's own limit stops is borrowed, to be refused in the limit's words.
                    let reason = standing.availability.reason
                    if standing.availability.available || reason == .borrower {
                        limitReached = reason == .borrower
                        _ = try state.borrow(index, card: login.card, pin: login.pin)
                    } else {
                        attempt = .hold
                        _ = try state.reserve(index, card: login.card, pin: login.pin)
                    }
                }
                return (.made, BookStanding(index, card: login.card, in: state), state.faults.dropAfterCommit)
            }
        } catch {
            throw OPDSProblem(error, while: attempt, limitReached: limitReached)
        }
        let (outcome, standing, drop) = answer
        if drop {
            // The loan is made; the answer is lost on the way (the Elib API's `DropAfterCommit`).
            try? await context.channel.close()
            throw FaultMiddleware.Dropped()
        }
        let book = OPDSFeedWriter.Book(product: library.catalog.products[index], standing: standing)
        return Self.answer(
            writer().entryDocument(book), type: OPDSType.entry, status: outcome == .made ? .created : .ok)
    }

    // MARK: Revoke

    /// Returns the patron's loan early, or cancels their reservation; answers the entry as it now stands.
    func revoke(_ request: Request, id: String) throws -> Response {
        let login = try login(request)
        guard let index = library.index(of: id) else { throw OPDSProblem.unknownBook(id) }
        let title = library.catalog.products[index].title
        let standing: BookStanding
        do {
            standing = try library.update { (state) throws(LendingRefusal) in
                try state.authenticate(card: login.card, pin: login.pin)
                switch BookStanding(index, card: login.card, in: state).mine {
                case .loan(let loan, _, _):
                    try state.returnLoan(id: loan, card: login.card)
                case .waiting(let reservation, _, _, _), .ready(let reservation, _, _, _):
                    try state.cancelReservation(id: reservation, card: login.card)
                case .none:
                    throw LendingRefusal(
                        .notFound, Said("“{title}” is not on loan to you or reserved by you.", ["title": .text(title)]))
                }
                return BookStanding(index, card: login.card, in: state)
            }
        } catch {
            throw OPDSProblem(error, while: .revoke)
        }
        let book = OPDSFeedWriter.Book(product: library.catalog.products[index], standing: standing)
        return Self.answer(writer().entryDocument(book), type: OPDSType.entry)
    }

    // MARK: Shelf

    /// `GET /opds/loans`: the patron's active loans, then their reservations (waiting or ready).
    func shelf(_ request: Request) throws -> Response {
        let login = try login(request)
        let state: LibraryState
        do {
            state = try library.update { (state) throws(LendingRefusal) in
                try state.authenticate(card: login.card, pin: login.pin)
                return state
            }
        } catch {
            throw OPDSProblem(error, while: .look)
        }
        let lent = state.loans.filter { $0.card == login.card && $0.isActive }.map(\.productIndex)
        let held = state.reservations.filter { $0.card == login.card && $0.isActive }.map(\.productIndex)
        var seen = Set<Int>()
        let books = (lent + held).filter { seen.insert($0).inserted }.map { index in
            OPDSFeedWriter.Book(
                product: library.catalog.products[index], standing: BookStanding(index, card: login.card, in: state))
        }
        let links = [
            OPDSFeedWriter.Link(rel: "self", href: Self.base + "/loans", type: OPDSType.acquisition),
            OPDSFeedWriter.Link(rel: "start", href: Self.base + "/", type: OPDSType.navigation),
        ]
        let xml = writer(state).acquisitionFeed(
            id: "urn:bok:opds:loans:" + login.card, title: Said("Loans").text(for: request), links: links, page: nil,
            books: books)
        return Self.answer(xml, type: OPDSType.acquisition)
    }

    // MARK: Fulfil

    /// `GET /opds/loans/{id}/fulfil`: the loan's EPUB, served as the Elib loan's content link serves it
    /// (ranges, digest, content faults), to the loan's own card only.
    func fulfil(_ request: Request, id: String) throws -> Response {
        let login = try login(request)
        let loan: Loan
        // A locked card is a login problem (401); another card's loan is not (403).
        var loggedIn = false
        do {
            loan = try library.update { (state) throws(LendingRefusal) in
                try state.authenticate(card: login.card, pin: login.pin)
                loggedIn = true
                guard state.loans[try state.loanIndex(id)].card == login.card else {
                    throw LendingRefusal(.forbidden, Said("This loan belongs to another card"))
                }
                return try state.readableLoan(id)
            }
        } catch {
            throw OPDSProblem(error, while: loggedIn ? .fulfil : .look)
        }
        return content.serve(content.book(loan.productIndex, sample: false), request)
    }
}
