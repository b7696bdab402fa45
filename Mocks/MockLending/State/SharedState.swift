import Catalog
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// The simulated library's state in a file, so that every `bok --mock` of one user sees one
/// library, as patrons of a real one do: a second terminal, or a one-shot `bok --mock shelf
/// --sync`, sees the first one's loans instead of a fresh seed.
///
/// One SQLite file (GRDB, WAL) with one row: the state's changing parts (a binary property list) and a generation
/// number. A change is one `BEGIN IMMEDIATE` transaction: read the row, apply the change to the
/// newest state, write it back — so two processes borrowing at once are serialised by SQLite's
/// write lock and neither loses or doubles a loan. A read looks at the generation (one indexed
/// row) and reloads only when another process has written since. See docs/mock-library.md for why
/// this and not the first process serving the others.
///
/// Every failure is a ``SharedStateProblem`` (a damaged or read-only file, a read-only `-shm`
/// left beside it, the file removed under a running process): `MockLibrary` then lends on
/// privately and says so, and `mock reset` rebuilds the file (``rebuild(file:)``).
final class SharedState: Sendable {
    /// The state file.
    let file: URL
    private let queue: DatabaseQueue
    /// The file as opened: another one (or none) at its path means it was removed or replaced.
    private let identity: FileIdentity

    /// Opens (creating) the file; its folder is made 0700 and the file 0600 (it holds the
    /// simulated patrons' PINs).
    /// - Throws: what keeps the file from being read or changed, found now rather than at a
    ///   patron's first borrow.
    init(file: URL) throws(SharedStateProblem) {
        self.file = file
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if !FileManager.default.fileExists(atPath: file.path) {
                _ = FileManager.default.createFile(
                    atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.label = "bok.mock.state"
            queue = try DatabaseQueue(path: file.path, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS library (
                            id INTEGER PRIMARY KEY CHECK (id = 1),
                            generation INTEGER NOT NULL,
                            state BLOB NOT NULL
                        )
                        """)
                // A read-only file, or a read-only -wal or -shm left beside it, is read as usual
                // and refuses only the first change: find out now. No row has id 0, so nothing
                // is written.
                try db.execute(sql: "UPDATE library SET generation = generation WHERE id = 0")
            }
        } catch {
            throw SharedStateProblem(error, file: file)
        }
        guard let identity = FileIdentity(path: file.path) else {
            throw SharedStateProblem(.removed, file: file, detail: "removed while it was opened")
        }
        self.identity = identity
    }

    /// The file and the two SQLite keeps beside it in WAL mode: all bok made, and all it removes.
    static func files(of file: URL) -> [String] { [file.path, file.path + "-wal", file.path + "-shm"] }

    /// Removes a state file that cannot be used, with its `-wal` and `-shm`, and makes it anew.
    ///
    /// Only those three paths, with `unlink(2)`: never a folder, never what a link points to.
    /// A process that still has the old file open finds it replaced (``checkStillThere()``).
    /// - Throws: why it could not (a read-only folder, say); what was removed stays removed.
    static func rebuild(file: URL) throws(SharedStateProblem) -> SharedState {
        // The journal first: one left behind must never be played into the new file.
        for path in files(of: file).reversed() {
            guard unlink(path) != 0, errno != ENOENT else { continue }
            let detail = "cannot remove \(path): " + String(cString: strerror(errno))
            throw SharedStateProblem.notWritable(file, detail: detail)
                ?? SharedStateProblem(.unavailable, file: file, detail: detail)
        }
        return try SharedState(file: file)
    }

    /// Closes the connection. As the last one open on the file (no other bok has it), SQLite
    /// copies the `-wal` into the file and removes it and the `-shm`: the next process reads the
    /// file itself, and finds out when it has been damaged, cut short or put in a read-only folder
    /// since (a `-wal` left behind is read in its stead, and hides that). Every later access fails.
    func close() {
        try? queue.close()
    }

    /// Throws ``SharedStateProblem/Kind/removed`` when the file at the path is no longer the one
    /// opened: the changes of this process would go to a file no other process sees.
    func checkStillThere() throws(SharedStateProblem) {
        guard FileIdentity(path: file.path) == identity else {
            throw SharedStateProblem(.removed, file: file, detail: "no longer the file opened")
        }
    }

    /// The generation last written, 0 when nothing is stored yet.
    func generation() throws(SharedStateProblem) -> Int64 {
        try using {
            try queue.read { db in try Int64.fetchOne(db, sql: "SELECT generation FROM library WHERE id = 1") ?? 0 }
        }
    }

    /// The stored state and its generation, nil when nothing is stored yet.
    func load() throws(SharedStateProblem) -> (generation: Int64, state: Data)? {
        try using {
            try queue.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM library WHERE id = 1") else {
                    return nil
                }
                return (row["generation"], row["state"])
            }
        }
    }

    /// Runs `change` in one exclusive transaction with what is stored (nil when nothing is yet);
    /// the data it returns is stored as the next generation, which is returned with its result.
    /// When `change` throws, nothing is stored.
    func exchange<T>(
        _ change: (_ stored: (generation: Int64, state: Data)?) throws(SharedStateProblem) -> (T, Data)
    ) throws(SharedStateProblem) -> (T, Int64) {
        try using {
            try queue.write { db in
                var stored: (generation: Int64, state: Data)?
                if let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM library WHERE id = 1") {
                    stored = (row["generation"], row["state"])
                }
                let (result, data) = try change(stored)
                let next = (stored?.generation ?? 0) + 1
                try db.execute(
                    sql: "INSERT OR REPLACE INTO library (id, generation, state) VALUES (1, ?, ?)",
                    arguments: [next, data])
                return (result, next)
            }
        }
    }

    /// Runs `body`, its errors as the problem they show.
    private func using<T>(_ body: () throws -> T) throws(SharedStateProblem) -> T {
        do {
            return try body()
        } catch {
            throw SharedStateProblem(error, file: file)
        }
    }
}

/// A file's device and inode, which say whether a path still names the file opened.
struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        else { return nil }
        self.device = device
        self.inode = inode
    }
}

extension LibraryState {
    /// What changes as the library lends, as stored in ``SharedState``. Faults stay with the
    /// process that set them (they are a tester's knob on one server, and reading them must not
    /// cost a write per request).
    struct Persisted: Codable {
        var clock: Date
        var clockOffset: TimeInterval
        var today: DayDate
        var licences: [Licence]
        var otherLoans: [Int: [DayDate]]
        var payPerLoanBudget: Int
        var payPerLoanUsed: Int
        var patrons: [String: Patron]
        var loans: [Loan]
        var reservations: [Reservation]
        var nextNumber: Int
    }

    /// This state's changing parts, encoded.
    func persisted() -> Data {
        let parts = Persisted(
            clock: clock, clockOffset: clockOffset, today: today, licences: licences, otherLoans: otherLoans,
            payPerLoanBudget: payPerLoanBudget, payPerLoanUsed: payPerLoanUsed, patrons: patrons,
            loans: loans, reservations: reservations, nextNumber: nextNumber)
        // A binary property list: numbers as bytes, not digits (so no file could be mistaken for
        // one holding a PIN), and compact. Encoding plain values cannot fail.
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return (try? encoder.encode(parts)) ?? Data()
    }

    /// Takes the changing parts from `data`; false (and nothing changed) when it cannot be read
    /// or belongs to another catalogue.
    mutating func restore(_ data: Data) -> Bool {
        guard let parts = try? PropertyListDecoder().decode(Persisted.self, from: data),
            parts.licences.count == licences.count
        else {
            return false
        }
        clock = parts.clock
        clockOffset = parts.clockOffset
        today = parts.today
        licences = parts.licences
        otherLoans = parts.otherLoans
        payPerLoanBudget = parts.payPerLoanBudget
        payPerLoanUsed = parts.payPerLoanUsed
        // PINs are not stored: each patron keeps the one this process has (from the seed).
        patrons = parts.patrons.mapValues { stored in
            var patron = stored
            patron.pin = patrons[stored.card]?.pin ?? ""
            return patron
        }
        loans = parts.loans
        reservations = parts.reservations
        nextNumber = parts.nextNumber
        return true
    }
}
