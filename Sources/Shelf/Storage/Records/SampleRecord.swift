public import Foundation
public import GRDB

/// A free sample the patron kept.
public struct SampleRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
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
    /// Where the sample file is, once fetched.
    public var path: String?

    public static let databaseTableName = "sample"

    /// Creates a record.
    public init(
        card: String = "", productID: String, title: String, authors: String = "", addedAt: Date, path: String? = nil
    ) {
        self.card = card
        self.productID = productID
        self.title = title
        self.authors = authors
        self.addedAt = addedAt
        self.path = path
    }
}
