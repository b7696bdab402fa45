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
        guard products.isActive(index, on: today) else {
            throw LendingRefusal(
                .conflict,
                Said("This book cannot be borrowed at the moment: the library's licence for it is not active."))
        }
        if loans.contains(where: { $0.card == card && $0.productIndex == index && $0.isActive }) {
            throw LendingRefusal(.conflict, Said("You already have this book on loan"))
        }
        if let limit = borrowerLimit(card: card), let day = limit.estimatedDate {
            let reason =
                limit.pace.map {
                    Said(
                        "You have made {loans} loans in {days} days, as many as the library allows; you can borrow "
                            + "again from {day}.",
                        ["loans": .number($0.loans), "days": .number($0.days), "day": .day(day)])
                }
                ?? Said(
                    "You have made {loans} loans this month, the most the library allows; you can borrow again "
                        + "from {day}.",
                    ["loans": .number(rules.maxLoansPerMonth), "day": .day(day)])
            throw LendingRefusal(.conflict, reason)
        }
        let licence = licences[index]
        let ready = readyReservation(index, card: card)
        switch licence.model {
        case .copies:
            let held = queueCounts(index).ready
            if ready == nil && licence.onLoan + held >= licence.copies {
                let reason =
                    if held > 0 && licence.onLoan < licence.copies {
                        Said(
                            "The free copy of this book is held for a patron whose reservation is ready; reserve it "
                                + "to join the queue.")
                    } else if licence.copies == 1 {
                        Said("The only copy of this book is on loan; reserve it to join the queue.")
                    } else {
                        Said(
                            "All {count} copies of this book are on loan; reserve it to join the queue.",
                            ["count": .number(licence.copies)])
                    }
                throw LendingRefusal(.conflict, reason)
            }
        case .ppu:
            guard payPerLoanUsed < payPerLoanBudget else {
                throw LendingRefusal(
                    .conflict,
                    Said(
                        "The library has spent this month's budget for pay-per-loan e-books; try again from {day}, "
                            + "or reserve the book.",
                        ["day": .day(nextMonth)]))
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
            throw LendingRefusal(.forbidden, Said("This loan belongs to another card"))
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
            throw LendingRefusal(.notFound, Said("Loan {id} not found", ["id": .text(id)]))
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
            throw LendingRefusal(
                .gone,
                Said(
                    "Loan {id} ended after {day}; borrow the book again to read it.",
                    ["id": .text(id), "day": .day(loan.expires)]))
        case .returned(let date):
            throw LendingRefusal(
                .gone,
                Said(
                    "Loan {id} was returned on {day}; borrow the book again to read it.",
                    ["id": .text(id), "day": .day(DayDate(date, in: rules.timeZone))]))
        }
    }

    /// The patron as `POST patrons/verify` answers.
    func patronView(_ patron: Patron) -> Catalog.Patron {
        Catalog.Patron(
            card: patron.card, name: patron.name, loansThisMonth: loansThisMonth(card: patron.card),
            maxLoansPerMonth: rules.maxLoansPerMonth)
    }
}
