import Foundation
import GRDB

extension ShelfDatabase {
    /// The schema's history. A migration that has shipped is never edited: add "v2", "v3"…
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Raw SQL with raw table names, so later changes to the record types cannot change v1.
            try db.execute(
                sql: """
                    CREATE TABLE libraryProfile (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL,
                        baseURL TEXT NOT NULL CHECK (baseURL <> ''),
                        serviceID TEXT NOT NULL,
                        lastSyncedAt DATETIME,
                        UNIQUE (baseURL, serviceID)
                    );
                    CREATE TABLE loan (
                        libraryProfile INTEGER NOT NULL REFERENCES libraryProfile(id) ON DELETE CASCADE,
                        loanID TEXT NOT NULL,
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        expiryDate TEXT NOT NULL CHECK (expiryDate GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                        createdDate DATETIME,
                        active BOOLEAN NOT NULL,
                        endedAt DATETIME,
                        syncedAt DATETIME NOT NULL,
                        PRIMARY KEY (libraryProfile, loanID),
                        CHECK (active OR endedAt IS NOT NULL)
                    );
                    CREATE INDEX loan_on_productID ON loan(productID);
                    CREATE INDEX loan_on_active ON loan(active, expiryDate);
                    CREATE TABLE reservation (
                        libraryProfile INTEGER NOT NULL REFERENCES libraryProfile(id) ON DELETE CASCADE,
                        reservationID TEXT NOT NULL,
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        queuePosition INTEGER NOT NULL CHECK (queuePosition >= 0),
                        estimatedDate TEXT,
                        ready BOOLEAN NOT NULL,
                        readyUntil TEXT,
                        syncedAt DATETIME NOT NULL,
                        active BOOLEAN NOT NULL,
                        PRIMARY KEY (libraryProfile, reservationID)
                    );
                    CREATE INDEX reservation_on_productID ON reservation(productID);
                    CREATE TABLE sample (
                        productID TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        addedAt DATETIME NOT NULL,
                        path TEXT
                    );
                    CREATE TABLE toBeRead (
                        productID TEXT PRIMARY KEY NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        addedAt DATETIME NOT NULL,
                        position INTEGER NOT NULL
                    );
                    CREATE TABLE download (
                        productID TEXT PRIMARY KEY NOT NULL,
                        loanID TEXT,
                        path TEXT NOT NULL UNIQUE,
                        size INTEGER NOT NULL CHECK (size >= 0),
                        sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                        format TEXT NOT NULL CHECK (format IN ('epub', 'pdf', 'sample')),
                        downloadedAt DATETIME NOT NULL
                    );
                    CREATE TABLE readingPosition (
                        bookID TEXT PRIMARY KEY NOT NULL,
                        spineIndex INTEGER NOT NULL CHECK (spineIndex >= 0),
                        "offset" INTEGER NOT NULL CHECK ("offset" >= 0),
                        snippet TEXT NOT NULL,
                        updatedAt DATETIME NOT NULL,
                        percent DOUBLE NOT NULL CHECK (percent BETWEEN 0 AND 100)
                    );
                    CREATE TABLE bookmark (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        bookID TEXT NOT NULL,
                        spineIndex INTEGER NOT NULL CHECK (spineIndex >= 0),
                        "offset" INTEGER NOT NULL CHECK ("offset" >= 0),
                        snippet TEXT NOT NULL,
                        note TEXT,
                        createdAt DATETIME NOT NULL,
                        UNIQUE (bookID, spineIndex, "offset")
                    );
                    CREATE TABLE highlight (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        bookID TEXT NOT NULL,
                        startSpineIndex INTEGER NOT NULL CHECK (startSpineIndex >= 0),
                        startOffset INTEGER NOT NULL CHECK (startOffset >= 0),
                        startSnippet TEXT NOT NULL,
                        endSpineIndex INTEGER NOT NULL,
                        endOffset INTEGER NOT NULL,
                        endSnippet TEXT NOT NULL,
                        colour TEXT NOT NULL CHECK (colour IN ('yellow', 'green', 'blue', 'pink')),
                        note TEXT,
                        createdAt DATETIME NOT NULL,
                        CHECK (endSpineIndex > startSpineIndex OR (endSpineIndex = startSpineIndex AND endOffset >= \
                    startOffset))
                    );
                    CREATE INDEX bookmark_on_bookID ON bookmark(bookID);
                    CREATE INDEX highlight_on_bookID ON highlight(bookID, startSpineIndex, startOffset);
                    CREATE TABLE bookSettings (
                        bookID TEXT PRIMARY KEY NOT NULL,
                        settings TEXT NOT NULL CHECK (json_valid(settings))
                    );
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2") { db in
            // Loans and reservations belong to a card, so two patrons on one computer keep apart;
            // rows from v1 get '' and are replaced by the next sync.
            try db.execute(
                sql: """
                    ALTER TABLE loan ADD COLUMN card TEXT NOT NULL DEFAULT '';
                    ALTER TABLE reservation ADD COLUMN card TEXT NOT NULL DEFAULT '';
                    ALTER TABLE reservation ADD COLUMN authors TEXT NOT NULL DEFAULT '';
                    CREATE INDEX loan_on_card ON loan(libraryProfile, card);
                    CREATE INDEX reservation_on_card ON reservation(libraryProfile, card);
                    -- Which book file a product is: the shelf shows the percent read of the reader's book id.
                    CREATE TABLE bookIdentity (
                        productID TEXT PRIMARY KEY NOT NULL,
                        bookID TEXT NOT NULL
                    );
                    CREATE INDEX bookIdentity_on_bookID ON bookIdentity(bookID);
                    -- The reader names bookmarks and highlights by UUID so they keep their identity in any store.
                    ALTER TABLE bookmark ADD COLUMN uuid TEXT;
                    CREATE TABLE highlight_v2 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        uuid TEXT NOT NULL UNIQUE,
                        bookID TEXT NOT NULL,
                        startSpineIndex INTEGER NOT NULL CHECK (startSpineIndex >= 0),
                        startOffset INTEGER NOT NULL CHECK (startOffset >= 0),
                        startSnippet TEXT NOT NULL,
                        endSpineIndex INTEGER NOT NULL,
                        endOffset INTEGER NOT NULL,
                        endSnippet TEXT NOT NULL,
                        colour TEXT NOT NULL CHECK (colour IN ('yellow', 'green', 'blue', 'pink', 'purple')),
                        note TEXT,
                        text TEXT NOT NULL DEFAULT '',
                        createdAt DATETIME NOT NULL,
                        CHECK (endSpineIndex > startSpineIndex OR (endSpineIndex = startSpineIndex AND endOffset >= \
                    startOffset))
                    );
                    CREATE TABLE paceSample (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        bookID TEXT NOT NULL,
                        characters INTEGER NOT NULL CHECK (characters >= 0),
                        seconds DOUBLE NOT NULL CHECK (seconds > 0),
                        date DATETIME NOT NULL
                    );
                    CREATE INDEX paceSample_on_bookID ON paceSample(bookID, id);
                    """)
            // Every existing bookmark and highlight gets its own UUID (SQL has no per-row UUID function).
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM bookmark") {
                try db.execute(sql: "UPDATE bookmark SET uuid = ? WHERE id = ?", arguments: [UUID().uuidString, id])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX bookmark_on_uuid ON bookmark(uuid)")
            for row in try Row.fetchAll(db, sql: "SELECT * FROM highlight ORDER BY id") {
                // v1 kept no text; the start snippet is the best there is.
                try db.execute(
                    sql: """
                        INSERT INTO highlight_v2 (id, uuid, bookID, startSpineIndex, startOffset, startSnippet, \
                        endSpineIndex,
                            endOffset, endSnippet, colour, note, text, createdAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row["id"], UUID().uuidString, row["bookID"], row["startSpineIndex"], row["startOffset"],
                        row["startSnippet"], row["endSpineIndex"], row["endOffset"], row["endSnippet"],
                        row["colour"], row["note"], row["startSnippet"], row["createdAt"],
                    ])
            }
            try db.execute(
                sql: """
                    DROP TABLE highlight;
                    ALTER TABLE highlight_v2 RENAME TO highlight;
                    CREATE INDEX highlight_on_bookID ON highlight(bookID, startSpineIndex, startOffset);
                    """)
        }
        migrator.registerMigration("v3") { db in
            // What changed at the library since the last sync, told once per card (`Notice`).
            try db.execute(
                sql: """
                    CREATE TABLE notice (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        libraryProfile INTEGER NOT NULL REFERENCES libraryProfile(id) ON DELETE CASCADE,
                        card TEXT NOT NULL,
                        key TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        day TEXT,
                        createdAt DATETIME NOT NULL,
                        UNIQUE (libraryProfile, card, key)
                    );
                    CREATE INDEX notice_on_card ON notice(libraryProfile, card, createdAt);
                    -- Samples and the to-be-read list belong to the card that added them; rows from
                    -- before get '' and are shown to every card.
                    CREATE TABLE sample_v3 (
                        card TEXT NOT NULL DEFAULT '',
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        addedAt DATETIME NOT NULL,
                        path TEXT,
                        PRIMARY KEY (card, productID)
                    );
                    INSERT INTO sample_v3 (card, productID, title, authors, addedAt, path)
                        SELECT '', productID, title, authors, addedAt, path FROM sample;
                    DROP TABLE sample;
                    ALTER TABLE sample_v3 RENAME TO sample;
                    CREATE TABLE toBeRead_v3 (
                        card TEXT NOT NULL DEFAULT '',
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        addedAt DATETIME NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (card, productID)
                    );
                    INSERT INTO toBeRead_v3 (card, productID, title, authors, addedAt, position)
                        SELECT '', productID, title, authors, addedAt, position FROM toBeRead;
                    DROP TABLE toBeRead;
                    ALTER TABLE toBeRead_v3 RENAME TO toBeRead;
                    """)
        }
        migrator.registerMigration("v4") { db in
            // Books a card watches (`watch N`), told once when they can be borrowed.
            try db.execute(
                sql: """
                    CREATE TABLE watch (
                        libraryProfile INTEGER NOT NULL REFERENCES libraryProfile(id) ON DELETE CASCADE,
                        card TEXT NOT NULL,
                        productID TEXT NOT NULL,
                        title TEXT NOT NULL,
                        authors TEXT NOT NULL DEFAULT '',
                        addedAt DATETIME NOT NULL,
                        available BOOLEAN NOT NULL DEFAULT 0,
                        PRIMARY KEY (libraryProfile, card, productID)
                    );
                    """)
        }
        migrator.registerMigration("v5") { db in
            // Where a book lives on a sync server (calibre: library and book id), and the places
            // waiting to be sent there: one a book, the newest, kept until the server has it.
            try db.execute(
                sql: """
                    CREATE TABLE syncLink (
                        bookID TEXT PRIMARY KEY NOT NULL,
                        server TEXT NOT NULL,
                        library TEXT NOT NULL,
                        serverBookID INTEGER NOT NULL,
                        format TEXT NOT NULL
                    );
                    CREATE TABLE pendingPosition (
                        bookID TEXT PRIMARY KEY NOT NULL REFERENCES syncLink(bookID) ON DELETE CASCADE,
                        cfi TEXT NOT NULL,
                        fraction DOUBLE NOT NULL,
                        madeAt DATETIME NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v6") { db in
            // Words looked up in a book (`:define`), a learner's vocabulary list: one row a word.
            try db.execute(
                sql: """
                    CREATE TABLE lookedUpWord (
                        bookID TEXT NOT NULL,
                        word TEXT NOT NULL,
                        found TEXT NOT NULL,
                        meaning TEXT NOT NULL,
                        dictionary TEXT NOT NULL,
                        spineIndex INTEGER,
                        "offset" INTEGER,
                        snippet TEXT,
                        firstAt DATETIME NOT NULL,
                        lastAt DATETIME NOT NULL,
                        times INTEGER NOT NULL DEFAULT 1,
                        PRIMARY KEY (bookID, word)
                    );
                    """)
        }
        migrator.registerMigration("v7-annotation-sync") { db in
            // Bookmarks and highlights synced through calibre (issue 30): when each was last changed,
            // its place as the server has it (a CFI), a bookmark's title (calibre knows a bookmark by
            // it), tombstones of deleted ones, and the changes waiting to be sent, kept until the
            // server has them. Bookmarks from another device may share a place, so the one-a-place
            // constraint goes (bok still replaces its own bookmark at a place).
            try db.execute(
                sql: """
                    CREATE TABLE bookmark_v7 (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        uuid TEXT NOT NULL UNIQUE,
                        bookID TEXT NOT NULL,
                        spineIndex INTEGER NOT NULL CHECK (spineIndex >= 0),
                        "offset" INTEGER NOT NULL CHECK ("offset" >= 0),
                        snippet TEXT NOT NULL,
                        note TEXT,
                        createdAt DATETIME NOT NULL,
                        updatedAt DATETIME NOT NULL,
                        title TEXT NOT NULL,
                        cfi TEXT,
                        UNIQUE (bookID, title)
                    );
                    ALTER TABLE highlight ADD COLUMN updatedAt DATETIME;
                    ALTER TABLE highlight ADD COLUMN startCFI TEXT;
                    ALTER TABLE highlight ADD COLUMN endCFI TEXT;
                    -- calibre's id for a highlight another reader made (not a UUID): bok's uuid stays its own.
                    ALTER TABLE highlight ADD COLUMN syncKey TEXT;
                    ALTER TABLE syncLink ADD COLUMN file TEXT;
                    CREATE TABLE annotationTombstone (
                        bookID TEXT NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('bookmark', 'highlight')),
                        key TEXT NOT NULL,
                        removedAt DATETIME NOT NULL,
                        PRIMARY KEY (bookID, kind, key)
                    );
                    CREATE TABLE pendingAnnotation (
                        bookID TEXT NOT NULL REFERENCES syncLink(bookID) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('bookmark', 'highlight')),
                        key TEXT NOT NULL,
                        madeAt DATETIME NOT NULL,
                        PRIMARY KEY (bookID, kind, key)
                    );
                    """)
            var titles: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM bookmark ORDER BY id") {
                let bookID: String = row["bookID"]
                let title = ShelfStore.uniqueTitle(
                    ShelfStore.bookmarkTitle(row["snippet"]), among: titles[bookID] ?? [])
                titles[bookID, default: []].insert(title)
                try db.execute(
                    sql: """
                        INSERT INTO bookmark_v7 (id, uuid, bookID, spineIndex, "offset", snippet, note, createdAt, \
                        updatedAt, title)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row["id"], row["uuid"] ?? UUID().uuidString, bookID, row["spineIndex"], row["offset"],
                        row["snippet"], row["note"], row["createdAt"], row["createdAt"], title,
                    ])
            }
            try db.execute(
                sql: """
                    DROP TABLE bookmark;
                    ALTER TABLE bookmark_v7 RENAME TO bookmark;
                    CREATE INDEX bookmark_on_bookID ON bookmark(bookID);
                    """)
        }
        migrator.registerMigration("v8-kosync") { db in
            // Places waiting for a KOReader sync server: one a server and document, the newest.
            try db.execute(
                sql: """
                    CREATE TABLE kosyncPending (
                        server TEXT NOT NULL,
                        document TEXT NOT NULL,
                        progress TEXT NOT NULL,
                        percentage DOUBLE NOT NULL,
                        madeAt DATETIME NOT NULL,
                        PRIMARY KEY (server, document)
                    );
                    """)
        }
        migrator.registerMigration("v9-cover-urls") { db in
            // Where each shelf book's cover is (`shelf --covers`), recorded when a loan,
            // reservation, sample or to-be-read book is added from a list that knew it: the
            // loans a sync brings carry none. Named, not numbered on: other branches add v7 and v8.
            try db.execute(
                sql: """
                    CREATE TABLE coverURL (
                        productID TEXT PRIMARY KEY NOT NULL,
                        url TEXT NOT NULL CHECK (url GLOB 'http*://*')
                    );
                    """)
        }
        migrator.registerMigration("v10-library-annotations") { db in
            // Bookmarks and highlights kept by the lending library itself (Palace's annotation
            // service, issue 30): a synced book says which kind of server it syncs with; a library's
            // link is its annotation service (in `server`), the book's id there (`source`) and the
            // patron profile holding the opt-in. The library names each annotation by an id it
            // makes: which id each of the book's bookmarks and highlights has there.
            try db.execute(
                sql: """
                    ALTER TABLE syncLink ADD COLUMN kind TEXT NOT NULL DEFAULT 'calibre'
                        CHECK (kind IN ('calibre', 'library'));
                    ALTER TABLE syncLink ADD COLUMN source TEXT;
                    ALTER TABLE syncLink ADD COLUMN profile TEXT;
                    CREATE TABLE libraryAnnotationID (
                        bookID TEXT NOT NULL REFERENCES syncLink(bookID) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('bookmark', 'highlight')),
                        key TEXT NOT NULL,
                        serverID TEXT NOT NULL,
                        PRIMARY KEY (bookID, kind, key)
                    );
                    """)
        }
        return migrator
    }
}
