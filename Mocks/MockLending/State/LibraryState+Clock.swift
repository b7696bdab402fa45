import Catalog
import Foundation

/// Time passing: loans run out, copies come back and go to the next in the queue, ready
/// reservations lapse, and the month's limits and budget start again.
extension LibraryState {
    /// Moves the clock to `date` and processes every day that has begun since the last move.
    ///
    /// Everything the mock does by time happens at the library's midnight, so a move within one
    /// day costs a `Calendar` look-up and nothing else. Moving back does not undo anything: loans
    /// that ended stay ended, and the days are processed again (finding nothing new) once the
    /// clock passes them.
    mutating func moveClock(to date: Date) {
        clock = date
        let day = DayDate(date, in: rules.timeZone)
        guard day > today else {
            today = day
            return
        }
        var processed = today
        while let next = nextEvent(after: processed), next <= day {
            processDay(next, previous: processed)
            processed = next
        }
        today = day
    }

    /// The first day after `day` on which something happens: a loan or other loan has run out
    /// (the day after its last day), a ready reservation lapses, or a month begins.
    func nextEvent(after day: DayDate) -> DayDate? {
        let month =
            day.month == 12
            ? DayDate(year: day.year + 1, month: 1, day: 1) : DayDate(year: day.year, month: day.month + 1, day: 1)
        var earliest = month
        for loan in loans where loan.isActive { earliest = min(earliest, loan.expires.adding(days: 1)) }
        for expiries in otherLoans.values {
            if let first = expiries.first { earliest = min(earliest, first.adding(days: 1)) }
        }
        for reservation in reservations {
            if reservation.isReady, let until = reservation.readyUntil {
                earliest = min(earliest, until.adding(days: 1))
            }
        }
        return max(earliest, day.adding(days: 1))
    }

    /// What happens at the start of `day`.
    mutating func processDay(_ day: DayDate, previous: DayDate) {
        var touched = Set<Int>()
        for k in loans.indices where loans[k].isActive && loans[k].expires < day {
            loans[k].ending = .expired
            licences[loans[k].productIndex].onLoan -= 1
            touched.insert(loans[k].productIndex)
        }
        for (index, expiries) in otherLoans {
            let ended = expiries.prefix { $0 < day }.count
            guard ended > 0 else { continue }
            otherLoans[index] = ended == expiries.count ? nil : Array(expiries.dropFirst(ended))
            licences[index].onLoan -= ended
            touched.insert(index)
        }
        for k in reservations.indices where reservations[k].isReady {
            if let until = reservations[k].readyUntil, until < day {
                reservations[k].ending = .lapsed
                touched.insert(reservations[k].productIndex)
            }
        }
        let newMonth = (day.year, day.month) != (previous.year, previous.month)
        if newMonth { payPerLoanUsed = 0 }
        // In index order, so that equal seeds give equal states.
        for index in touched.sorted() { passOnFreeCopies(index, on: day) }
        if newMonth { readyPayPerLoanReservations(on: day) }
    }

    /// Gives the free copies of a copies title to those waiting: first to the patrons the mock
    /// does not model (who borrow at once), then to reservations in the order they were made
    /// (which become ready for `readyDays`). Keeps the invariant that a free copy means nobody
    /// waits.
    mutating func passOnFreeCopies(_ index: Int, on day: DayDate) {
        guard licences[index].model == .copies else { return }
        var free = licences[index].copies - licences[index].onLoan - queueCounts(index).ready
        while free > 0 {
            if licences[index].waiting > 0 {
                licences[index].waiting -= 1
                licences[index].onLoan += 1
                otherLoans[index, default: []].append(day.adding(days: rules.loanPeriodDays))
                otherLoans[index]?.sort()
            } else if let next = reservations.firstIndex(where: {
                $0.productIndex == index && $0.isActive && $0.readyUntil == nil
            }) {
                reservations[next].readyUntil = day.adding(days: rules.readyDays)
            } else {
                break
            }
            free -= 1
        }
    }

    /// A new month refills the pay-per-loan budget: those who reserved a pay-per-loan title can
    /// borrow it now.
    mutating func readyPayPerLoanReservations(on day: DayDate) {
        for k in reservations.indices
        where reservations[k].isActive && reservations[k].readyUntil == nil
            && licences[reservations[k].productIndex].model == .ppu
        {
            reservations[k].readyUntil = day.adding(days: rules.readyDays)
        }
    }
}
