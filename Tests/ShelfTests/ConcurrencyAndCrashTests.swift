import Foundation
import GRDB
import Shelf
import Testing

@testable import Reader

@Suite("Two processes and a crash")
struct ConcurrencyAndCrashTests {
    @Test("Two connections on one file write at once and lose nothing (busy timeout)")
    func concurrentWriters() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        // Each ShelfDatabase.open is what one bok process does: its own DatabaseQueue on the file.
        let first = ShelfStore(database: try ShelfDatabase.open(at: url))
        let second = ShelfStore(database: try ShelfDatabase.open(at: url))
        let perWriter = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (name, store) in [("a", first), ("b", second)] {
                group.addTask {
                    for i in 0..<perWriter {
                        try store.addToBeRead(productID: "\(name)\(i)", title: "Bok \(name) \(i)")
                        try store.savePosition(
                            ReadingPosition(bookID: name, locator: Locator(spineIndex: 0, offset: i), percent: 1))
                    }
                }
            }
            try await group.waitForAll()
        }
        let list = try first.toBeRead()
        #expect(list.count == 2 * perWriter)
        // Positions are handed out in one transaction with the insert, so none is taken twice.
        #expect(Set(list.map(\.position)).count == 2 * perWriter)
        #expect(try second.position(bookID: "a")?.offset == perWriter - 1)
    }

    @Test("A writer that dies mid-transaction leaves a sound database with every committed write")
    func killedWriter() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        let store = ShelfStore(database: try ShelfDatabase.open(at: url))
        try store.addToBeRead(productID: "kept", title: "Committed before the crash")

        // The "other process": its own connection begins a write, writes, and vanishes without COMMIT.
        // (The test target cannot spawn bok itself; closing the connection with the transaction open is what
        // SQLite sees when a process is killed: the uncommitted frames in the WAL are never marked committed.)
        do {
            var config = ShelfDatabase.configuration()
            config.allowsUnsafeTransactions = true  // let the closure end with the transaction still open
            let victim = try DatabaseQueue(path: url.path, configuration: config)
            try victim.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(
                    sql:
                        """
                        INSERT INTO toBeRead (productID, title, authors, addedAt, position) VALUES ('lost', 'x', \
                        '', '2026-01-01', 99)
                        """
                )
                try db.execute(sql: "UPDATE toBeRead SET title = 'overwritten' WHERE productID = 'kept'")
            }
            try? victim.close()
        }

        try store.addToBeRead(productID: "after", title: "Written after the crash")
        let reopened = try ShelfDatabase.open(at: url)
        let check = try reopened.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
        let list = try ShelfStore(database: reopened).toBeRead()
        #expect(list.map(\.productID) == ["kept", "after"])
        #expect(list.first?.title == "Committed before the crash")
    }

    @Test(
        "A real process killed with SIGKILL mid-transaction loses only its own uncommitted write",
        // make test installs sqlite3 (scripts/install-test-tools.sh).
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func sigkilledProcess() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("bok.sqlite")
        let store = ShelfStore(database: try ShelfDatabase.open(at: url))
        try store.addToBeRead(productID: "kept", title: "Committed before the crash")

        // sqlite3 begins a write, spills megabytes of uncommitted pages into the WAL, then has itself
        // killed with SIGKILL (`.system` runs a shell whose parent is sqlite3) before COMMIT.
        let script = """
            PRAGMA busy_timeout = 5000;
            PRAGMA cache_size = 10;
            BEGIN IMMEDIATE;
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
              INSERT INTO toBeRead (productID, title, authors, addedAt, position)
              SELECT 'lost' || i, hex(randomblob(100)), '', '2026-01-01', 1000 + i FROM c;
            UPDATE toBeRead SET title = 'overwritten' WHERE productID = 'kept';
            .system kill -9 $PPID
            COMMIT;
            """
        let scriptURL = dir.url.appendingPathComponent("crash.sql")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec /usr/bin/sqlite3 \"$0\" < \"$1\"", url.path, scriptURL.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)

        try store.addToBeRead(productID: "after", title: "Written after the crash")
        let reopened = try ShelfDatabase.open(at: url)
        let check = try reopened.writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(check == ["ok"])
        let list = try ShelfStore(database: reopened).toBeRead()
        #expect(list.map(\.productID) == ["kept", "after"])
        #expect(list.first?.title == "Committed before the crash")
    }
}
