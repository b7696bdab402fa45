public import Catalog
public import Foundation
import GRDB
public import ReadingState

/// One bookmark or highlight of a synced book as the shelf has it, for comparing with the
/// server's: alive (with its places) or a tombstone, and when it last changed.
public struct LocalAnnotation: Sendable, Hashable {
    public var kind: SyncedAnnotation.Kind
    /// What calibre knows it by: a highlight's uuid, a bookmark's title.
    public var key: String
    /// bok's id for it (nil for a tombstone).
    public var uuid: String?
    /// When it was last changed or deleted.
    public var time: Date
    public var removed: Bool
    /// Where it starts (a bookmark: where it is), and a highlight's end.
    public var start: Locator?
    public var end: Locator?
    /// The places as the server gave them, kept so they go back unchanged.
    public var startCFI: String?
    public var endCFI: String?
    public var text: String
    public var note: String?
    public var color: HighlightColor?
}

/// A change from the server to make on the shelf, with the server's time, so that it is not sent back.
public enum SyncedChange: Sendable, Hashable {
    /// A bookmark, new here or moved.
    case bookmark(key: String, uuid: String, at: Locator, cfi: String, time: Date)
    /// A highlight, new here or changed; `key` is calibre's id for it when that is not its UUID.
    case highlight(Highlight, key: String, startCFI: String, endCFI: String, time: Date)
    /// Deleted on another device.
    case removed(SyncedAnnotation.Kind, key: String, time: Date)
}

/// Bookmarks, highlights and notes of books that sync (issue 30): every change to one of a book
/// linked to a sync server is recorded, in the transaction that makes it, as waiting to be sent
/// (committed before bok tries, forgotten once the server has it), and a deletion leaves a
/// tombstone so that the other devices delete it too.
extension ShelfStore {
    // MARK: Recording changes (inside the reader's own writes)

    /// A bookmark's title as calibre shows it: the words at its place.
    public static func bookmarkTitle(_ snippet: String) -> String {
        let words = snippet.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? "bok" : String(words.prefix(60))
    }

    /// `title`, or `title (2)`, `title (3)`… when a bookmark of the book already has it (calibre
    /// merges bookmarks by title, so two must not share one).
    public static func uniqueTitle(_ title: String, among taken: Set<String>) -> String {
        guard taken.contains(title) else { return title }
        var n = 2
        while taken.contains("\(title) (\(n))") { n += 1 }
        return "\(title) (\(n))"
    }

    /// Records that an annotation of the book changed: it waits to be sent, when the book syncs,
    /// and a tombstone of it from before is gone.
    static func changed(
        _ db: Database, _ kind: SyncedAnnotation.Kind, key: String, bookID: String, at time: Date
    ) throws {
        try db.execute(
            sql: "DELETE FROM annotationTombstone WHERE bookID = ? AND kind = ? AND key = ?",
            arguments: [bookID, kind.rawValue, key])
        try db.execute(
            sql: """
                INSERT INTO pendingAnnotation (bookID, kind, key, madeAt)
                SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM syncLink WHERE bookID = ?1)
                ON CONFLICT (bookID, kind, key) DO UPDATE SET madeAt = excluded.madeAt
                """, arguments: [bookID, kind.rawValue, key, StoredDate(time)])
    }

    /// Records a deletion: for a book that syncs, a tombstone, and its sending.
    static func removed(
        _ db: Database, _ kind: SyncedAnnotation.Kind, key: String, bookID: String, at time: Date
    ) throws {
        guard try SyncLinkRecord.fetchOne(db, key: bookID) != nil else { return }
        try changed(db, kind, key: key, bookID: bookID, at: time)
        try db.execute(
            sql: "INSERT OR REPLACE INTO annotationTombstone (bookID, kind, key, removedAt) VALUES (?, ?, ?, ?)",
            arguments: [bookID, kind.rawValue, key, StoredDate(time)])
    }

    static func removeBookmark(_ db: Database, uuid: String, bookID: String, at time: Date) throws {
        guard
            let title = try String.fetchOne(
                db, sql: "SELECT title FROM bookmark WHERE uuid = ? AND bookID = ?", arguments: [uuid, bookID])
        else { return }
        try db.execute(sql: "DELETE FROM bookmark WHERE uuid = ? AND bookID = ?", arguments: [uuid, bookID])
        try removed(db, .bookmark, key: title, bookID: bookID, at: time)
    }

    // MARK: Syncing

    /// Remembers the file a synced book is in, so `sync now` can work out places in it.
    public func recordSyncFile(_ file: URL, of book: BookID) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE syncLink SET file = ? WHERE bookID = ?", arguments: [file.path, book.rawValue])
        }
    }

    /// The books that sync, with where each lives on a calibre server (nil: at its lending library)
    /// and the file it is in, when known.
    public func syncedBooks() throws -> [(book: BookID, link: CalibreBookLink?, file: String?)] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM syncLink ORDER BY bookID").map { row in
                (BookID(rawValue: row["bookID"]), try SyncLinkRecord(row: row).link, row["file"])
            }
        }
    }

    /// Every bookmark and highlight of the book, and every tombstone, as sync compares them.
    public func localAnnotations(of book: BookID) throws -> [LocalAnnotation] {
        try writer.read { db in
            let bookmarks = try Row.fetchAll(
                db, sql: "SELECT * FROM bookmark WHERE bookID = ?", arguments: [book.rawValue]
            ).map { row in
                let place = Self.locator(row["spineIndex"], row["offset"], row["snippet"])
                return LocalAnnotation(
                    kind: .bookmark, key: row["title"], uuid: row["uuid"], time: (row["updatedAt"] as StoredDate).date,
                    removed: false, start: place, startCFI: row["cfi"], text: "")
            }
            let highlights = try Row.fetchAll(
                db, sql: "SELECT * FROM highlight WHERE bookID = ?", arguments: [book.rawValue]
            ).map { row in
                let changed = (row["updatedAt"] as StoredDate?) ?? (row["createdAt"] as StoredDate)
                return LocalAnnotation(
                    kind: .highlight, key: (row["syncKey"] as String?) ?? row["uuid"], uuid: row["uuid"],
                    time: changed.date, removed: false,
                    start: Self.locator(row["startSpineIndex"], row["startOffset"], row["startSnippet"]),
                    end: Self.locator(row["endSpineIndex"], row["endOffset"], row["endSnippet"]),
                    startCFI: row["startCFI"], endCFI: row["endCFI"], text: row["text"], note: row["note"],
                    color: HighlightColor(rawValue: row["colour"]))
            }
            let tombstones = try Row.fetchAll(
                db, sql: "SELECT * FROM annotationTombstone WHERE bookID = ?", arguments: [book.rawValue]
            ).compactMap { row -> LocalAnnotation? in
                guard let kind = SyncedAnnotation.Kind(rawValue: row["kind"]) else { return nil }
                return LocalAnnotation(
                    kind: kind, key: row["key"], time: (row["removedAt"] as StoredDate).date, removed: true, text: "")
            }
            return bookmarks + highlights + tombstones
        }
    }

    /// Makes the server's changes on the shelf, in one transaction, with the server's times: they
    /// are not sent back, and a change made here that they replace no longer waits.
    public func applySynced(_ changes: [SyncedChange], to book: BookID) throws {
        guard !changes.isEmpty else { return }
        let bookID = book.rawValue
        try write { db in
            func settle(_ kind: SyncedAnnotation.Kind, _ key: String, removedAt: Date?) throws {
                try db.execute(
                    sql: "DELETE FROM pendingAnnotation WHERE bookID = ? AND kind = ? AND key = ?",
                    arguments: [bookID, kind.rawValue, key])
                try db.execute(
                    sql: "DELETE FROM annotationTombstone WHERE bookID = ? AND kind = ? AND key = ?",
                    arguments: [bookID, kind.rawValue, key])
                if let removedAt {
                    try db.execute(
                        sql: "INSERT INTO annotationTombstone (bookID, kind, key, removedAt) VALUES (?, ?, ?, ?)",
                        arguments: [bookID, kind.rawValue, key, StoredDate(removedAt)])
                }
            }
            for change in changes {
                switch change {
                case .bookmark(let key, let uuid, let place, let cfi, let time):
                    try settle(.bookmark, key, removedAt: nil)
                    try db.execute(
                        sql: "DELETE FROM bookmark WHERE bookID = ? AND title = ?", arguments: [bookID, key])
                    // An id another bookmark has (a renamed one in calibre) is not taken twice.
                    let free = try String.fetchOne(db, sql: "SELECT 1 FROM bookmark WHERE uuid = ?", arguments: [uuid])
                    try db.execute(
                        sql: """
                            INSERT INTO bookmark (uuid, bookID, spineIndex, "offset", snippet, createdAt, updatedAt, \
                            title, cfi)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            free == nil ? uuid : UUID().uuidString, bookID, place.spineIndex, place.offset,
                            place.snippet ?? "", StoredDate(time), StoredDate(time), key, cfi,
                        ])
                case .highlight(var highlight, let key, let startCFI, let endCFI, let time):
                    try settle(.highlight, key, removedAt: nil)
                    try db.execute(
                        sql: "DELETE FROM highlight WHERE bookID = ? AND (uuid = ? OR coalesce(syncKey, uuid) = ?)",
                        arguments: [bookID, highlight.id.uuidString, key])
                    // An id a highlight of another book has (a server naming this one so) is not taken:
                    // that highlight stays where it is, and this one gets an id of its own.
                    if try String.fetchOne(
                        db, sql: "SELECT 1 FROM highlight WHERE uuid = ?", arguments: [highlight.id.uuidString]) != nil
                    {
                        highlight.id = AnnotationID()
                    }
                    try db.execute(
                        sql: """
                            INSERT INTO highlight (uuid, bookID, startSpineIndex, startOffset, startSnippet, \
                            endSpineIndex, endOffset, endSnippet, colour, note, text, createdAt, updatedAt, \
                            startCFI, endCFI, syncKey)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            highlight.id.uuidString, bookID, highlight.start.spineIndex, highlight.start.offset,
                            highlight.start.snippet ?? "", highlight.end.spineIndex, highlight.end.offset,
                            highlight.end.snippet ?? "", highlight.color.rawValue, highlight.note, highlight.text,
                            StoredDate(highlight.created), StoredDate(time), startCFI, endCFI,
                            key == highlight.id.uuidString ? nil : key,
                        ])
                case .removed(let kind, let key, let time):
                    let column = kind == .bookmark ? "title" : "coalesce(syncKey, uuid)"
                    try db.execute(
                        sql: "DELETE FROM \(kind.rawValue) WHERE bookID = ? AND \(column) = ?",
                        arguments: [bookID, key]
                    )
                    try settle(kind, key, removedAt: time)
                }
            }
        }
    }

    /// Queues annotations of the book to be sent (ones the server has older or not at all).
    public func queueAnnotations(_ keys: [(kind: SyncedAnnotation.Kind, key: String)], of book: BookID) throws {
        guard !keys.isEmpty else { return }
        let now = Date()
        try write { db in
            for (kind, key) in keys {
                try db.execute(
                    sql: """
                        INSERT INTO pendingAnnotation (bookID, kind, key, madeAt)
                        SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM syncLink WHERE bookID = ?1)
                        ON CONFLICT (bookID, kind, key) DO NOTHING
                        """, arguments: [book.rawValue, kind.rawValue, key, StoredDate(now)])
            }
        }
    }

    /// The changes of the book waiting to be sent.
    public func pendingAnnotations(of book: BookID) throws -> [PendingAnnotationRecord] {
        try writer.read { db in
            try PendingAnnotationRecord.filter(Column("bookID") == book.rawValue).order(Column("madeAt")).fetchAll(db)
        }
    }

    /// Forgets changes the server has, unless a newer change of the same annotation came meanwhile.
    public func annotationsSent(_ sent: [PendingAnnotationRecord]) throws {
        guard !sent.isEmpty else { return }
        try write { db in
            for change in sent {
                try db.execute(
                    sql: "DELETE FROM pendingAnnotation WHERE bookID = ? AND kind = ? AND key = ? AND madeAt = ?",
                    arguments: [change.bookID, change.kind, change.key, StoredDate(change.madeAt)])
            }
        }
    }

    /// Keeps the places worked out for annotations made here, so they go out the same next time.
    public func recordPlaces(
        _ places: [(kind: SyncedAnnotation.Kind, key: String, start: String, end: String?)],
        of book: BookID
    ) throws {
        guard !places.isEmpty else { return }
        try write { db in
            for place in places {
                if place.kind == .bookmark {
                    try db.execute(
                        sql: "UPDATE bookmark SET cfi = ? WHERE bookID = ? AND title = ?",
                        arguments: [place.start, book.rawValue, place.key])
                } else {
                    try db.execute(
                        sql: """
                            UPDATE highlight SET startCFI = ?, endCFI = ?
                            WHERE bookID = ? AND coalesce(syncKey, uuid) = ?
                            """,
                        arguments: [place.start, place.end, book.rawValue, place.key])
                }
            }
        }
    }

    /// How many annotation changes wait to be sent: of one book, or of all.
    public func pendingAnnotationCount(of book: BookID? = nil) throws -> Int {
        try writer.read { db in
            if let book {
                return try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM pendingAnnotation WHERE bookID = ?"),
                    arguments: [book.rawValue]) ?? 0
            }
            return try PendingAnnotationRecord.fetchCount(db)
        }
    }
}
