public import Foundation
public import GRDB

/// A place waiting to be sent to a KOReader sync server: one a document and server, the newest.
public struct KOSyncPendingRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The server and user it goes to (`http://host:8080/kosync elsa`).
    public var server: String
    /// The document, as KOReader names it (its partial MD5).
    public var document: String
    /// The place, as an XPointer.
    public var progress: String
    /// How far into the book, 0–1.
    public var percentage: Double
    /// When it was made.
    public var madeAt: Date

    public static let databaseTableName = "kosyncPending"

    public init(server: String, document: String, progress: String, percentage: Double, madeAt: Date) {
        self.server = server
        self.document = document
        self.progress = progress
        self.percentage = percentage
        self.madeAt = madeAt
    }
}

/// The places waiting for KOReader sync servers. A place waits here, committed, until the server
/// has it, so a bok killed or offline in between loses nothing and sends it once.
extension ShelfStore {
    /// Keeps a place to send: it replaces one of the same document and server still waiting.
    public func queueKOSync(_ place: KOSyncPendingRecord) throws {
        try write { db in try place.upsert(db) }
    }

    /// The places waiting, oldest first.
    public func pendingKOSync() throws -> [KOSyncPendingRecord] {
        try writer.read { db in try KOSyncPendingRecord.order(Column("madeAt")).fetchAll(db) }
    }

    /// Forgets a place the server has, unless a newer one of the same document came meanwhile.
    public func koSyncSent(_ place: KOSyncPendingRecord) throws {
        try write { db in
            _ = try KOSyncPendingRecord.filter(
                Column("server") == place.server && Column("document") == place.document
                    && Column("madeAt") == StoredDate(place.madeAt)
            ).deleteAll(db)
        }
    }
}
