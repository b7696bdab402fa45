import Foundation
import GRDB

extension ShelfStore {
    // MARK: Reading positions

    /// Saves where the patron is in a book: one prepared upsert in one transaction, well under 2 ms.
    public func savePosition(_ position: ReadingPosition) throws {
        try writer.write { db in
            // cachedStatement keeps the compiled upsert on the connection; only the arguments change.
            let statement = try db.cachedStatement(sql: """
                INSERT INTO readingPosition (bookID, spineIndex, "offset", snippet, updatedAt, percent)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (bookID) DO UPDATE SET
                    spineIndex = excluded.spineIndex, "offset" = excluded."offset", snippet = excluded.snippet,
                    updatedAt = excluded.updatedAt, percent = excluded.percent
                """)
            try statement.execute(arguments: [position.bookID, position.spineIndex, position.offset,
                                              position.snippet, position.updatedAt, position.percent])
        }
    }

    /// Where the patron last was in a book.
    public func position(bookID: String) throws -> ReadingPosition? {
        try writer.read { db in try ReadingPosition.fetchOne(db, key: bookID) }
    }

    // MARK: Bookmarks

    /// Adds a bookmark (one at the same place is replaced) and returns it with its id.
    @discardableResult
    public func addBookmark(_ bookmark: Bookmark) throws -> Bookmark {
        try writer.write { db in
            var bookmark = bookmark
            try db.execute(sql: """
                DELETE FROM bookmark WHERE bookID = ? AND spineIndex = ? AND "offset" = ?
                """, arguments: [bookmark.bookID, bookmark.spineIndex, bookmark.offset])
            try bookmark.insert(db)
            return bookmark
        }
    }

    /// A book's bookmarks in reading order.
    public func bookmarks(bookID: String) throws -> [Bookmark] {
        try writer.read { db in
            try Bookmark.filter(Column("bookID") == bookID).order(Column("spineIndex"), Column("offset")).fetchAll(db)
        }
    }

    /// Changes a bookmark's note; false when there is no such bookmark.
    @discardableResult
    public func setBookmarkNote(id: Int64, note: String?) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "UPDATE bookmark SET note = ? WHERE id = ?", arguments: [note, id])
            return db.changesCount > 0
        }
    }

    /// Removes a bookmark; false when there was none.
    @discardableResult
    public func removeBookmark(id: Int64) throws -> Bool {
        try writer.write { db in try Bookmark.deleteOne(db, key: id) }
    }

    // MARK: Highlights

    /// Adds a highlight and returns it with its id.
    /// - Throws: a GRDB constraint error when the end is before the start.
    @discardableResult
    public func addHighlight(_ highlight: Highlight) throws -> Highlight {
        try writer.write { db in
            var highlight = highlight
            try highlight.insert(db)
            return highlight
        }
    }

    /// A book's highlights in reading order.
    public func highlights(bookID: String) throws -> [Highlight] {
        try writer.read { db in
            try Highlight.filter(Column("bookID") == bookID)
                .order(Column("startSpineIndex"), Column("startOffset")).fetchAll(db)
        }
    }

    /// Saves a changed highlight (colour, note, range); false when it no longer exists.
    @discardableResult
    public func updateHighlight(_ highlight: Highlight) throws -> Bool {
        try writer.write { db in
            guard let id = highlight.id, try Highlight.exists(db, key: id) else { return false }
            try highlight.update(db)
            return true
        }
    }

    /// Removes a highlight; false when there was none.
    @discardableResult
    public func removeHighlight(id: Int64) throws -> Bool {
        try writer.write { db in try Highlight.deleteOne(db, key: id) }
    }
}
