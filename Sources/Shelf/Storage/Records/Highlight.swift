public import Foundation
public import GRDB

/// A highlighted passage, with an optional note.
public struct Highlight: Codable, Sendable, Hashable, Identifiable, FetchableRecord, MutablePersistableRecord {
    /// Highlight colours.
    public enum Colour: String, Codable, Sendable, Hashable, CaseIterable {
        case yellow, green, blue, pink
    }

    /// Row id, nil until inserted.
    public var id: Int64?
    /// The book.
    public var bookID: String
    /// Start: spine item.
    public var startSpineIndex: Int
    /// Start: characters into the item.
    public var startOffset: Int
    /// Start: words at the place.
    public var startSnippet: String
    /// End: spine item.
    public var endSpineIndex: Int
    /// End: characters into the item.
    public var endOffset: Int
    /// End: words at the place.
    public var endSnippet: String
    /// The colour.
    public var colour: Colour
    /// The patron's note.
    public var note: String?
    /// When it was made.
    public var createdAt: Date

    public static let databaseTableName = "highlight"

    /// Creates a highlight from `start` to `end`.
    public init(id: Int64? = nil, bookID: String, start: Locator, end: Locator, colour: Colour = .yellow,
                note: String? = nil, createdAt: Date = Date()) {
        self.id = id
        self.bookID = bookID
        self.startSpineIndex = start.spineIndex
        self.startOffset = start.offset
        self.startSnippet = start.snippet
        self.endSpineIndex = end.spineIndex
        self.endOffset = end.offset
        self.endSnippet = end.snippet
        self.colour = colour
        self.note = note
        self.createdAt = createdAt
    }

    /// Where it starts.
    public var start: Locator { Locator(spineIndex: startSpineIndex, offset: startOffset, snippet: startSnippet) }
    /// Where it ends.
    public var end: Locator { Locator(spineIndex: endSpineIndex, offset: endOffset, snippet: endSnippet) }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
