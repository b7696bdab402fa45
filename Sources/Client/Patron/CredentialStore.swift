import Foundation
import Localization

/// The remembered card and PIN (`login --remember`), in a file only its owner may read.
///
/// The file is `$XDG_CONFIG_HOME/bok/credentials`, mode 0600, written to a temporary file
/// that is renamed into place, so it is never half-written. bok refuses a file that group or
/// others can read, and says how to fix it. PIN files given with `--pin-file` follow the same rule.
struct CredentialStore {
    let file: URL

    /// A card and PIN.
    struct Credentials: Equatable {
        var card: String
        var pin: String
    }

    /// The remembered credentials, or nil when none are.
    /// - Throws: `UserError` when the file is readable by others or unreadable.
    func load() throws -> Credentials? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let text = try Self.readPrivate(file, what: tr("The credentials file"))
        var card: String?
        var pin: String?
        // isNewline: a file edited on Windows ends its lines in CRLF, one Character in Swift.
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "card" { card = parts[1] }
            if parts[0] == "pin" { pin = parts[1] }
        }
        guard let card, let pin, !card.isEmpty, !pin.isEmpty else {
            throw UserError(
                tr(
                    "{file} is not a credentials file bok wrote. Remove it and run login --remember again.",
                    ["file": file.path]))
        }
        return Credentials(card: card, pin: pin)
    }

    /// Writes the credentials with mode 0600, atomically.
    ///
    /// The temporary file is created 0600 from the start (`O_CREAT | O_EXCL`), never readable by
    /// others for a moment as a create-then-chmod would leave it; it is fsynced before the rename,
    /// and the folder after it, so a crash leaves the old file or the new one, whole.
    func save(_ credentials: Credentials) throws {
        let body =
            """
            # bok: remembered library card (login --remember). Keep this file mode 600.\ncard = \
            \(credentials.card)\npin = \(credentials.pin)\n
            """
        try Self.writePrivate(body, to: file)
    }

    /// Writes `text` to `file` with mode 0600, atomically (see ``save(_:)``): the credentials and
    /// a config file that holds a service key.
    static func writePrivate(_ text: String, to file: URL) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        // A stale temporary of a crashed bok with the same pid; O_EXCL then refuses anything put in its place.
        unlink(temporary.path)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw UserError(
                tr(
                    "Could not write {file} ({why}). Check that {folder} is writable.",
                    ["file": temporary.path, "why": Self.why(code), "folder": directory.path]))
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        let synced = fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard written == bytes.count, synced else {
            unlink(temporary.path)
            throw UserError(
                tr(
                    "Could not write {file} ({why}). Check that the disk is not full.",
                    ["file": temporary.path, "why": Self.why(code)]))
        }
        guard rename(temporary.path, file.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw UserError(tr("Could not save {file} ({why}).", ["file": file.path, "why": Self.why(code)]))
        }
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Deletes the remembered credentials; true when there were some.
    @discardableResult
    func forget() -> Bool {
        (try? FileManager.default.removeItem(at: file)) != nil
    }

    /// Reads a file that must be its owner's alone: owned by this user, no permissions for group or others.
    ///
    /// The file itself is checked (its link resolved first), not a symbolic link to it: a link's
    /// own mode is always 777 and cannot be changed, so judging the link refused every linked file
    /// with a fix that could not work.
    static func readPrivate(_ file: URL, what: String) throws -> String {
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) != nil
        let target = isLink ? file.resolvingSymlinksInPath() : file
        let shown =
            isLink ? tr("{file} (a link to {target})", ["file": file.path, "target": target.path]) : file.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: target.path),
            let permissions = attributes[.posixPermissions] as? NSNumber
        else {
            throw UserError(
                tr("{what} {file} cannot be read. Check that it exists and is yours.", ["what": what, "file": shown]))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw UserError(
                tr(
                    "{what} {file} is not a plain file. Give the path of a file that holds it.",
                    ["what": what, "file": shown]))
        }
        if let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value, owner != geteuid() {
            throw UserError(
                tr(
                    "{what} {file} belongs to another user; bok only uses one that is yours. Copy it to a file of "
                        + "your own with mode 600.",
                    ["what": what, "file": shown]))
        }
        let mode = permissions.uint16Value & 0o777
        if mode & 0o077 != 0 {
            throw UserError(
                tr(
                    "{what} {file} can be read by others ({who} may; mode {mode}); bok will not use it. "
                        + "Run: chmod 600 {path}",
                    [
                        "what": what, "file": shown, "who": Self.others(mode), "mode": String(mode, radix: 8),
                        "path": target.path,
                    ]))
        }
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw UserError(tr("{what} {file} cannot be read as text.", ["what": what, "file": file.path]))
        }
        return text
    }

    /// Who besides the owner has permissions, in words.
    static func others(_ mode: UInt16) -> String {
        switch (mode & 0o070 != 0, mode & 0o007 != 0) {
        case (true, true): tr("its group and everyone else")
        case (true, false): tr("its group")
        default: tr("everyone else")
        }
    }

    /// Why a file could not be written, in words (the C library's own are English whatever the language).
    static func why(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: tr("the disk is full")
        case EACCES, EPERM: tr("bok may not write there")
        case EROFS: tr("the disk is read-only")
        case ENOENT, ENOTDIR: tr("the folder is missing")
        default: String(cString: strerror(code))
        }
    }
}
