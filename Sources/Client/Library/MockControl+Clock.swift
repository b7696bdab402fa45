import Catalog
import Foundation
import Localization

/// Where `mock clock WHEN` should put the mock library's clock, read from what a usability
/// tester types: `+2w`, `-3d`, `tomorrow`, `next monday`, `in 3 days`, `2026-12-01`, or the
/// Swedish `i morgon`, `nästa måndag`, `om 3 dagar` (in either interface language).
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
        switch phrase {
        case "today", "now", "idag", "i dag", "nu": return .moment(now)
        case "tomorrow", "imorgon", "i morgon", "imorn", "i morn": return .day(today.adding(days: 1))
        case "yesterday", "igår", "i går": return .day(today.adding(days: -1))
        case "day after tomorrow", "the day after tomorrow", "övermorgon", "i övermorgon":
            return .day(today.adding(days: 2))
        default: break
        }
        // `in 3 days`, `in 2 weeks`, `om 3 dagar`, `om 2 veckor`, `in a week`, `om en vecka`.
        if words.count == 3, words[0] == "in" || words[0] == "om", let count = count(words[1]),
            let unit = dayUnit(words[2])
        {
            return .day(today.adding(days: count * unit))
        }
        // `monday`, `next monday`, `on monday`, `nästa måndag`, `på måndag`: the coming one, never today.
        if let last = words.last, let weekday = weekday(last),
            words.count == 1 || (words.count == 2 && ["next", "on", "nästa", "på"].contains(words[0]))
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
        let units: [(names: [String], seconds: Int)] = [
            (["w", "week", "weeks", "v", "vecka", "veckor"], 7 * 86_400),
            (["d", "day", "days", "dag", "dagar"], 86_400),
            (["h", "hour", "hours", "t", "timme", "timmar"], 3_600),
            (["m", "min", "minute", "minutes", "minut", "minuter"], 60),
        ]
        var total = 0
        var rest = Substring(text.filter { !$0.isWhitespace })
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let name = rest.dropFirst(digits.count).prefix { $0.isLetter }
            guard !digits.isEmpty, digits.count <= 7, let value = Int(digits),
                let unit = units.first(where: { $0.names.contains(String(name)) })
            else { return nil }
            total += value * unit.seconds
            rest = rest.dropFirst(digits.count + name.count)
        }
        return total
    }

    /// `3`, `a`, `one`, `en`, `ett`.
    private static func count(_ word: String) -> Int? {
        if let value = Int(word), (0...100_000).contains(value) { return value }
        return ["a": 1, "an": 1, "one": 1, "en": 1, "ett": 1, "two": 2, "två": 2, "three": 3, "tre": 3][word]
    }

    /// Days in `day(s)`, `week(s)`, `dag(ar)`, `vecka/veckor`.
    private static func dayUnit(_ word: String) -> Int? {
        switch word {
        case "day", "days", "dag", "dagar": 1
        case "week", "weeks", "vecka", "veckor": 7
        default: nil
        }
    }

    /// 0 for Sunday … 6 for Saturday, from an English or Swedish weekday name (or its first three letters).
    static func weekday(_ word: String) -> Int? {
        let names = [
            ["sunday", "söndag"], ["monday", "måndag"], ["tuesday", "tisdag"], ["wednesday", "onsdag"],
            ["thursday", "torsdag"], ["friday", "fredag"], ["saturday", "lördag"],
        ]
        let bare = word.hasSuffix("en") && word.count > 6 ? String(word.dropLast(2)) : word  // `måndagen`
        return names.firstIndex { day in day.contains(bare) || (bare.count == 3 && day.contains { $0.hasPrefix(bare) })
        }
    }

    private static func isReal(_ day: DayDate, timeZone: TimeZone) -> Bool {
        DayDate(day.startDate(in: timeZone), in: timeZone) == day
    }
}
