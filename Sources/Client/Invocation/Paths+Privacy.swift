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
        for directory in [config, data] where !FileManager.default.fileExists(atPath: directory.path) {
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        for directory in [config, data, cache, state] {
            tightened += Self.tighten(directory)
            guard Self.isDirectory(directory),
                let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            else { continue }
            var seen = 0
            for case let entry as URL in walk {
                seen += 1
                if seen > Self.privacyWalkLimit { break }
                tightened += Self.tighten(entry)
            }
        }
        return tightened
    }

    private static func isDirectory(_ url: URL) -> Bool {
        // attributesOfItem does not follow a symbolic link (lstat).
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeDirectory
    }

    /// 0700 for a directory, the owner's bits only for a file; 1 when it changed.
    private static func tighten(_ url: URL) -> Int {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let type = attributes[.type] as? FileAttributeType, type == .typeDirectory || type == .typeRegular,
            (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == geteuid(),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
        else { return 0 }
        let tightened = type == .typeDirectory ? 0o700 : mode & 0o700
        return chmod(url.path, mode_t(tightened)) == 0 ? 1 : 0
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
