import Catalog
public import Foundation
import GRDB
public import ReadingState

/// The reader's store, in the shelf's database: positions, bookmarks, highlights, settings and pace
/// survive the session, the loan and a crash.
///
/// Every call is one short transaction; saving a position is one prepared upsert (well under 2 ms,
/// see docs/performance.md), so the reader can save on every page turn.
extension ShelfStore: PositionStore {
    // MARK: Reading positions

    public func loadPosition(bookID: BookID) throws -> Locator? {
        try position(bookID: bookID.rawValue)?.locator
    }

    public func savePosition(_ locator: Locator, percent: Double, bookID: BookID) throws {
        try savePosition(ReadingPosition(bookID: bookID.rawValue, locator: locator, percent: percent))
    }

    /// Saves where the patron is in a book: one prepared upsert in one transaction.
    public func savePosition(_ position: ReadingPosition) throws {
        try write { db in
            // cachedStatement keeps the compiled upsert on the connection; only the arguments change.
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO readingPosition (bookID, spineIndex, "offset", snippet, updatedAt, percent)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (bookID) DO UPDATE SET
                        spineIndex = excluded.spineIndex, "offset" = excluded."offset", snippet = excluded.snippet,
                        updatedAt = excluded.updatedAt, percent = excluded.percent
                    """)
            try statement.execute(arguments: [
                position.bookID, position.spineIndex, position.offset,
                position.snippet, StoredDate(position.updatedAt), position.percent,
            ])
        }
    }

    /// Where the patron last was in a book.
    ///
    /// The reads a book's opening makes use statements kept compiled on the connection
    /// (`cachedStatement`): ``prepareReaderReads()`` compiles them on the thread that opens the
    /// shelf beside the book, and the first page only binds and steps them.
    public func position(bookID: String) throws -> ReadingPosition? {
        try writer.read { db in
            try ReadingPosition.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM readingPosition WHERE bookID = ?"), arguments: [bookID])
        }
    }

    // MARK: Bookmarks

    @discardableResult
    public func addBookmark(_ locator: Locator, bookID: BookID) throws -> Bookmark {
        let bookmark = Bookmark(locator: locator)
        try write { db in
            // One bookmark per place: a new one replaces the old (a deletion another device hears of).
            for old in try Row.fetchAll(
                db, sql: #"SELECT uuid FROM bookmark WHERE bookID = ? AND spineIndex = ? AND "offset" = ?"#,
                arguments: [bookID.rawValue, locator.spineIndex, locator.offset])
            {
                try Self.removeBookmark(db, uuid: old["uuid"], bookID: bookID.rawValue, at: bookmark.created)
            }
            let taken = try Set(
                String.fetchAll(db, sql: "SELECT title FROM bookmark WHERE bookID = ?", arguments: [bookID.rawValue]))
            let title = Self.uniqueTitle(Self.bookmarkTitle(locator.snippet ?? ""), among: taken)
            try db.execute(
                sql: """
                    INSERT INTO bookmark (uuid, bookID, spineIndex, "offset", snippet, createdAt, updatedAt, title)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    bookmark.id.uuidString, bookID.rawValue, locator.spineIndex, locator.offset,
                    locator.snippet ?? "", StoredDate(bookmark.created), StoredDate(bookmark.created), title,
                ])
            try Self.changed(db, .bookmark, key: title, bookID: bookID.rawValue, at: bookmark.created)
        }
        return bookmark
    }

    public func bookmarks(bookID: BookID) throws -> [Bookmark] {
        try writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT uuid, spineIndex, "offset", snippet, createdAt FROM bookmark
                        WHERE bookID = ? ORDER BY spineIndex, "offset", createdAt
                        """), arguments: [bookID.rawValue]
            ).compactMap { row in
                guard let id = (row["uuid"] as String?).flatMap(UUID.init(uuidString:)) else { return nil }
                return Bookmark(
                    id: id, locator: Self.locator(row["spineIndex"], row["offset"], row["snippet"]),
                    created: (row["createdAt"] as StoredDate).date)
            }
        }
    }

    public func removeBookmark(id: AnnotationID, bookID: BookID) throws {
        try write { db in try Self.removeBookmark(db, uuid: id.uuidString, bookID: bookID.rawValue, at: Date()) }
    }

    // MARK: Highlights

    public func saveHighlight(_ highlight: Highlight, bookID: BookID) throws {
        let now = Date()
        try write { db in
            // A highlight whose ends moved loses the places the server gave it: they are worked out again.
            try db.execute(
                sql: """
                    INSERT INTO highlight (uuid, bookID, startSpineIndex, startOffset, startSnippet, endSpineIndex, \
                    endOffset,
                        endSnippet, colour, note, text, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (uuid) DO UPDATE SET
                        startCFI = CASE WHEN (startSpineIndex, startOffset, endSpineIndex, endOffset)
                            = (excluded.startSpineIndex, excluded.startOffset,
                                excluded.endSpineIndex, excluded.endOffset)
                            THEN startCFI END,
                        endCFI = CASE WHEN (startSpineIndex, startOffset, endSpineIndex, endOffset)
                            = (excluded.startSpineIndex, excluded.startOffset,
                                excluded.endSpineIndex, excluded.endOffset)
                            THEN endCFI END,
                        startSpineIndex = excluded.startSpineIndex, startOffset = excluded.startOffset,
                        startSnippet = excluded.startSnippet, endSpineIndex = excluded.endSpineIndex,
                        endOffset = excluded.endOffset, endSnippet = excluded.endSnippet, colour = excluded.colour,
                        note = excluded.note, text = excluded.text, updatedAt = excluded.updatedAt
                    """,
                arguments: [
                    highlight.id.uuidString, bookID.rawValue, highlight.start.spineIndex, highlight.start.offset,
                    highlight.start.snippet ?? "", highlight.end.spineIndex, highlight.end.offset,
                    highlight.end.snippet ?? "", highlight.color.rawValue, highlight.note, highlight.text,
                    StoredDate(highlight.created), StoredDate(now),
                ])
            let key = try String.fetchOne(
                db, sql: "SELECT coalesce(syncKey, uuid) FROM highlight WHERE uuid = ?",
                arguments: [highlight.id.uuidString])
            try Self.changed(db, .highlight, key: key ?? highlight.id.uuidString, bookID: bookID.rawValue, at: now)
        }
    }

    public func highlights(bookID: BookID) throws -> [Highlight] {
        try writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM highlight WHERE bookID = ? ORDER BY startSpineIndex, startOffset, endSpineIndex, \
                        endOffset
                        """), arguments: [bookID.rawValue]
            ).compactMap { row in
                guard let id = (row["uuid"] as String?).flatMap(UUID.init(uuidString:)),
                    let color = (row["colour"] as String?).flatMap(HighlightColor.init(rawValue:))
                else { return nil }
                return Highlight(
                    id: id, start: Self.locator(row["startSpineIndex"], row["startOffset"], row["startSnippet"]),
                    end: Self.locator(row["endSpineIndex"], row["endOffset"], row["endSnippet"]),
                    color: color, note: row["note"], text: row["text"], created: (row["createdAt"] as StoredDate).date)
            }
        }
    }

    public func removeHighlight(id: AnnotationID, bookID: BookID) throws {
        let now = Date()
        try write { db in
            let key = try String.fetchOne(
                db, sql: "SELECT coalesce(syncKey, uuid) FROM highlight WHERE uuid = ? AND bookID = ?",
                arguments: [id.uuidString, bookID.rawValue])
            try db.execute(
                sql: "DELETE FROM highlight WHERE uuid = ? AND bookID = ?", arguments: [id.uuidString, bookID.rawValue])
            if let key { try Self.removed(db, .highlight, key: key, bookID: bookID.rawValue, at: now) }
        }
    }

    // MARK: Words looked up

    public func addLookedUpWord(_ word: LookedUpWord, bookID: BookID) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO lookedUpWord (bookID, word, found, meaning, dictionary, spineIndex, "offset", snippet,
                        firstAt, lastAt, times)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (bookID, word) DO UPDATE SET
                        found = excluded.found, meaning = excluded.meaning, dictionary = excluded.dictionary,
                        spineIndex = coalesce(excluded.spineIndex, spineIndex),
                        "offset" = coalesce(excluded."offset", "offset"), snippet = coalesce(excluded.snippet, snippet),
                        firstAt = min(firstAt, excluded.firstAt), lastAt = max(lastAt, excluded.lastAt),
                        times = times + excluded.times
                    """,
                arguments: [
                    bookID.rawValue, word.word, word.found, word.meaning, word.dictionary, word.locator?.spineIndex,
                    word.locator?.offset, word.locator?.snippet, StoredDate(word.first), StoredDate(word.last),
                    word.times,
                ])
        }
    }

    public func lookedUpWords(bookID: BookID) throws -> [LookedUpWord] {
        try writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM lookedUpWord WHERE bookID = ? ORDER BY firstAt, word"),
                arguments: [bookID.rawValue]
            ).map { row in
                let spine: Int? = row["spineIndex"]
                let offset: Int? = row["offset"]
                var word = LookedUpWord(
                    word: row["word"], found: row["found"], meaning: row["meaning"], dictionary: row["dictionary"],
                    locator: spine.map { Self.locator($0, offset ?? 0, row["snippet"] ?? "") },
                    at: (row["firstAt"] as StoredDate).date)
                word.last = (row["lastAt"] as StoredDate).date
                word.times = row["times"]
                return word
            }
        }
    }

    /// Every highlight and bookmark of every book, counted (for `shelf` summaries and tests).
    public func annotationCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM bookmark) + (SELECT count(*) FROM highlight)") ?? 0
        }
    }

    // MARK: Settings

    /// The settings key of the reader's defaults for new books.
    static let readerDefaultsKey = "reader.defaults"

    public func settings(bookID: BookID) throws -> ReaderPreferences? {
        try bookSettings(bookID: bookID.rawValue).flatMap(Self.decodePreferences)
    }

    public func saveSettings(_ settings: ReaderPreferences, bookID: BookID) throws {
        try setBookSettings(bookID: bookID.rawValue, json: Self.encode(settings))
    }

    public func defaultSettings() throws -> ReaderPreferences? {
        try setting(Self.readerDefaultsKey).flatMap(Self.decodePreferences)
    }

    public func saveDefaultSettings(_ settings: ReaderPreferences) throws {
        try setSetting(Self.readerDefaultsKey, to: Self.encode(settings))
    }

    // MARK: Pace

    public func addPaceSample(_ sample: PaceSample, bookID: BookID) throws {
        guard sample.seconds > 0, sample.characters >= 0 else { return }
        try write { db in
            try db.execute(
                sql: "INSERT INTO paceSample (bookID, characters, seconds, date) VALUES (?, ?, ?, ?)",
                arguments: [bookID.rawValue, sample.characters, sample.seconds, StoredDate(sample.date)])
        }
    }

    public func paceSamples(bookID: BookID?, limit: Int) throws -> [PaceSample] {
        try writer.read { db in
            let rows: [Row]
            if let bookID {
                rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM paceSample WHERE bookID = ? ORDER BY id DESC LIMIT ?"),
                    arguments: [bookID.rawValue, max(0, limit)])
            } else {
                rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM paceSample ORDER BY id DESC LIMIT ?"),
                    arguments: [max(0, limit)])
            }
            return rows.reversed().map {
                PaceSample(characters: $0["characters"], seconds: $0["seconds"], date: ($0["date"] as StoredDate).date)
            }
        }
    }

    // MARK: Book files

    /// Remembers which reader book id a product's file has, so the shelf can show its percent read.
    public func adoptLegacy(_ legacy: BookID, as id: BookID) throws {
        guard legacy != id else { return }
        // The tables keyed by the reader's book id; bookIdentity maps products to it.
        let tables = ["readingPosition", "bookmark", "highlight", "bookSettings", "paceSample", "lookedUpWord"]
        // Every open asks; once the old id is gone (or never was) one read answers, without a write.
        let anythingOld = try writer.read { db in
            let exists = (tables + ["bookIdentity"]).map { "EXISTS (SELECT 1 FROM \($0) WHERE bookID = ?1)" }
            return try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT " + exists.joined(separator: " OR ")), arguments: [legacy.rawValue])
                == true
        }
        guard anythingOld else { return }
        try write { db in
            for table in tables {
                let own = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM \(table) WHERE bookID = ?", arguments: [id.rawValue])
                guard own == 0 else { return }
            }
            for table in tables + ["bookIdentity"] {
                try db.execute(
                    sql: "UPDATE \(table) SET bookID = ? WHERE bookID = ?", arguments: [id.rawValue, legacy.rawValue])
            }
        }
    }

    /// Records that `productID`'s file holds the book the reader knows as `bookID` (see
    /// ``recordDownload(_:book:)``, which records it with the download).
    public func recordBookIdentity(productID: String, bookID: BookID) throws {
        try write { db in try Self.recordBookIdentity(db, productID: productID, bookID: bookID) }
    }

    static func recordBookIdentity(_ db: Database, productID: String, bookID: BookID) throws {
        try db.execute(
            sql: """
                INSERT INTO bookIdentity (productID, bookID) VALUES (?, ?)
                ON CONFLICT (productID) DO UPDATE SET bookID = excluded.bookID
                """, arguments: [productID, bookID.rawValue])
    }

    /// The reader book id recorded for a product.
    public func bookIdentity(productID: String) throws -> BookID? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT bookID FROM bookIdentity WHERE productID = ?", arguments: [productID])
        }.map(BookID.init(rawValue:))
    }

    // MARK: Helpers

    static func locator(_ spineIndex: Int, _ offset: Int, _ snippet: String) -> Locator {
        Locator(spineIndex: spineIndex, offset: offset, snippet: snippet.isEmpty ? nil : snippet)
    }

    private static func encode(_ preferences: ReaderPreferences) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(preferences), as: UTF8.self)
    }

    /// Settings that no longer decode (written by another version) fall back to the defaults.
    private static func decodePreferences(_ json: String) -> ReaderPreferences? {
        try? JSONDecoder().decode(ReaderPreferences.self, from: Data(json.utf8))
    }
}

extension ShelfStore {
    /// Runs each kind of read the reader makes when it opens a book once, for no book, so that
    /// GRDB's first use of each (its generic code, looked up at run time) is paid here, on the
    /// thread that opens the shelf beside the book, and not by the first page.
    public func prepareReaderReads() {
        let nobody = BookID(rawValue: "")
        _ = try? settings(bookID: nobody)
        _ = try? defaultSettings()
        _ = try? loadPosition(bookID: nobody)
        _ = try? bookmarks(bookID: nobody)
        _ = try? highlights(bookID: nobody)
        _ = try? paceSamples(bookID: nobody, limit: 1)
        try? adoptLegacy(nobody, as: BookID(rawValue: "-"))
    }
}
