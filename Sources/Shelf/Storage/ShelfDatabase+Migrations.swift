import GRDB

extension ShelfDatabase {
    /// The schema's history. A migration that has shipped is never edited: add "v2", "v3"…
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Raw SQL with raw table names, so later changes to the record types cannot change v1.
            try db.execute(sql: """
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
                    CHECK (endSpineIndex > startSpineIndex OR (endSpineIndex = startSpineIndex AND endOffset >= startOffset))
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
        return migrator
    }
}
