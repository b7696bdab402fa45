public import Catalog
public import Foundation
import GRDB

/// The patron's shelf: what is stored and how each user action changes it.
///
/// Every user action is one write transaction, so a crash leaves either all of it or none.
public struct ShelfStore: Sendable {
    /// The database.
    public let database: ShelfDatabase
    /// The alphabet titles and authors sort in (Swedish by default).
    public var collation: Collation
    /// How many days an ended loan stays in the Ended section.
    public var endedWindowDays: Int

    /// Creates a store over an opened database.
    public init(database: ShelfDatabase, collation: Collation = Collation(.swedish), endedWindowDays: Int = 30) {
        self.database = database
        self.collation = collation
        self.endedWindowDays = endedWindowDays
    }

    var writer: DatabaseQueue { database.writer }

    /// Runs `updates` in one write transaction. A write the disk refuses (full, read-only) throws
    /// ``ShelfError/cannotSave(_:diskFull:detail:)``, in words, never an SQLite code.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let problem = database.readOnlyBecause { throw problem }
        do {
            return try writer.write(updates)
        } catch {
            throw ShelfError.saving(error, path: writer.path) ?? error
        }
    }

    /// Runs `updates` in one write transaction, off the caller's thread (see the other `write`).
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let problem = database.readOnlyBecause { throw problem }
        do {
            return try await writer.write(updates)
        } catch {
            throw ShelfError.saving(error, path: writer.path) ?? error
        }
    }

    // MARK: Libraries

    /// Saves a library's record, matching an existing one by base URL and service id.
    @discardableResult
    public func saveLibrary(name: String, baseURL: String, serviceID: String) throws -> LibraryRecord {
        // Read first: a shelf that cannot be written (a full disk) still finds its library.
        if let existing = try writer.read({ db in
            try LibraryRecord.filter(Column("baseURL") == baseURL && Column("serviceID") == serviceID).fetchOne(db)
        }), existing.name == name {
            return existing
        }
        return try write { db in
            if var existing =
                try LibraryRecord
                .filter(Column("baseURL") == baseURL && Column("serviceID") == serviceID)
                .fetchOne(db)
            {
                existing.name = name
                try existing.update(db)
                return existing
            }
            var profile = LibraryRecord(name: name, baseURL: baseURL, serviceID: serviceID)
            try profile.insert(db)
            return profile
        }
    }

    /// All libraries, oldest first.
    public func libraries() throws -> [LibraryRecord] {
        try writer.read { db in try LibraryRecord.order(Column("id")).fetchAll(db) }
    }

    /// When `profileID` was last synced, or (without a profile) the latest sync of any profile.
    public func lastSync(profileID: Int64? = nil) throws -> Date? {
        try writer.read { db in
            if let profileID {
                return try StoredDate.fetchOne(
                    db, sql: "SELECT lastSyncedAt FROM libraryProfile WHERE id = ?", arguments: [profileID])?.date
            }
            return try StoredDate.fetchOne(db, sql: "SELECT max(lastSyncedAt) FROM libraryProfile")?.date
        }
    }
}
