import Catalog
import Foundation

/// Reservation queues: first come, first served, per title.
extension LibraryState {
    /// Puts `card` in the queue for product `index`.
    /// - Throws: `LendingRefusal` for a wrong PIN, an inactive title, a title the patron has on
    ///   loan or has reserved already, and a title that can be borrowed now.
    mutating func reserve(_ index: Int, card: String, pin: String?) throws(LendingRefusal) -> Reservation {
        try authenticate(card: card, pin: pin)
        guard products.isActive(index, on: today) else {
            throw LendingRefusal(
                .conflict, Said("This book cannot be reserved: the library's licence for it is not active."))
        }
        if reservations.contains(where: { $0.card == card && $0.productIndex == index && $0.isActive }) {
            throw LendingRefusal(.conflict, Said("You have already reserved this book"))
        }
        if loans.contains(where: { $0.card == card && $0.productIndex == index && $0.isActive }) {
            throw LendingRefusal(.conflict, Said("You already have this book on loan"))
        }
        // Whether the title itself could be lent, whatever this patron's monthly limit says.
        if availability(index, card: nil, limit: nil).available {
            throw LendingRefusal(.conflict, Said("The book is available; borrow it instead"))
        }
        let reservation = Reservation(id: takeID(prefix: "R"), productIndex: index, card: card, created: clock)
        reservations.append(reservation)
        return reservation
    }

    /// Leaves a queue; a copy held for the reservation goes to the next in the queue at once.
    ///
    /// Cancelling a reservation that has already ended changes nothing and succeeds.
    /// - Parameter card: When given, the card the reservation must belong to.
    /// - Throws: `.notFound` for an unknown reservation, `.forbidden` when it is another card's.
    mutating func cancelReservation(id: String, card: String?) throws(LendingRefusal) {
        guard let k = reservations.firstIndex(where: { $0.id == id }) else {
            throw LendingRefusal(.notFound, Said("Reservation {id} not found", ["id": .text(id)]))
        }
        if let card, !card.isEmpty, reservations[k].card != card {
            throw LendingRefusal(.forbidden, Said("This reservation belongs to another card"))
        }
        guard reservations[k].isActive else { return }
        let wasReady = reservations[k].isReady
        reservations[k].ending = .cancelled
        if wasReady { passOnFreeCopies(reservations[k].productIndex, on: today) }
    }

    /// A reservation as `GET reservations` answers: its place in the queue (the patrons the mock
    /// does not model stand first), when the patron's turn is expected and whether it has come.
    func reservationView(_ reservation: Reservation) -> Catalog.Reservation {
        let index = reservation.productIndex
        let queue = reservations.filter { $0.productIndex == index && $0.isActive }
        let ahead = queue.firstIndex { $0.id == reservation.id } ?? queue.count
        let position = licences[index].waiting + ahead + 1
        let estimate: DayDate?
        if let until = reservation.readyUntil {
            estimate = until.adding(days: -rules.readyDays)
        } else {
            estimate = estimatedDay(index, waitingPlace: position - queue.filter(\.isReady).count)
        }
        return Catalog.Reservation(
            id: reservation.id, productID: products[index].id, title: products[index].title,
            queuePosition: position, estimatedDate: estimate,
            ready: reservation.isReady, readyUntil: reservation.isReady ? reservation.readyUntil : nil)
    }

    /// `availability` with the day a patron who reserved now could expect the book (the search
    /// extension's `EstimatedDate`), for a title that is out. Kept apart from `availability` because
    /// a search filters the whole catalogue by availability and needs no dates for that.
    func withEstimate(_ availability: Availability, _ index: Int) -> Availability {
        guard !availability.available else { return availability }
        var answer = availability
        // `library` and `borrower` carry their day already (the 1st, or the pace's next day).
        if availability.reason == .product {
            answer.estimatedDate = estimatedDay(index, waitingPlace: waiting(index) + 1 - queueCounts(index).ready)
        }
        return answer
    }

    /// When the patron at `place` among those still waiting (1 = next) may expect a copy.
    ///
    /// For a copies title with `c` copies: the ((place−1) mod c)-th copy to come back, counted
    /// after ⌊(place−1)/c⌋ more loan periods (each patron ahead keeps it that long). A copy
    /// held for a ready reservation counts as lent today. Pay-per-loan titles come back with
    /// next month's budget.
    func estimatedDay(_ index: Int, waitingPlace place: Int) -> DayDate? {
        let licence = licences[index]
        switch licence.model {
        case .access:
            return today
        case .ppu:
            return payPerLoanUsed >= payPerLoanBudget ? nextMonth : today
        case .copies:
            let copies = max(1, licence.copies)
            var comingBack = (otherLoans[index] ?? []).map { $0.adding(days: 1) }
            comingBack += loans.filter { $0.productIndex == index && $0.isActive }.map { $0.expires.adding(days: 1) }
            comingBack += Array(
                repeating: today.adding(days: rules.loanPeriodDays + 1), count: queueCounts(index).ready)
            comingBack.sort()
            while comingBack.count < copies { comingBack.insert(today, at: 0) }
            let k = max(0, place - 1)
            return max(today, comingBack[k % copies].adding(days: (k / copies) * rules.loanPeriodDays))
        }
    }
}
