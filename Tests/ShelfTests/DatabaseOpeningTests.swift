import Foundation
import GRDB
import Reader
import Testing

@testable import Shelf

/// A fresh temporary directory per test, removed afterwards.
struct TemporaryDirectory: ~Copyable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bok-shelf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite("Opening the shelf database")
struct DatabaseOpeningTests {
    @Test("Migrations create every table on an empty database")
    func migratesEmpty() throws {
        let database = try ShelfDatabase.inMemory()
        let tables = try database.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        #expect(Set(tables) == ShelfDatabase.tables.union(["grdb_migrations"]))
        let applied = try database.writer.read { db in try ShelfDatabase.migrator.appliedIdentifiers(db) }
        #expect(
            applied == [
                "v1", "v2", "v3", "v4", "v5", "v6", "v7-annotation-sync", "v8-kosync", "v9-cover-urls",
                "v10-library-annotations",
            ])
    }

    @Test("Cover addresses: kept by product, replaced, only http and https; v9-cover-urls sorts between v8 and v10")
    func coverURLs() throws {
        let store = ShelfStore(database: try ShelfDatabase.inMemory())
        try store.recordCoverURL(productID: "p1", url: "https://elib.example/covers/1.jpg")
        try store.recordCoverURL(productID: "p1", url: "https://elib.example/covers/1b.jpg")
        try store.recordCoverURL(productID: "p2", url: "file:///etc/passwd")
        try store.recordCoverURL(productID: "p3", url: "https://elib.example/a b.jpg")
        #expect(try store.coverURLs(productIDs: ["p1", "p2", "p3"]) == ["p1": "https://elib.example/covers/1b.jpg"])
        #expect(ShelfDatabase.versionOrder("v8", "v9-cover-urls") && ShelfDatabase.versionOrder("v9-cover-urls", "v10"))
    }

    @Test("A v1 database moves to v2 with its loans, bookmarks and highlights kept, each given an id")
    func migratesFromV1() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("shelf.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: ShelfDatabase.configuration())
            try ShelfDatabase.migrator.migrate(queue, upTo: "v1")
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO libraryProfile (id, name, baseURL, serviceID) VALUES (1, 'Bibblan', \
                        'https://elib.example', '7');
                        INSERT INTO loan (libraryProfile, loanID, productID, title, expiryDate, active, syncedAt)
                            VALUES (1, 'L1', 'p1', 'Röda rummet', '2026-12-01', 1, '2026-11-20 10:00:00.000');
                        INSERT INTO bookmark (bookID, spineIndex, "offset", snippet, createdAt)
                            VALUES ('b', 2, 40, 'Det var en afton', '2026-11-20 10:00:00.000'),
                                   ('b', 3, 0, 'Nästa', '2026-11-20 10:00:00.000');
                        INSERT INTO highlight (bookID, startSpineIndex, startOffset, startSnippet, endSpineIndex, \
                        endOffset,
                            endSnippet, colour, note, createdAt)
                            VALUES ('b', 1, 5, 'Han gick', 1, 60, 'hem', 'pink', 'vackert', '2026-11-20 10:00:00.000');
                        """)
            }
        }
        let store = ShelfStore(database: try ShelfDatabase.open(at: url))
        let applied = try store.database.writer.read { db in try ShelfDatabase.migrator.appliedIdentifiers(db) }
        #expect(
            applied == [
                "v1", "v2", "v3", "v4", "v5", "v6", "v7-annotation-sync", "v8-kosync", "v9-cover-urls",
                "v10-library-annotations",
            ])
        #expect(try store.loans().map(\.title) == ["Röda rummet"])
        #expect(try store.loans().first?.card == "")
        let marks = try store.bookmarks(bookID: "b")
        #expect(marks.map(\.locator.snippet) == ["Det var en afton", "Nästa"])
        #expect(Set(marks.map(\.id)).count == 2)
        let highlight = try #require(try store.highlights(bookID: "b").first)
        #expect(highlight.color == .pink && highlight.note == "vackert" && highlight.text == "Han gick")
        try store.removeHighlight(id: highlight.id, bookID: "b")
        #expect(try store.highlights(bookID: "b").isEmpty)
    }

    @Test("A file is created in WAL mode, its directory too, and opens again")
    func fileInWAL() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("deep/er/bok.sqlite")
        let database = try ShelfDatabase.open(at: url)
        let mode = try database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        try ShelfStore(database: database).setSetting("theme", to: "dark")
        let again = try ShelfDatabase.open(at: url)
        #expect(try ShelfStore(database: again).setting("theme") == "dark")
    }

    @Test("A file that is not SQLite is refused, named, and left untouched")
    func notSQLite() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        let content = Data(String(repeating: "These are my notes, not a database.\n", count: 200).utf8)
        try content.write(to: url)
        let error = try #require(throws: ShelfError.self) { try ShelfDatabase.open(at: url) }
        #expect(error.isNotSQLite)
        #expect(
            error.description
                == "\(url.path) is not a bok database (not SQLite). Move it aside and bok will start a new one.")
        #expect(try Data(contentsOf: url) == content)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("Another program's SQLite database is refused and left untouched")
    func foreign() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        do {
            let other = try DatabaseQueue(path: url.path)
            try other.write { db in
                try db.execute(
                    sql:
                        """
                        CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO recipes VALUES (1, \
                        'Kanelbulle')
                        """
                )
            }
            try other.close()
        }
        let before = try Data(contentsOf: url)
        let error = try #require(throws: ShelfError.self) { try ShelfDatabase.open(at: url) }
        #expect(error.isForeign)
        #expect(error.description.hasPrefix("\(url.path) is an SQLite database of another program (tables recipes)"))
        #expect(error.description.contains("Move it aside"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("A database from a newer bok is refused with its schema version, not reset")
    func newerSchema() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        do {
            let database = try ShelfDatabase.open(at: url)
            try ShelfStore(database: database).setSetting("kept", to: "yes")
            try database.writer.write { db in
                try db.execute(sql: "CREATE TABLE futureThing (id INTEGER PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v7'), ('v10')")
            }
            try database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            try database.writer.close()
        }
        let before = try Data(contentsOf: url)
        let error = try #require(throws: ShelfError.self) { try ShelfDatabase.open(at: url) }
        #expect(error.isNewerSchema)
        #expect(error.description.hasPrefix("\(url.path) was written by a newer bok (schema v10); update bok"))
        #expect(try Data(contentsOf: url) == before)
        let kept = try DatabaseQueue(path: url.path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'kept'")
        }
        #expect(kept == "yes")
    }
}
