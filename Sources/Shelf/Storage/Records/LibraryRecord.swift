public import Foundation
public import GRDB

/// A library bok talks to, as the shelf records it (the `libraryProfile` table): what its loans,
/// downloads and positions are kept under. The service key is never stored here (nothing secret
/// goes in the database).
public struct LibraryRecord: Codable, Sendable, Hashable, Identifiable, FetchableRecord, MutablePersistableRecord,
    ShelfDates
{
    /// Row id, nil until inserted.
    public var id: Int64?
    /// The library's name.
    public var name: String
    /// The lending service's base URL.
    public var baseURL: String
    /// The service id within that URL.
    public var serviceID: String
    /// When loans and reservations were last synced.
    public var lastSyncedAt: Date?

    public static let databaseTableName = "libraryProfile"

    /// Creates a profile.
    public init(id: Int64? = nil, name: String, baseURL: String, serviceID: String, lastSyncedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.baseURL = baseURL
        self.serviceID = serviceID
        self.lastSyncedAt = lastSyncedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
