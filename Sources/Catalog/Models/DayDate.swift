public import Foundation

/// A calendar day without a time or a time zone, as upstream writes `PublishedDate` and `ExpiryDate`.
///
/// Upstream sends some dates as `YYYY-MM-DD` and others as full timestamps; decoding accepts
/// both and keeps only the day, so a published date never shifts by a time zone.
public struct DayDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, e.g. 2024.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Creates a day from its parts.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, optionally followed by a time (`T…` or a space), as upstream sends it.
    public init?(string: String) {
        let datePart = string.prefix { $0 != "T" && $0 != " " }
        let parts = datePart.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day that contains `date` in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Midnight at the start of this day in `timeZone`.
    public func startDate(in timeZone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date(timeIntervalSince1970: 0)
    }

    /// The day `days` later (or earlier, when negative).
    public func adding(days: Int) -> DayDate {
        let utc = TimeZone(identifier: "UTC")!
        return DayDate(startDate(in: utc).addingTimeInterval(Double(days) * 86_400), in: utc)
    }

    /// Whole days from this day to `other` (negative when `other` is earlier).
    public func days(until other: DayDate) -> Int {
        let utc = TimeZone(identifier: "UTC")!
        let seconds = other.startDate(in: utc).timeIntervalSince(startDate(in: utc))
        return Int((seconds / 86_400).rounded())
    }

    public static func < (lhs: DayDate, rhs: DayDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = DayDate(string: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a date as YYYY-MM-DD, got \"\(text)\"")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
