public import Foundation
public import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shelf's SQLite database: one `DatabaseQueue` per file, in WAL mode, migrated on open.
///
/// Shaped like GRDB's demo `AppDatabase`. Two bok processes may share the file: WAL lets one read
/// while the other writes, writes take the lock up front (`BEGIN IMMEDIATE`) and wait up to
/// `busyTimeout` for each other instead of failing.
public struct ShelfDatabase: Sendable {
    /// The connection, shared by the whole process. Writes go through `ShelfStore`.
    public let writer: DatabaseQueue
    /// Why the database was opened read-only (a full disk, a folder that refuses writes), or nil
    /// when it can be written. Read-only, it shows the shelf as last saved.
    public let readOnlyBecause: ShelfError?

    /// How long a write waits for another process's transaction to finish.
    public static let busyTimeout: TimeInterval = 5

    /// The newest schema this bok knows, as the name of its last migration.
    public static var schemaVersion: String { migrator.migrations.last ?? "v1" }

    /// Checks that `writer` holds a bok database (or an empty one), switches it to WAL and migrates it.
    ///
    /// - Throws: `ShelfError` when the file is not SQLite, is another program's database or has a
    ///   newer schema; the file is left as it was. GRDB's `DatabaseError` otherwise.
    public init(_ writer: DatabaseQueue) throws {
        self.writer = writer
        readOnlyBecause = nil
        let path = writer.path
        let migrator = Self.migrator
        do {
            // Inspect before anything writes: a foreign or newer file must stay untouched. A shelf
            // already in WAL with every migration applied (every open but the first) needs no write
            // at all: the WAL switch and the migrator's transaction were a millisecond or two of
            // every `bok read`'s way to its first page.
            let current = try writer.inDatabase { db -> Bool in
                let tables = try String.fetchAll(
                    db,
                    sql: """
                        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                        """)
                guard !tables.isEmpty else { return false }
                guard tables.contains("grdb_migrations") else { throw ShelfError.foreign(path, tables: tables) }
                let known = Set(migrator.migrations)
                let applied = try migrator.appliedIdentifiers(db)
                if let newer = applied.subtracting(known).sorted(by: Self.versionOrder).last {
                    throw ShelfError.newerSchema(path, version: newer)
                }
                let ours = Self.tables.union(["grdb_migrations"])
                let strangers = tables.filter { !ours.contains($0) }
                if !strangers.isEmpty { throw ShelfError.foreign(path, tables: strangers) }
                let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased()
                return known.isSubset(of: applied) && (journal == "wal" || journal == "memory")
            }
            if current { return }
            try writer.writeWithoutTransaction { db in
                // An in-memory database answers "memory"; that is fine.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try migrator.migrate(writer)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ShelfError.notSQLite(path)
        }
    }

    /// A database that could not be opened for writing, read as it was last saved.
    private init(readOnly writer: DatabaseQueue, because problem: ShelfError) throws {
        try writer.inDatabase { db in
            guard try db.tableExists("grdb_migrations"), try db.tableExists("loan") else { throw problem }
        }
        self.writer = writer
        readOnlyBecause = problem
    }

    /// The configuration every shelf connection uses.
    public static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        // GRDB 7 begins write transactions IMMEDIATE on its own, taking the write lock at BEGIN,
        // so two processes never deadlock upgrading a read to a write.
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            // In WAL, NORMAL still survives a crash of the process at any moment; only a power cut
            // may lose the last commits. It keeps saving a reading position well under 2 ms.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return config
    }

    /// Opens (creating if needed) the database at `url`, creating its directory.
    /// - Throws: `ShelfError` for a file that is not a bok database; file system and GRDB errors.
    public static func open(at url: URL) throws -> ShelfDatabase {
        do {
            return try openForWriting(at: url)
        } catch {
            // A full disk (or a folder turned read-only) must not take the shelf away: show it as last saved.
            guard let problem = ShelfError.saving(error, path: url.path),
                FileManager.default.fileExists(atPath: url.path)
            else {
                throw error
            }
            var configuration = configuration()
            configuration.readonly = true
            // `immutable=1`: no lock, no -wal or -shm to create, which a full disk would refuse.
            // What an unfinished -wal holds is not seen; bok checkpoints it on every clean exit.
            guard var components = URLComponents(url: url.standardizedFileURL, resolvingAgainstBaseURL: false) else {
                throw problem
            }
            components.scheme = "file"
            components.host = nil
            components.query = "immutable=1"
            guard let uri = components.string else { throw problem }
            return try ShelfDatabase(readOnly: DatabaseQueue(path: uri, configuration: configuration), because: problem)
        }
    }

    private static func openForWriting(at url: URL) throws -> ShelfDatabase {
        // The database holds card numbers and reading history: its folder 0700, the file 0600
        // (SQLite gives the -wal and -shm files the database file's mode).
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let created = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        do {
            return try migrate(at: url)
        } catch {
            // A new database that could not be made whole (the disk filled while it was set up) is
            // bok's own and empty: removed, so that the next start makes it again rather than
            // finding a damaged file. An existing one is never touched.
            if created >= 0, ShelfError.saving(error, path: url.path) != nil {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(url.path + suffix) }
            }
            throw error
        }
    }

    private static func migrate(at url: URL) throws -> ShelfDatabase {
        // GRDB's migrator reads which migrations are applied before it takes the write lock, so two
        // processes opening a new file at once would both run v1. A lock file next to the database
        // makes opening (inspect, WAL, migrate) one process at a time; the kernel drops it if bok dies.
        let lock = try OpenLock(url.appendingPathExtension("lock"), timeout: busyTimeout)
        defer { lock.release() }
        let queue: DatabaseQueue
        do {
            // GRDB reads the schema on open, so a file that is not SQLite already fails here.
            queue = try DatabaseQueue(path: url.path, configuration: configuration())
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw ShelfError.notSQLite(url.path)
        }
        return try ShelfDatabase(queue)
    }

    /// An empty, migrated database in memory, for tests.
    public static func inMemory() throws -> ShelfDatabase {
        try ShelfDatabase(DatabaseQueue(configuration: configuration()))
    }

    /// The tables the migrations create.
    static let tables: Set<String> = [
        "libraryProfile", "loan", "reservation", "sample", "toBeRead", "download", "readingPosition",
        "bookmark", "highlight", "bookSettings", "setting", "bookIdentity", "paceSample", "notice", "watch",
        "syncLink", "pendingPosition", "lookedUpWord", "annotationTombstone", "pendingAnnotation",
        "kosyncPending", "coverURL", "libraryAnnotationID",
    ]

    /// `v2` before `v7-annotation-sync` before `v10`: by the number after the `v`.
    static func versionOrder(_ a: String, _ b: String) -> Bool {
        let na = Int(a.dropFirst().prefix(while: \.isASCII).prefix(while: \.isNumber)) ?? 0
        let nb = Int(b.dropFirst().prefix(while: \.isASCII).prefix(while: \.isNumber)) ?? 0
        return na != nb ? na < nb : a < b
    }
}

/// An exclusive `flock` on a file, held while a database is opened and migrated.
struct OpenLock {
    private let descriptor: Int32

    /// Waits up to `timeout` for the lock.
    /// - Throws: `ShelfError.busy` when another process holds it longer.
    init(_ url: URL, timeout: TimeInterval) throws {
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(descriptor)
                throw ShelfError.busy(url.deletingPathExtension().path)
            }
            usleep(10_000)
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
