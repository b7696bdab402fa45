public import Catalog
import Foundation
import GRDB
public import ReadingState

/// What the shelf keeps for a loan whose bookmarks and highlights the lending library keeps
/// (Palace's annotation service, issue 30): the link, and the id the library gave each
/// annotation. Changes wait in the same queue, with the same tombstones, as calibre's do.
extension ShelfStore {
    /// Records that a book's annotations are kept at its library; a book already linked there keeps
    /// the ids it has.
    public func linkForLibrarySync(_ book: BookID, to link: LibraryAnnotationLink) throws {
        try write { db in try SyncLinkRecord(bookID: book.rawValue, link: link).upsert(db) }
    }

    /// The library that keeps a book's annotations, if one does.
    public func libraryLink(of book: BookID) throws -> LibraryAnnotationLink? {
        try writer.read { db in try SyncLinkRecord.fetchOne(db, key: book.rawValue)?.libraryLink }
    }

    /// The library's id of each of the book's annotations it has, as this machine last saw them.
    public func libraryAnnotationIDs(of book: BookID) throws -> [SyncedAnnotation.Key: String] {
        try writer.read { db in
            var ids: [SyncedAnnotation.Key: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT kind, key, serverID FROM libraryAnnotationID WHERE bookID = ?",
                arguments: [book.rawValue])
            {
                guard let kind = SyncedAnnotation.Kind(rawValue: row["kind"]) else { continue }
                ids[SyncedAnnotation.Key(kind: kind, key: row["key"])] = row["serverID"]
            }
            return ids
        }
    }

    /// Records the library's ids of annotations (nil: it no longer has one), in one transaction.
    public func setLibraryAnnotationIDs(_ ids: [(key: SyncedAnnotation.Key, id: String?)], of book: BookID) throws {
        guard !ids.isEmpty else { return }
        try write { db in
            for (key, id) in ids {
                if let id {
                    try db.execute(
                        sql: """
                            INSERT INTO libraryAnnotationID (bookID, kind, key, serverID) SELECT ?1, ?2, ?3, ?4
                            WHERE EXISTS (SELECT 1 FROM syncLink WHERE bookID = ?1)
                            ON CONFLICT (bookID, kind, key) DO UPDATE SET serverID = excluded.serverID
                            """, arguments: [book.rawValue, key.kind.rawValue, key.key, id])
                } else {
                    try db.execute(
                        sql: "DELETE FROM libraryAnnotationID WHERE bookID = ? AND kind = ? AND key = ?",
                        arguments: [book.rawValue, key.kind.rawValue, key.key])
                }
            }
        }
    }

    /// The book's place waiting to be sent, if one does.
    public func pendingPosition(of book: BookID) throws -> PendingPositionRecord? {
        try writer.read { db in try PendingPositionRecord.fetchOne(db, key: book.rawValue) }
    }
}
