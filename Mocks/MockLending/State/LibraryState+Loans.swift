import Catalog
import Foundation

/// Borrowing and returning.
extension LibraryState {
    /// Lends product `index` to `card`, as one change of the state.
    ///
    /// The checks, in order: the card and PIN (and the lock), the title's licence being active,
    /// the patron not having it on loan already, the patron's monthly limit and pace, then a copy (or
    /// the budget for pay-per-loan). While others wait for a copies title its free copies are
    /// held for them, so only a patron whose reservation is ready gets one; borrowing fulfils
    /// that reservation.
    /// - Throws: `LendingRefusal` saying which check failed and what the patron can do.
    mutating func borrow(_ index: Int, card: String, pin: String?) throws(LendingRefusal) -> Loan {
        try authenticate(card: card, pin: pin)
        guard products[index].isActive(on: today) else {
            throw LendingRefusal(
                .conflict, "This book cannot be borrowed at the moment: the library's licence for it is not active.")
        }
        if loans.contains(where: { $0.card == card && $0.productIndex == index && $0.isActive }) {
            throw LendingRefusal(.conflict, "You already have this book on loan")
        }
        if let limit = borrowerLimit(card: card), let day = limit.estimatedDate {
            let made =
                limit.pace.map { "\($0.loans) loans in \($0.days) days, as many as" }
                ?? "\(rules.maxLoansPerMonth) loans this month, the most"
            throw LendingRefusal(
                .conflict, "You have made \(made) the library allows; you can borrow again from \(day).")
        }
        let licence = licences[index]
        let ready = readyReservation(index, card: card)
        switch licence.model {
        case .copies:
            let held = queueCounts(index).ready
            if ready == nil && licence.onLoan + held >= licence.copies {
                let copies = licence.copies == 1 ? "The only copy" : "All \(licence.copies) copies"
                throw LendingRefusal(
                    .conflict,
                    held > 0 && licence.onLoan < licence.copies
                        ? """
                        The free copy of this book is held for a patron whose reservation is ready; reserve it to \
                        join the queue.
                        """
                        : """
                        \(copies) of this book \(licence.copies == 1 ? "is" : "are") on loan; reserve it to join \
                        the queue.
                        """
                )
            }
        case .ppu:
            guard payPerLoanUsed < payPerLoanBudget else {
                throw LendingRefusal(
                    .conflict,
                    "The library has spent this month's budget for pay-per-loan e-books; "
                        + "try again from \(nextMonth), or reserve the book.")
            }
            payPerLoanUsed += 1
        case .access:
            break
        }
        // A patron who reserved the book and borrows it leaves the queue, ready or not (a free
        // copy with a reservation can only be a pay-per-loan title or an access one).
        if let mine = ready
            ?? reservations.firstIndex(where: { $0.productIndex == index && $0.card == card && $0.isActive })
        {
            reservations[mine].ending = .fulfilled
        }
        addLoan(productIndex: index, card: card, created: clock)
        return loans[loans.count - 1]
    }

    /// Ends a loan early; its copy goes to the next in the queue at once.
    ///
    /// Returning a loan that has already ended changes nothing and succeeds, so a client may
    /// repeat a return whose answer it lost.
    /// - Parameter card: When given, the card the loan must belong to.
    /// - Throws: `.notFound` for an unknown loan, `.forbidden` when it is another card's.
    mutating func returnLoan(id: String, card: String?) throws(LendingRefusal) {
        let k = try loanIndex(id)
        if let card, !card.isEmpty, loans[k].card != card {
            throw LendingRefusal(.forbidden, "This loan belongs to another card")
        }
        guard loans[k].isActive else { return }
        loans[k].ending = .returned(clock)
        let index = loans[k].productIndex
        licences[index].onLoan -= 1
        passOnFreeCopies(index, on: today)
    }

    /// The position of loan `id` in `loans`.
    /// - Throws: `.notFound` when there is no such loan.
    func loanIndex(_ id: String) throws(LendingRefusal) -> Int {
        guard let k = loans.firstIndex(where: { $0.id == id }) else {
            throw LendingRefusal(.notFound, "Loan \(id) not found")
        }
        return k
    }

    /// The loan whose content may be downloaded.
    /// - Throws: `.notFound` for an unknown loan, `.gone` once it has ended.
    func readableLoan(_ id: String) throws(LendingRefusal) -> Loan {
        let loan = loans[try loanIndex(id)]
        switch loan.ending {
        case nil:
            return loan
        case .expired:
            throw LendingRefusal(.gone, "Loan \(id) ended after \(loan.expires); borrow the book again to read it.")
        case .returned(let date):
            throw LendingRefusal(
                .gone,
                "Loan \(id) was returned on \(DayDate(date, in: rules.timeZone)); borrow the book again to read it.")
        }
    }

    /// The patron as `POST patrons/verify` answers.
    func patronView(_ patron: Patron) -> Catalog.Patron {
        Catalog.Patron(
            card: patron.card, name: patron.name, loansThisMonth: loansThisMonth(card: patron.card),
            maxLoansPerMonth: rules.maxLoansPerMonth)
    }
}
