public import Catalog
public import GRDB

/// Days are stored as `YYYY-MM-DD` text, so they sort and compare in SQL.
extension DayDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DayDate? {
        String.fromDatabaseValue(dbValue).flatMap(DayDate.init(string:))
    }
}
