import Catalog
import Foundation
import GRDB

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
final class SharedState: Sendable {
    private let queue: DatabaseQueue

    /// Opens (creating) the file; its folder is made 0700 and the file 0600 (it holds the
    /// simulated patrons' PINs).
    init(file: URL) throws {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: file.path) {
            _ = FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600])
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
        }
    }

    /// The generation last written, 0 when nothing is stored yet.
    func generation() throws -> Int64 {
        try queue.read { db in try Int64.fetchOne(db, sql: "SELECT generation FROM library WHERE id = 1") ?? 0 }
    }

    /// The stored state and its generation, nil when nothing is stored yet.
    func load() throws -> (generation: Int64, state: Data)? {
        try queue.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM library WHERE id = 1") else {
                return nil
            }
            return (row["generation"], row["state"])
        }
    }

    /// Runs `change` in one exclusive transaction with what is stored (nil when nothing is yet);
    /// the data it returns is stored as the next generation, which is returned with its result.
    func exchange<T>(_ change: (_ stored: (generation: Int64, state: Data)?) -> (T, Data)) throws -> (T, Int64) {
        try queue.write { db in
            var stored: (generation: Int64, state: Data)?
            if let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM library WHERE id = 1") {
                stored = (row["generation"], row["state"])
            }
            let (result, data) = change(stored)
            let next = (stored?.generation ?? 0) + 1
            try db.execute(
                sql: "INSERT OR REPLACE INTO library (id, generation, state) VALUES (1, ?, ?)", arguments: [next, data])
            return (result, next)
        }
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
