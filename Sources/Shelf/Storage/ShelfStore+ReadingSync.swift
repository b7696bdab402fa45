public import Catalog
import Foundation
import GRDB
public import ReadingState

/// What the shelf keeps for syncing reading places: where each book lives on a sync server, and
/// the places not yet sent. A place waits here, committed, until the server has it, so a bok
/// killed or offline in between loses nothing and sends it once.
extension ShelfStore {
    /// Records where a book lives on a sync server (again: the newest link wins).
    public func linkForSync(_ book: BookID, to link: CalibreBookLink) throws {
        try write { db in try SyncLinkRecord(bookID: book.rawValue, link: link).upsert(db) }
    }

    /// Where a book lives on a sync server, if it was got from one.
    public func syncLink(of book: BookID) throws -> CalibreBookLink? {
        try writer.read { db in try SyncLinkRecord.fetchOne(db, key: book.rawValue)?.link }
    }

    /// Keeps a place to send: it replaces one of the same book still waiting.
    public func queuePosition(_ position: PendingPositionRecord) throws {
        try write { db in try position.upsert(db) }
    }

    /// The places waiting, oldest first, with where each goes.
    public func pendingPositions() throws -> [(position: PendingPositionRecord, link: CalibreBookLink)] {
        try writer.read { db in
            try PendingPositionRecord.order(Column("madeAt")).fetchAll(db).compactMap { position in
                guard let link = try SyncLinkRecord.fetchOne(db, key: position.bookID)?.link else { return nil }
                return (position, link)
            }
        }
    }

    /// Forgets a place the server has, unless a newer one of the same book came meanwhile.
    public func positionSent(_ position: PendingPositionRecord) throws {
        try write { db in
            _ = try PendingPositionRecord.filter(
                Column("bookID") == position.bookID && Column("madeAt") == StoredDate(position.madeAt)
            ).deleteAll(db)
        }
    }

    /// The books linked to a calibre server, the loans whose library keeps their annotations, and
    /// how many places wait.
    public func syncCounts() throws -> (books: Int, loans: Int, waiting: Int) {
        try writer.read { db in
            (
                try SyncLinkRecord.filter(Column("kind") == "calibre").fetchCount(db),
                try SyncLinkRecord.filter(Column("kind") == "library").fetchCount(db),
                try PendingPositionRecord.fetchCount(db)
            )
        }
    }
}
