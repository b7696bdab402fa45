public import Catalog
public import GRDB
internal import GRDBSQLite

/// Days are stored as `YYYY-MM-DD` text, so they sort and compare in SQL.
extension DayDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DayDate? {
        String.fromDatabaseValue(dbValue).flatMap(DayDate.init(string:))
    }
}

/// `YYYY-MM-DD` read straight from SQLite's column text (a shelf reads thousands of last days);
/// any other value is read as ``DayDate/fromDatabaseValue(_:)`` reads it.
extension DayDate: StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            sqlite3_column_bytes(sqliteStatement, index) == 10,
            let text = sqlite3_column_text(sqliteStatement, index)
        {
            let bytes = UnsafeBufferPointer(start: text, count: 10)
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in bytes[range] {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            if bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = number(0..<4),
                let month = number(5..<7), let day = number(8..<10)
            {
                // The checks of init(string:): a real month, day and calendar day.
                guard (1...12).contains(month), (1...31).contains(day) else { return nil }
                self.init(year: year, month: month, day: day)
                guard DayDate(ordinal: ordinal) == self else { return nil }
                return
            }
        }
        guard let day = Self.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index)) else {
            return nil
        }
        self = day
    }
}
