public import Catalog
import Localization

/// The badge a book carries on the shelf: days left on a loan, `Sample`, a place in a queue, or `Ready`.
///
/// Derived, never stored: a badge is computed from the loan's expiry day and today's date, so it
/// is right after midnight without a sync.
public enum Badge: Sendable, Hashable {
    /// A loan with more than three days left (shown green).
    case daysLeft(Int)
    /// A loan with one to three days left (shown yellow).
    case fewDaysLeft(Int)
    /// A loan whose last day is today (shown red).
    case lastDay
    /// A loan that has ended (shown dim).
    case ended
    /// A free sample.
    case sample
    /// A reservation, with the place in the queue and the estimated day; the day shows its year
    /// when that is not `thisYear` (`#40 in queue · ~13 Jun 2028`).
    case queued(place: Int, estimate: DayDate?, thisYear: Int? = nil)
    /// A reservation whose turn has come: borrow it by the given day.
    case ready(until: DayDate)

    /// True for a reservation's badge, queued or ready.
    public var isReservation: Bool {
        switch self {
        case .queued, .ready: true
        default: false
        }
    }

    /// Days at or below which a loan's badge turns yellow.
    public static let warningDays = 3

    /// The badge of a loan that expires at the end of `expiry`, seen on `today`.
    public static func loan(expiry: DayDate, today: DayDate) -> Badge {
        let left = today.days(until: expiry)
        switch left {
        case ..<0: return .ended
        case 0: return .lastDay
        case 1...warningDays: return .fewDaysLeft(left)
        default: return .daysLeft(left)
        }
    }

    /// The badge's words: `12 days`, `1 day`, `today`, `ended`, `Sample`, `#2 in queue · ~9 Jan`, `Ready · borrow by
    /// 23 Nov`.
    public var text: String {
        switch self {
        case .daysLeft(let n), .fewDaysLeft(let n): return trn("{n} day", "{n} days", n)
        case .lastDay: return tr("today")
        case .ended: return tr("ended")
        case .sample: return tr("Sample")
        case .queued(let place, let estimate, let thisYear):
            return tr("#{place} in queue", ["place": place])
                + (estimate.map { " · ~\(Self.short($0, thisYear: thisYear))" } ?? "")
        case .ready(let until): return tr("Ready · borrow by {day}", ["day": Self.short(until)])
        }
    }

    private static func short(_ day: DayDate, thisYear: Int? = nil) -> String {
        let text = "\(day.day) \(Localization.month(day.month, short: true))"
        guard let thisYear, thisYear != day.year else { return text }
        return text + " \(day.year)"
    }
}
