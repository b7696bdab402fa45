public import Foundation

/// A problem with the shelf's database, said in one line that names the file and what to do.
///
/// A struct over a private enum (as Hummingbird's `PersistError`) so cases can be added later.
public struct ShelfError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case notSQLite
        case newerSchema(version: String)
        case foreign(tables: [String])
        case busy
    }

    private let kind: Kind
    /// The database file concerned (`:memory:` for an in-memory database).
    public let path: String

    /// The file is not an SQLite database.
    public static func notSQLite(_ path: String) -> ShelfError { ShelfError(kind: .notSQLite, path: path) }
    /// The file was migrated by a newer bok than this one.
    public static func newerSchema(_ path: String, version: String) -> ShelfError {
        ShelfError(kind: .newerSchema(version: version), path: path)
    }
    /// The file is an SQLite database that some other program made.
    public static func foreign(_ path: String, tables: [String]) -> ShelfError {
        ShelfError(kind: .foreign(tables: tables), path: path)
    }

    /// Another process kept the file locked for longer than the busy timeout.
    public static func busy(_ path: String) -> ShelfError { ShelfError(kind: .busy, path: path) }

    /// True when the file is not SQLite at all.
    public var isNotSQLite: Bool { kind == .notSQLite }
    /// True when the file's schema is newer than this bok knows.
    public var isNewerSchema: Bool { if case .newerSchema = kind { true } else { false } }
    /// True when the file is someone else's SQLite database.
    public var isForeign: Bool { if case .foreign = kind { true } else { false } }

    /// The one-line message a user sees.
    public var description: String {
        switch kind {
        case .notSQLite:
            return "\(path) is not a bok database (not SQLite). Move it aside and bok will start a new one."
        case .newerSchema(let version):
            return "\(path) was written by a newer bok (schema \(version)); update bok to open it."
        case .foreign(let tables):
            let names = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
            return "\(path) is an SQLite database of another program (tables \(names)), not bok's. "
                + "Move it aside or point bok at another file."
        case .busy:
            return "\(path) is kept busy by another bok; try again in a moment, or quit the other bok."
        }
    }
}

extension ShelfError: LocalizedError {
    public var errorDescription: String? { description }
}
