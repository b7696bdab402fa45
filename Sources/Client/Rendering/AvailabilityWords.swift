import Catalog
import Localization
import Terminal

/// Availability as this patron can use it: a mark with its words, and when a book that is out can be had.
///
/// Catalog's `Availability.explanation` knows only the server's answer; here the patron's own
/// limit gets its number and the day it starts again, and a queue gets an estimate in weeks.
struct AvailabilityWords {
    let theme: Theme
    /// Today in the library's calendar.
    let today: DayDate
    /// The patron's loans a month, when known (from the patron check or the library page).
    let maxLoans: Int?

    init(theme: Theme, today: DayDate, maxLoans: Int?) {
        self.theme = theme
        self.today = today
        self.maxLoans = maxLoans
    }

    /// Green `✓ Available`; red `✗ all 3 copies on loan, 4 waiting · ~3 weeks`;
    /// red `✗ your 5 loans this month are used · new loans from 1 December`;
    /// red `✗ 3 loans in 7 days · next loan from Thursday 3 December`;
    /// red `✗ the library's e-book budget for November is used up · loans again from 1 December`.
    func mark(_ availability: Availability?) -> String {
        guard let availability else { return theme.dim("? " + tr("availability unknown")) }
        if availability.available { return theme.green(theme.marks.good(tr("Available"))) }
        return theme.red(theme.marks.bad(words(availability)))
    }

    /// The words after the mark, for a book that cannot be borrowed now.
    func words(_ availability: Availability) -> String {
        switch availability.reason {
        case .borrower?:
            guard let pace = availability.pace, let day = availability.estimatedDate else { return limitWords }
            return paceWords(pace) + " \(theme.marks.middleDot) "
                + tr("next loan from {day}", ["day": Words.dayWithWeekday(day, today: today)])
        case .library?:
            return budgetWords + " \(theme.marks.middleDot) "
                + tr("loans again from {day}", ["day": dayWords(availability.estimatedDate ?? nextMonth)])
        default:
            break
        }
        var text = availability.explanation ?? tr("not available")
        if let wait = estimate(availability) { text += " \(theme.marks.middleDot) \(wait)" }
        return text
    }

    /// The same in a few words, for narrow rows and grid cards: `on loan · 2 waiting · ~3 weeks`.
    func short(_ availability: Availability) -> String? {
        guard !availability.available else { return nil }
        switch availability.reason {
        case .borrower?:
            if availability.pace != nil, let day = availability.estimatedDate {
                return tr("next loan from {day}", ["day": Words.shortDay(day)])
            }
            return tr("your loans used until {day}", ["day": Words.shortDay(nextMonth)])
        case .library?:
            return tr(
                "library budget used until {day}", ["day": Words.shortDay(availability.estimatedDate ?? nextMonth)])
        default:
            break
        }
        guard var text = availability.shortExplanation else { return nil }
        if let wait = estimate(availability) { text += " \(theme.marks.middleDot) \(wait)" }
        return text
    }

    /// `your 5 loans this month are used · new loans from 1 December`.
    var limitWords: String {
        let from = dayWords(nextMonth)
        let used =
            maxLoans.map { trn("your {n} loan this month is used", "your {n} loans this month are used", $0) }
            ?? tr("your loans this month are used")
        return used + " \(theme.marks.middleDot) " + tr("new loans from {day}", ["day": from])
    }

    /// `3 loans in 7 days`: the library's pace, which this patron has reached.
    func paceWords(_ pace: LoanPace) -> String {
        trn("{n} loan in {days}", "{n} loans in {days}", pace.loans, ["days": trn("{n} day", "{n} days", pace.days)])
    }

    /// `the library's e-book budget for November is used up`: the municipality's money for
    /// pay-per-loan e-books this month, which no patron can borrow past.
    var budgetWords: String {
        tr("the library's e-book budget for {month} is used up", ["month": Words.month(today.month)])
    }

    /// The first day of next month, when a patron's monthly limit starts again.
    var nextMonth: DayDate {
        today.month == 12
            ? DayDate(year: today.year + 1, month: 1, day: 1)
            : DayDate(year: today.year, month: today.month + 1, day: 1)
    }

    /// `~3 weeks`: how long until the server expects a copy for a patron who reserves now.
    func estimate(_ availability: Availability) -> String? {
        guard let date = availability.estimatedDate else { return nil }
        return Self.wait(days: today.days(until: date))
    }

    /// `~4 days`, `~3 weeks`, `~2 months`; nil when the book is expected today (or the date has passed).
    static func wait(days: Int) -> String? {
        switch days {
        case ..<1: nil
        case 1...10: "~" + trn("{n} day", "{n} days", days)
        case 11...59: "~" + trn("{n} week", "{n} weeks", (days + 3) / 7)
        default: "~" + trn("{n} month", "{n} months", (days + 15) / 30)
        }
    }

    /// `1 December`, with the year when it is not this year.
    func dayWords(_ date: DayDate) -> String {
        let text = "\(date.day) \(Words.month(date.month))"
        return date.year == today.year ? text : text + " \(date.year)"
    }
}
