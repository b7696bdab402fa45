public import Foundation
public import GRDB

/// A book the patron watches (`watch N`): bok tells them, once, when it can be borrowed.
public struct WatchRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The library profile.
    public var libraryProfile: Int64
    /// The card that watches it.
    public var card: String
    /// The product.
    public var productID: String
    /// The title.
    public var title: String
    /// The authors, as displayed.
    public var authors: String
    /// When it was added.
    public var addedAt: Date
    /// Whether it could be borrowed at the last sync: a notice is told when this turns true.
    public var available: Bool

    public static let databaseTableName = "watch"

    /// Creates a record.
    public init(
        libraryProfile: Int64, card: String, productID: String, title: String, authors: String = "", addedAt: Date,
        available: Bool = false
    ) {
        self.libraryProfile = libraryProfile
        self.card = card
        self.productID = productID
        self.title = title
        self.authors = authors
        self.addedAt = addedAt
        self.available = available
    }
}
