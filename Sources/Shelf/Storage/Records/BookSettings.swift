public import GRDB

/// A book's own reader settings, as JSON the Reader owns.
public struct BookSettings: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    /// The book.
    public var bookID: String
    /// The settings, as a JSON object.
    public var settings: String

    public static let databaseTableName = "bookSettings"

    /// Creates a record.
    public init(bookID: String, settings: String) {
        self.bookID = bookID
        self.settings = settings
    }
}
