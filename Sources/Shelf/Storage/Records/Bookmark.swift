public import Foundation
public import GRDB

/// A bookmark at a place in a book.
public struct Bookmark: Codable, Sendable, Hashable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// Row id, nil until inserted.
    public var id: Int64?
    /// The book.
    public var bookID: String
    /// The spine item.
    public var spineIndex: Int
    /// Characters into the spine item.
    public var offset: Int
    /// A few words at the place.
    public var snippet: String
    /// The patron's note.
    public var note: String?
    /// When it was made.
    public var createdAt: Date

    public static let databaseTableName = "bookmark"

    /// Creates a bookmark.
    public init(id: Int64? = nil, bookID: String, locator: Locator, note: String? = nil, createdAt: Date = Date()) {
        self.id = id
        self.bookID = bookID
        self.spineIndex = locator.spineIndex
        self.offset = locator.offset
        self.snippet = locator.snippet
        self.note = note
        self.createdAt = createdAt
    }

    /// The place as a locator.
    public var locator: Locator { Locator(spineIndex: spineIndex, offset: offset, snippet: snippet) }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
