import Catalog
import Foundation
import Localization

/// Where `mock clock WHEN` should put the mock library's clock, read from what a usability
/// tester types: `+2w`, `-3d`, `tomorrow`, `next monday`, `in 3 days`, `2026-12-01`, or the same
/// words in any language bok speaks, as its catalogue names them (`i morgon`, `nästa måndag`,
/// `om 3 dagar`), whatever the interface language.
///
/// Words that name a day count from the real today (the tester's calendar, in the library's time
/// zone); `+…` and `-…` move the clock from where it stands.
enum ClockRequest: Sendable, Equatable {
    /// On (or back, when negative) by this many seconds from the clock's present time.
    case move(seconds: Int)
    /// To this day, at 10:00 in the library's time zone (the mock's morning, as its seed has it).
    case day(DayDate)
    /// To this moment: `today` (now), or a date with a time.
    case moment(Date)

    /// The hour a day set by name or date starts at.
    static let morningHour = 10

    /// The forms `mock clock` takes, for its help and its one-line error.
    static var forms: String {
        tr("+1d, +2w, -3d, +3h, tomorrow, yesterday, today, next monday, in 3 days or 2026-12-01")
    }

    /// Reads `text`; nil when it is none of the forms.
    /// - Parameters:
    ///   - today: The real today in the library's time zone, which day words count from.
    ///   - now: The real now, for `today`.
    static func parse(_ text: String, today: DayDate, now: Date, timeZone: TimeZone) -> ClockRequest? {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let phrase = words.joined(separator: " ")
        guard !phrase.isEmpty else { return nil }
        if let first = phrase.first, first == "+" || first == "-" {
            guard let seconds = seconds(String(phrase.dropFirst())) else { return nil }
            return .move(seconds: first == "-" ? -seconds : seconds)
        }
        if Vocabulary.today.isNamed(phrase) || Vocabulary.now.isNamed(phrase) { return .moment(now) }
        if Vocabulary.tomorrow.isNamed(phrase) { return .day(today.adding(days: 1)) }
        if Vocabulary.yesterday.isNamed(phrase) { return .day(today.adding(days: -1)) }
        if Vocabulary.dayAfterTomorrow.isNamed(phrase) || phrase == "the day after tomorrow" {
            return .day(today.adding(days: 2))
        }
        // `in 3 days`, `in 2 weeks`, `om 3 dagar`, `om 2 veckor`, `in a week`, `om en vecka`.
        if words.count == 3, Vocabulary.in.isNamed(words[0]), let count = count(words[1]), let unit = dayUnit(words[2])
        {
            return .day(today.adding(days: count * unit))
        }
        // `monday`, `next monday`, `on monday`, `nästa måndag`, `på måndag`: the coming one, never today.
        if let last = words.last, let weekday = weekday(last),
            words.count == 1
                || (words.count == 2 && (Vocabulary.next.isNamed(words[0]) || Vocabulary.on.isNamed(words[0])))
        {
            let todayIndex = ((today.ordinal % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday; Sunday is 0
            let ahead = (weekday - todayIndex + 7) % 7
            return .day(today.adding(days: ahead == 0 ? 7 : ahead))
        }
        // `2026-12-01`, `2026-12-01 14:30`, `2026-12-01T10:00:00Z`.
        if let match = phrase.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:[ t](\d{1,2}):(\d{2}))?/) {
            let day = DayDate(year: Int(match.1)!, month: Int(match.2)!, day: Int(match.3)!)
            guard isReal(day, timeZone: timeZone) else { return nil }
            guard let hour = match.4.flatMap({ Int($0) }), let minute = match.5.flatMap({ Int($0) }) else {
                return .day(day)
            }
            guard hour < 24, minute < 60 else { return nil }
            return .moment(day.startDate(in: timeZone).addingTimeInterval(TimeInterval(hour * 3600 + minute * 60)))
        }
        if let moment = Timestamp.parse(text.trimmingCharacters(in: .whitespaces)) { return .moment(moment) }
        return nil
    }

    /// The moment to set the clock to, or nil to move it by `seconds` from where it stands.
    func target(timeZone: TimeZone) -> Date? {
        switch self {
        case .move: nil
        case .day(let day): day.startDate(in: timeZone).addingTimeInterval(TimeInterval(Self.morningHour * 3600))
        case .moment(let date): date
        }
    }

    /// Seconds in `14d`, `2w`, `3h`, `30m`, `1d12h`, `3 days`, `2 weeks`; nil when malformed.
    static func seconds(_ text: String) -> Int? {
        let units: [(names: [TypedWord], seconds: Int)] = [
            (Vocabulary.weekUnits, 7 * 86_400), (Vocabulary.dayUnits, 86_400), (Vocabulary.hourUnits, 3_600),
            (Vocabulary.minuteUnits, 60),
        ]
        var total = 0
        var rest = Substring(text.filter { !$0.isWhitespace })
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let name = rest.dropFirst(digits.count).prefix { $0.isLetter }
            guard !digits.isEmpty, digits.count <= 7, let value = Int(digits),
                let unit = units.first(where: { $0.names.contains { $0.isNamed(String(name)) } })
            else { return nil }
            total += value * unit.seconds
            rest = rest.dropFirst(digits.count + name.count)
        }
        return total
    }

    /// `3`, `a`, `one`, `en`, `ett`.
    private static func count(_ word: String) -> Int? {
        if let value = Int(word), (0...100_000).contains(value) { return value }
        if word == "a" || word == "an" { return 1 }
        return Vocabulary.counts.firstIndex { $0.isNamed(word) }.map { $0 + 1 }
    }

    /// Days in `day(s)`, `week(s)`, `dag(ar)`, `vecka/veckor`.
    private static func dayUnit(_ word: String) -> Int? {
        if Vocabulary.dayUnits.dropFirst().contains(where: { $0.isNamed(word) }) { return 1 }
        if Vocabulary.weekUnits.dropFirst().contains(where: { $0.isNamed(word) }) { return 7 }
        return nil
    }

    /// 0 for Sunday … 6 for Saturday, from a weekday's name in any language bok speaks (or its
    /// first three letters).
    static func weekday(_ word: String) -> Int? {
        Vocabulary.weekdays.firstIndex { day in
            let names = [day.english] + day.otherNames
            return names.contains(word) || (word.count == 3 && names.contains { $0.hasPrefix(word) })
        }
    }

    private static func isReal(_ day: DayDate, timeZone: TimeZone) -> Bool {
        DayDate(day.startDate(in: timeZone), in: timeZone) == day
    }
}

extension ClockRequest {
    /// The words of `mock clock`, marked for the catalogues, which name them in other languages.
    enum Vocabulary {
        static let today = TypedWord("typed: clock", "today")
        static let now = TypedWord("typed: clock", "now")
        static let tomorrow = TypedWord("typed: clock", "tomorrow")
        static let yesterday = TypedWord("typed: clock", "yesterday")
        static let dayAfterTomorrow = TypedWord("typed: clock", "day after tomorrow")
        /// `in 3 days`.
        static let `in` = TypedWord("typed: clock", "in")
        /// `next monday`.
        static let next = TypedWord("typed: clock", "next")
        /// `on monday`.
        static let on = TypedWord("typed: clock", "on")
        /// One, two and three in words.
        static let counts = [
            TypedWord("typed: clock", "one"), TypedWord("typed: clock", "two"), TypedWord("typed: clock", "three"),
        ]
        /// The units of a duration, the abbreviation first (`2w`, `3 days`).
        static let weekUnits = [
            TypedWord("typed: clock", "w"), TypedWord("typed: clock", "week"), TypedWord("typed: clock", "weeks"),
        ]
        static let dayUnits = [
            TypedWord("typed: clock", "d"), TypedWord("typed: clock", "day"), TypedWord("typed: clock", "days"),
        ]
        static let hourUnits = [
            TypedWord("typed: clock", "h"), TypedWord("typed: clock", "hour"), TypedWord("typed: clock", "hours"),
        ]
        static let minuteUnits = [
            TypedWord("typed: clock", "m"), TypedWord("typed: clock", "min"), TypedWord("typed: clock", "minute"),
            TypedWord("typed: clock", "minutes"),
        ]
        /// Sunday first.
        static let weekdays = [
            TypedWord("typed: clock", "sunday"), TypedWord("typed: clock", "monday"),
            TypedWord("typed: clock", "tuesday"), TypedWord("typed: clock", "wednesday"),
            TypedWord("typed: clock", "thursday"), TypedWord("typed: clock", "friday"),
            TypedWord("typed: clock", "saturday"),
        ]
    }
}
