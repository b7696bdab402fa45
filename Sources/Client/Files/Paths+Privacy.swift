import Foundation
import Localization

#if canImport(Glibc)
import Glibc
#endif

/// bok's directories hold card numbers, the remembered PIN, reading history and the books
/// borrowed: only their owner may read them. Directories are 0700 and files 0600; what bok
/// creates is created so (the database, the books, the history, the credentials), and what an
/// older bok or another tool left open is tightened at start, once, with a line that says so.
extension Paths {
    /// The most entries looked at under one directory (a books folder is a few hundred files).
    static let privacyWalkLimit = 20_000

    /// Creates the config and data directories 0700 when missing, and takes group and other
    /// permissions away from everything under bok's directories that has them.
    ///
    /// Symbolic links are neither followed nor changed: a link inside bok's folders points at
    /// something bok does not own.
    /// - Returns: how many directories and files were tightened (0 when all were private).
    func makePrivate() -> Int {
        var tightened = 0
        for directory in [config, data] where access(directory.path, F_OK) != 0 {
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        for directory in [config, data, cache, state] {
            var budget = Self.privacyWalkLimit
            tightened += Self.tighten(Array(directory.path.utf8CString), budget: &budget)
        }
        return tightened
    }

    /// Makes `path` private (0700 for a directory, the owner's bits only for a file) when it is
    /// the user's and is not, then what is in a directory, while `budget` entries last; how many
    /// changed. By lstat(2) and readdir(3): it runs at every start, and FileManager's walk asked
    /// the user database for every file's owner by name. The path is the C string's bytes, so a
    /// name that is not UTF-8 is still found (a String would have replaced its bytes).
    private static func tighten(_ path: [CChar], budget: inout Int) -> Int {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        let type = info.st_mode & S_IFMT
        guard type == S_IFDIR || type == S_IFREG else { return 0 }
        var count = 0
        if info.st_uid == geteuid(), info.st_mode & 0o077 != 0 {
            count += chmod(path, type == S_IFDIR ? 0o700 : info.st_mode & 0o700) == 0 ? 1 : 0
        }
        guard type == S_IFDIR, let directory = opendir(path) else { return count }
        defer { closedir(directory) }
        while budget > 0, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name != Array(".".utf8), name != Array("..".utf8) else { continue }
            budget -= 1
            // The directory's path without its NUL, a slash, the name, and a NUL again.
            let child = path.dropLast() + [CChar(UInt8(ascii: "/"))] + name.map { CChar(bitPattern: $0) } + [0]
            count += tighten(Array(child), budget: &budget)
        }
        return count
    }

    /// The line a patron reads after bok tightened `count` entries.
    static func privacyNotice(_ count: Int) -> String {
        trn(
            "bok made {n} of its files or folders private (readable by you only): it holds your card number or "
                + "reading history, and others could read it. Nothing else changed.",
            "bok made {n} of its files and folders private (readable by you only): they hold your card number "
                + "and reading history, and others could read them. Nothing else changed.",
            count)
    }
}
