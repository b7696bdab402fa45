public import Foundation
public import GRDB

/// A title on the patron's to-be-read list.
public struct ToBeReadRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The library card that added it ('' when no card was known, or before cards were
    /// recorded: shown to every card).
    public var card: String
    /// The product.
    public var productID: String
    /// The title.
    public var title: String
    /// The authors, as displayed.
    public var authors: String
    /// When it was added.
    public var addedAt: Date
    /// Place in the patron's own order, from 0.
    public var position: Int

    public static let databaseTableName = "toBeRead"

    /// Creates a record.
    public init(card: String = "", productID: String, title: String, authors: String = "", addedAt: Date, position: Int)
    {
        self.card = card
        self.productID = productID
        self.title = title
        self.authors = authors
        self.addedAt = addedAt
        self.position = position
    }
}
