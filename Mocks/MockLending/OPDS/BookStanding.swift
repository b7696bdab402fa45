import Catalog
import Foundation

/// How one title stands for one patron (or for anyone, when nobody is logged in): what the OPDS
/// face writes as `opds:availability`, `opds:holds` and `opds:copies`, and which links it offers.
///
/// Read from the same state and with the same rules as the Elib API's answers
/// (`LibraryState.availability`, `reservationView`), so both faces tell a patron the same thing.
struct BookStanding: Sendable {
    /// The patron's own relation to the title.
    enum Mine: Sendable {
        /// None (or nobody is logged in).
        case none
        /// An active loan: its id, when it was made and its last day.
        case loan(id: String, since: Date, lastDay: DayDate)
        /// A reservation waiting in the queue, made at `since`, at `position`, expected about `estimate`.
        case waiting(id: String, since: Date, position: Int, estimate: DayDate?)
        /// A reservation whose copy is held for the patron until `lastDay`.
        case ready(id: String, since: Date, lastDay: DayDate, position: Int)
    }

    /// The Elib API's availability of the title for this card (for anyone when nil).
    var availability: Availability
    /// Patrons waiting for the title (`opds:holds total`).
    var holds: Int
    /// Copies the library owns and copies free now, for titles lent by copies (nil otherwise).
    var copies: (total: Int, available: Int)?
    var mine: Mine

    /// The standing of product `index` for `card` (nil: nobody logged in) in `state`.
    init(_ index: Int, card: String?, in state: borrowing LibraryState) {
        availability = state.availability(index, card: card)
        holds = state.waiting(index)
        let licence = state.licences[index]
        if licence.model == .copies {
            let free = licence.copies - licence.onLoan - state.queueCounts(index).ready
            copies = (licence.copies, max(0, free))
        }
        mine = .none
        guard let card else { return }
        if let loan = state.loans.last(where: { $0.card == card && $0.productIndex == index && $0.isActive }) {
            mine = .loan(id: loan.id, since: loan.created, lastDay: loan.expires)
        } else if let reservation = state.reservations.last(where: {
            $0.card == card && $0.productIndex == index && $0.isActive
        }) {
            let view = state.reservationView(reservation)
            if let lastDay = reservation.readyUntil {
                mine = .ready(
                    id: reservation.id, since: reservation.created, lastDay: lastDay, position: view.queuePosition)
            } else {
                mine = .waiting(
                    id: reservation.id, since: reservation.created, position: view.queuePosition,
                    estimate: view.estimatedDate)
            }
        }
    }

    /// Whether the patron has the title on loan or reserved (what `revoke` would end).
    var isMine: Bool {
        if case .none = mine { return false }
        return true
    }
}
