import Catalog
import Foundation

/// A patron's own limits: loans per calendar month and, when the library sets one, the pace
/// (loans in any run of days). Returned loans count too: giving a book back early gives no loan back.
extension LibraryState {
    /// Loans a patron has made since the start of the clock's month (returned ones count too).
    func loansThisMonth(card: String) -> Int {
        let start = monthStart
        return loans.reduce(0) { $0 + ($1.card == card && $1.created >= start ? 1 : 0) }
    }

    /// The first day `card` may borrow again under the pace, or nil when the pace (or none) lets
    /// them borrow today.
    ///
    /// The window is whole days of the library's calendar: with 3 per 7 days, loans made on
    /// Thursday count until Wednesday of the week after, and the next loan may be made on
    /// Thursday, the day the oldest of the last 3 leaves the window.
    func nextPacedDay(card: String) -> DayDate? {
        guard let pace = rules.loanPace else { return nil }
        let windowStart = today.adding(days: 1 - pace.days)
        let recent = loans.lazy.filter { $0.card == card }.map { DayDate($0.created, in: self.rules.timeZone) }
            .filter { $0 >= windowStart }.sorted()
        guard recent.count >= pace.loans else { return nil }
        // The loan that must leave the window before one more fits in it.
        return recent[recent.count - pace.loans].adding(days: pace.days)
    }

    /// Why `card` may not make a loan now, as availability says it: `borrower`, with the first day
    /// a loan is possible again and, when the pace and not the month stops them, the pace. Nil
    /// when they may borrow, and for unknown cards or none.
    func borrowerLimit(card: String?) -> Availability? {
        guard let card, patrons[card] != nil else { return nil }
        let monthUsed = loansThisMonth(card: card) >= rules.maxLoansPerMonth
        let paced = nextPacedDay(card: card)
        guard monthUsed || paced != nil else { return nil }
        // Both may bind: the later day is the one a loan is possible again, and it names the rule.
        if let paced, !monthUsed || paced > nextMonth {
            return Availability(available: false, reason: .borrower, estimatedDate: paced, pace: rules.loanPace)
        }
        return Availability(available: false, reason: .borrower, estimatedDate: nextMonth)
    }
}
