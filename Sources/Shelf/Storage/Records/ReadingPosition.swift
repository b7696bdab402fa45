public import Foundation
public import GRDB
public import ReadingState

/// Where the patron is in a book, and how much of it is read.
public struct ReadingPosition: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The book, as the reader names it (``BookID``), or a product id.
    public var bookID: String
    /// The spine item.
    public var spineIndex: Int
    /// UTF-16 code units into the spine item's text.
    public var offset: Int
    /// A few words at the place.
    public var snippet: String
    /// When it was saved.
    public var updatedAt: Date
    /// How much of the book is read, 0–100.
    public var percent: Double

    public static let databaseTableName = "readingPosition"

    /// Creates a position.
    public init(bookID: String, locator: Locator, percent: Double, updatedAt: Date = Date()) {
        self.bookID = bookID
        self.spineIndex = locator.spineIndex
        self.offset = locator.offset
        self.snippet = locator.snippet ?? ""
        self.percent = percent
        self.updatedAt = updatedAt
    }

    /// The place as a locator.
    public var locator: Locator {
        Locator(spineIndex: spineIndex, offset: offset, snippet: snippet.isEmpty ? nil : snippet)
    }
}
