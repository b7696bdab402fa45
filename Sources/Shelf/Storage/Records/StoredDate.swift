import Catalog
public import Foundation
public import GRDB
internal import GRDBSQLite

/// A moment as the shelf stores it: GRDB's own text form, `2026-11-26 14:03:05.123` in UTC, so
/// it sorts and compares in SQL and shelves written before read the same.
///
/// Written and read here by arithmetic rather than through GRDB's `Date` conversion, which formats
/// with a `DateFormatter` and parses with an ICU calendar: the first date `bok read` saved (the
/// place in the book) loaded ICU's calendar code and data, 2 MB for a command that shows no date.
public struct StoredDate: Sendable, Hashable, DatabaseValueConvertible {
    /// The moment.
    public var date: Date

    /// Stores `date`.
    public init(_ date: Date) { self.date = date }

    /// `yyyy-MM-dd HH:mm:ss.SSS` in UTC, to the nearest millisecond, halves up, as GRDB's formatter rounds.
    public var text: String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down))
        let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayOrdinal, millisecondOfDay) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        let day = DayDate(ordinal: Int(dayOrdinal))
        let time = Int(millisecondOfDay)
        return "\(day) \(Self.pad(time / 3_600_000, 2)):\(Self.pad(time / 60_000 % 60, 2))"
            + ":\(Self.pad(time / 1000 % 60, 2)).\(Self.pad(time % 1000, 3))"
    }

    public var databaseValue: DatabaseValue { text.databaseValue }

    /// Reads what GRDB reads: SQLite's date text (`YYYY-MM-DD`, then optionally `HH:MM`, `:SS` and
    /// a fraction, after a space or `T`, in UTC) or a number of seconds since 1970.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        switch dbValue.storage {
        case .int64(let seconds): return StoredDate(Date(timeIntervalSince1970: Double(seconds)))
        case .double(let seconds): return StoredDate(Date(timeIntervalSince1970: seconds))
        case .string(let text):
            // Text bok did not write (a day the calendar does not have, a zone suffix) is GRDB's to read.
            return (parse(text) ?? Date.fromDatabaseValue(dbValue)).map(StoredDate.init)
        default: return nil
        }
    }

    /// The moment `text` names, or nil when it is not plain SQLite date text of a real day and time.
    static func parse(_ text: String) -> Date? {
        // Over the string's own bytes: a shelf parses thousands of dates, and a copy each cost more than the parse.
        var text = text
        return text.withUTF8 { parse(bytes: $0[...]) }
    }

    private static func parse(bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Date? {
        var bytes = bytes
        func number(_ width: Int) -> Int? {
            guard bytes.count >= width else { return nil }
            var value = 0
            for byte in bytes.prefix(width) {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            bytes = bytes.dropFirst(width)
            return value
        }
        func skip(_ separators: String) -> Bool {
            guard let first = bytes.first, separators.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2) else { return nil }
        let date = DayDate(year: year, month: month, day: day)
        // A day the calendar does not have (`2024-02-30`) does not come back from its ordinal.
        guard (1...12).contains(month), DayDate(ordinal: date.ordinal) == date else { return nil }
        var seconds = Double(date.ordinal) * 86_400
        guard skip(" T") else { return bytes.isEmpty ? Date(timeIntervalSince1970: seconds) : nil }
        guard let hour = number(2), hour < 24, skip(":"), let minute = number(2), minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if skip(":") {
            guard let second = number(2), second < 60 else { return nil }
            seconds += Double(second)
            if skip(".") {
                // Whole digits first, then one division: adding a tenth, a hundredth… drifts by microseconds.
                var fraction = 0
                var scale = 1.0
                while let digit = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), scale < 1e9 {
                    fraction = fraction * 10 + Int(digit - UInt8(ascii: "0"))
                    scale *= 10
                    bytes = bytes.dropFirst()
                }
                while let digit = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                    bytes = bytes.dropFirst()
                }
                seconds += Double(fraction) / scale
            }
        }
        return bytes.isEmpty ? Date(timeIntervalSince1970: seconds) : nil
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Read straight from SQLite's column text, as ``StoredDate/fromDatabaseValue(_:)`` reads it: a
/// shelf reads thousands of dates, and a String for each cost more than parsing it.
extension StoredDate: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index)
        {
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
            if let date = Self.parse(bytes: bytes[...]) {
                self.init(date)
                return
            }
        }
        guard let stored = Self.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
            return nil
        }
        self = stored
    }
}

/// A shelf record whose `Date` fields are stored as ``StoredDate`` text.
public protocol ShelfDates: FetchableRecord, EncodableRecord {}

extension ShelfDates {
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .custom { StoredDate.fromDatabaseValue($0)?.date }
    }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .custom { StoredDate($0) }
    }
}
