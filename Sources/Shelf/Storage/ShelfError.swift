public import Foundation
import GRDB
public import Localization

#if canImport(Glibc)
import Glibc
#endif

/// A problem with the shelf's database, said in one line that names the file and what to do.
///
/// A struct over a private enum (as Hummingbird's `PersistError`) so cases can be added later.
public struct ShelfError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case notSQLite
        case newerSchema(version: String)
        case foreign(tables: [String])
        case busy
        case cannotSave(diskFull: Bool, detail: String)
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

    /// The file cannot be written: the disk is full, or the folder or file refuses writes.
    public static func cannotSave(_ path: String, diskFull: Bool, detail: String) -> ShelfError {
        ShelfError(kind: .cannotSave(diskFull: diskFull, detail: detail), path: path)
    }

    /// The shelf's words for an error of writing `path`, nil when `error` is not one (a
    /// constraint, a bug). A full disk is told by SQLite's `SQLITE_FULL` or by the space left;
    /// SQLite reports many failed writes on a full disk as plain I/O errors.
    public static func saving(_ error: any Error, path: String) -> ShelfError? {
        let detail: String
        switch error {
        case let error as ShelfError:
            return error.isCannotSave ? error : nil
        case let error as DatabaseError:
            guard
                [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM].contains(
                    error.resultCode)
            else {
                return nil
            }
            if error.resultCode == .SQLITE_FULL { return .cannotSave(path, diskFull: true, detail: "") }
            detail =
                switch error.resultCode {
                case .SQLITE_READONLY: N_("the file is read-only")
                case .SQLITE_CANTOPEN: N_("the file cannot be opened")
                case .SQLITE_PERM: N_("permission denied")
                default: N_("the disk reported an error")
                }
        case let error as CocoaError
        where [.fileWriteOutOfSpace, .fileWriteNoPermission, .fileWriteVolumeReadOnly].contains(error.code):
            if error.code == .fileWriteOutOfSpace { return .cannotSave(path, diskFull: true, detail: "") }
            detail = error.code == .fileWriteNoPermission ? N_("permission denied") : N_("read-only file system")
        case let error as POSIXError where [.ENOSPC, .EDQUOT, .EACCES, .EROFS, .EIO].contains(error.code):
            // In words of bok's own, which the patron's language has (the C library's may not).
            detail =
                switch error.code {
                case .ENOSPC: N_("no space left on the disk")
                case .EDQUOT: N_("your disk quota is used up")
                case .EACCES: N_("permission denied")
                case .EROFS: N_("read-only file system")
                default: N_("the disk reported an error")
                }
        default:
            return nil
        }
        return .cannotSave(path, diskFull: isFull(near: path), detail: detail)
    }

    /// True when the file system holding `path` (or its nearest existing folder) has almost no space left.
    static func isFull(near path: String) -> Bool {
        var url = URL(fileURLWithPath: path)
        var info = statvfs()
        while statvfs(url.path, &info) != 0 {
            guard url.path != "/" else { return false }
            url = url.deletingLastPathComponent()
        }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 256 * 1024
    }

    /// True when the shelf could not be written (see ``cannotSave(_:diskFull:detail:)``).
    public var isCannotSave: Bool { if case .cannotSave = kind { true } else { false } }

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
            return tr(
                "{path} is not a bok database (not SQLite). Move it aside and bok will start a new one.",
                ["path": path])
        case .newerSchema(let version):
            return tr(
                "{path} was written by a newer bok (schema {version}); update bok to open it.",
                ["path": path, "version": version])
        case .foreign(let tables):
            let names = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
            return tr(
                "{path} is an SQLite database of another program (tables {tables}), not bok's. "
                    + "Move it aside or point bok at another file.", ["path": path, "tables": names])
        case .busy:
            return tr(
                "{path} is kept busy by another bok; try again in a moment, or quit the other bok.", ["path": path])
        case .cannotSave(diskFull: true, _):
            return tr(
                "The disk is full, so bok cannot save to {path}. Free some space: until then the shelf shows "
                    + "what it last saved, and the next sync records what the library did meanwhile.", ["path": path])
        case .cannotSave(diskFull: false, let detail):
            return tr(
                "bok cannot save to {path} ({why}). Check that its folder is yours and writable: until then "
                    + "the shelf shows what it last saved, and the next sync records what the library did meanwhile.",
                ["path": path, "why": tr(detail)])
        }
    }
}

extension ShelfError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ShelfError: PatronFacingError {
    public var patronMessage: String { description }
}
