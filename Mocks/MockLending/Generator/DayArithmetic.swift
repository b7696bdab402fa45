import Catalog

/// Days since 1970-01-01 to calendar days and back, without `Calendar`.
///
/// `DayDate.adding(days:)` builds a `Calendar` per call, which is fine for a patron's shelf but
/// costs seconds for 200 000 generated books; this is Howard Hinnant's `days_from_civil` algorithm.
enum DayArithmetic {
    /// Days from 1970-01-01 to `day`.
    static func ordinal(_ day: DayDate) -> Int {
        let y = day.month <= 2 ? day.year - 1 : day.year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = day.month > 2 ? day.month - 3 : day.month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day.day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar day `ordinal` days after 1970-01-01.
    static func day(_ ordinal: Int) -> DayDate {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return DayDate(year: year, month: month, day: day)
    }
}
