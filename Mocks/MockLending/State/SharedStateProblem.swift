public import Foundation
import GRDB
public import Localization

#if canImport(Glibc)
import Glibc
#endif

/// Why the state file every `bok --mock` of a user shares cannot be used: the process that
/// found it lends from a private state from then on, and `mock reset` rebuilds the file.
///
/// Before, any failure of the file gave the process a private library without a word, and a loan
/// one process reported "Borrowed" read as ended in the next. Client chooses the patron's words by
/// ``kind``; ``detail`` is SQLite's or the system's, for a debug log only.
public struct SharedStateProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in the kinds a patron's words are chosen by. A struct over a private enum
    /// (as `ShelfError`), so kinds can be added later.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case damaged, readOnly, folderReadOnly, removed, diskFull, busy, unavailable
        }
        private let code: Code

        /// Not a database, cut short, or holding a state this version cannot read.
        public static let damaged = Kind(code: .damaged)
        /// The file, or the `-wal` or `-shm` SQLite keeps beside it, may not be written
        /// (``SharedStateProblem/culprit`` says which, when it can be told).
        public static let readOnly = Kind(code: .readOnly)
        /// Its folder may not be written: no file can be made or removed there.
        public static let folderReadOnly = Kind(code: .folderReadOnly)
        /// Removed or replaced while this process had it open.
        public static let removed = Kind(code: .removed)
        /// No space left on the disk.
        public static let diskFull = Kind(code: .diskFull)
        /// Another process kept it locked for longer than the wait.
        public static let busy = Kind(code: .busy)
        /// Anything else (``SharedStateProblem/detail`` says what).
        public static let unavailable = Kind(code: .unavailable)

        /// `damaged`, `readOnly`, …: the name in the mock's `GET /mock/state` and logs.
        public var description: String { code.rawValue }
    }

    /// What is wrong.
    public let kind: Kind
    /// The state file.
    public let file: URL
    /// The file or folder that may not be written, for ``Kind/readOnly`` and ``Kind/folderReadOnly``.
    public let culprit: URL?
    /// SQLite's or the system's words, for a log (never for a patron's line).
    public let detail: String

    init(_ kind: Kind, file: URL, culprit: URL? = nil, detail: String) {
        self.kind = kind
        self.file = file
        self.culprit = culprit
        self.detail = detail
    }

    /// `damaged: /home/…/mock-library-seed1-600.sqlite: file is not a database`.
    public var description: String { "\(kind): \(file.path): \(detail)" }

    /// The problem `error` shows with `file`: SQLite's result code says which kind, and the
    /// modes of the folder and the files say which of them is read-only.
    init(_ error: any Error, file: URL) {
        if let problem = error as? SharedStateProblem {
            self = problem
            return
        }
        let detail = String(describing: error)
        guard let database = error as? DatabaseError else {
            // Foundation making the folder or the file: only a mode (or a full disk) stops that.
            self =
                Self.notWritable(file, detail: detail) ?? SharedStateProblem(.unavailable, file: file, detail: detail)
            return
        }
        switch database.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT:
            self.init(.damaged, file: file, detail: detail)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN, .SQLITE_AUTH:
            self =
                Self.notWritable(file, detail: detail)
                ?? SharedStateProblem(
                    database.resultCode == .SQLITE_READONLY ? .readOnly : .unavailable, file: file, detail: detail)
        case .SQLITE_FULL:
            self.init(.diskFull, file: file, detail: detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self.init(.busy, file: file, detail: detail)
        default:
            self.init(.unavailable, file: file, detail: detail)
        }
    }

    /// The state can be read but not decoded (or belongs to another catalogue).
    static func undecodable(_ file: URL) -> SharedStateProblem {
        SharedStateProblem(.damaged, file: file, detail: "the stored state cannot be decoded")
    }

    /// The folder, or the first of the file, its `-wal` and its `-shm` that may not be written;
    /// nil when each may. A leftover read-only `-shm` lets SQLite read the file and refuse every
    /// change, and keeps doing so after the file's own mode is fixed.
    static func notWritable(_ file: URL, detail: String) -> SharedStateProblem? {
        let folder = file.deletingLastPathComponent()
        if access(folder.path, W_OK) != 0, errno != ENOENT {
            return SharedStateProblem(.folderReadOnly, file: file, culprit: folder, detail: detail)
        }
        for path in SharedState.files(of: file) where access(path, F_OK) == 0 && access(path, W_OK) != 0 {
            return SharedStateProblem(.readOnly, file: file, culprit: URL(fileURLWithPath: path), detail: detail)
        }
        return nil
    }
}

extension SharedStateProblem: PatronFacingError {
    public var patronMessage: String { description }
}
