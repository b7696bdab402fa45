import Foundation

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
        let text = try Self.readPrivate(file, what: "The credentials file")
        var card: String?
        var pin: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "card" { card = parts[1] }
            if parts[0] == "pin" { pin = parts[1] }
        }
        guard let card, let pin, !card.isEmpty, !pin.isEmpty else {
            throw UserError("\(file.path) is not a credentials file bok wrote. Remove it and run login --remember again.")
        }
        return Credentials(card: card, pin: pin)
    }

    /// Writes the credentials with mode 0600, atomically.
    func save(_ credentials: Credentials) throws {
        let directory = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".credentials.\(getpid()).tmp")
        let body = "# bok: remembered library card (login --remember). Keep this file mode 600.\ncard = \(credentials.card)\npin = \(credentials.pin)\n"
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(body.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw UserError("Could not write \(temporary.path). Check that \(directory.path) is writable.")
        }
        chmod(temporary.path, 0o600)
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw UserError("Could not save \(file.path): \(String(cString: strerror(errno))).")
        }
    }

    /// Deletes the remembered credentials; true when there were some.
    @discardableResult
    func forget() -> Bool {
        (try? FileManager.default.removeItem(at: file)) != nil
    }

    /// Reads a file that must not be readable by group or others.
    static func readPrivate(_ file: URL, what: String) throws -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let permissions = attributes[.posixPermissions] as? NSNumber else {
            throw UserError("\(what) \(file.path) cannot be read. Check that it exists and is yours.")
        }
        let mode = permissions.uint16Value & 0o777
        if mode & 0o077 != 0 {
            throw UserError("\(what) \(file.path) can be read by others (mode \(String(mode, radix: 8))); bok will not use it. Run: chmod 600 \(file.path)")
        }
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw UserError("\(what) \(file.path) cannot be read as text.")
        }
        return text
    }
}
