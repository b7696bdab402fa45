public import Foundation
public import GRDB

/// A change made here, waiting to be sent to the book's sync server.
public struct PendingAnnotationRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    public var bookID: String
    public var kind: String
    public var key: String
    /// When the change was made (a newer change of the same annotation replaces it).
    public var madeAt: Date

    public static let databaseTableName = "pendingAnnotation"

    public init(bookID: String, kind: String, key: String, madeAt: Date) {
        self.bookID = bookID
        self.kind = kind
        self.key = key
        self.madeAt = madeAt
    }
}
