import Catalog
import Foundation
import Localization

/// The remembered card and PIN (`login --remember`), and the logins of password-protected OPDS
/// catalogues (`login --remember` in a catalogue), in a file only its owner may read.
///
/// The file is `$XDG_CONFIG_HOME/bok/credentials`, mode 0600, written to a temporary file
/// that is renamed into place, so it is never half-written. bok refuses a file that group or
/// others can read, and says how to fix it. PIN files given with `--pin-file` follow the same rule.
///
/// The card and PIN are `card = …` and `pin = …` lines at the top; each catalogue's login is a
/// section named by the catalogue's origin (the only place its password is ever sent), with the
/// user name and password as JSON strings, so that a password with spaces, `=` or `#` comes back whole:
///
///     [catalogue https://opds.example.org:443]
///     user = "elsa"
///     password = "hemligt"
struct CredentialStore {
    let file: URL

    /// A card and PIN.
    struct Credentials: Equatable {
        var card: String
        var pin: String
    }

    /// A catalogue's user name and password.
    struct CatalogueLogin: Equatable {
        var user: String
        var password: String
    }

    /// Everything the file holds.
    struct Contents: Equatable {
        var card: Credentials?
        /// Catalogue logins by origin (`https://host:443`).
        var catalogues: [String: CatalogueLogin] = [:]
        /// KOReader sync keys (the MD5 of the password) by server and user (``kosyncSection(_:user:)``).
        var kosyncKeys: [String: String] = [:]

        var isEmpty: Bool { card == nil && catalogues.isEmpty && kosyncKeys.isEmpty }
    }

    /// The remembered card and PIN, or nil when none are.
    /// - Throws: `UserError` when the file is readable by others or unreadable.
    func load() throws -> Credentials? { try contents().card }

    /// The remembered login for the catalogue at `url` (by its origin), or nil.
    /// - Throws: `UserError` when the file is readable by others or unreadable.
    func catalogueLogin(for url: URL) throws -> CatalogueLogin? {
        guard let origin = Origin(url) else { return nil }
        return try contents().catalogues[origin.description]
    }

    /// The key kept for a KOReader sync server's user (`sync login NAME`), or nil.
    /// - Throws: `UserError` when the file is readable by others or unreadable.
    func kosyncKey(for server: URL, user: String) throws -> String? {
        try contents().kosyncKeys[Self.kosyncSection(server, user: user)]
    }

    /// Keeps the key for a KOReader sync server's user, keeping everything else.
    func saveKosyncKey(_ key: String, for server: URL, user: String) throws {
        var contents = kept()
        contents.kosyncKeys[Self.kosyncSection(server, user: user)] = key
        try store(contents)
    }

    /// Forgets the key for a KOReader sync server's user; true when there was one.
    @discardableResult
    func forgetKosyncKey(for server: URL, user: String) -> Bool {
        guard var contents = try? contents(),
            contents.kosyncKeys.removeValue(forKey: Self.kosyncSection(server, user: user)) != nil
        else { return false }
        return (try? store(contents)) != nil
    }

    /// `http://host:8080/kosync elsa`: a key answers one user at one server's address, never another's.
    static func kosyncSection(_ server: URL, user: String) -> String {
        var address = server.absoluteString
        while address.hasSuffix("/") { address.removeLast() }
        return address + " " + user
    }

    /// What the file holds (nothing when there is no file).
    /// - Throws: `UserError` when the file is readable by others, unreadable, or not one bok wrote.
    func contents() throws -> Contents {
        guard FileManager.default.fileExists(atPath: file.path) else { return Contents() }
        let text = try Self.readPrivate(file, what: tr("The credentials file"))
        var card: String?
        var pin: String?
        var catalogues: [String: CatalogueLogin] = [:]
        var kosyncKeys: [String: String] = [:]
        var kosync: String?
        var key: String?
        var section: String?
        var user: String?
        var password: String?
        var broken = false
        func closeSection() {
            if let section {
                if let user, let password, !user.isEmpty {
                    catalogues[section] = .init(user: user, password: password)
                } else {
                    broken = true
                }
            }
            if let kosync {
                if let key, !key.isEmpty { kosyncKeys[kosync] = key } else { broken = true }
            }
            user = nil
            password = nil
            kosync = nil
            key = nil
            section = nil
        }
        // isNewline: a file edited on Windows ends its lines in CRLF, one Character in Swift.
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[catalogue "), trimmed.hasSuffix("]") {
                closeSection()
                section = String(trimmed.dropFirst("[catalogue ".count).dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            if trimmed.hasPrefix("[kosync "), trimmed.hasSuffix("]") {
                closeSection()
                kosync = String(trimmed.dropFirst("[kosync ".count).dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if kosync != nil {
                if parts[0] == "key" { key = Self.unquoted(parts[1]) }
            } else if section == nil {
                if parts[0] == "card" { card = parts[1] }
                if parts[0] == "pin" { pin = parts[1] }
            } else {
                if parts[0] == "user" { user = Self.unquoted(parts[1]) }
                if parts[0] == "password" { password = Self.unquoted(parts[1]) }
            }
        }
        closeSection()
        let cardGiven = card != nil || pin != nil
        let cardWhole = card?.isEmpty == false && pin?.isEmpty == false
        guard !broken, cardGiven ? cardWhole : !(catalogues.isEmpty && kosyncKeys.isEmpty) else {
            throw UserError(
                tr(
                    "{file} is not a credentials file bok wrote. Remove it and run login --remember again.",
                    ["file": file.path]))
        }
        return Contents(
            card: cardWhole ? Credentials(card: card!, pin: pin!) : nil, catalogues: catalogues, kosyncKeys: kosyncKeys)
    }

    /// Writes the card and PIN with mode 0600, atomically, keeping any catalogue logins.
    ///
    /// The temporary file is created 0600 from the start (`O_CREAT | O_EXCL`), never readable by
    /// others for a moment as a create-then-chmod would leave it; it is fsynced before the rename,
    /// and the folder after it, so a crash leaves the old file or the new one, whole.
    func save(_ credentials: Credentials) throws {
        var contents = kept()
        contents.card = credentials
        try store(contents)
    }

    /// Remembers the login for the catalogue at `url` (by its origin), keeping everything else.
    func save(_ login: CatalogueLogin, for url: URL) throws {
        guard let origin = Origin(url) else { return }
        var contents = kept()
        contents.catalogues[origin.description] = login
        try store(contents)
    }

    /// What a new save keeps: the file's contents when bok may read them (a file others can read
    /// is replaced whole, as it was before catalogue logins were kept in it).
    private func kept() -> Contents { (try? contents()) ?? Contents() }

    private func store(_ contents: Contents) throws {
        guard !contents.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        var body = "# bok: remembered logins (login --remember). Keep this file mode 600.\n"
        if let card = contents.card { body += "card = \(card.card)\npin = \(card.pin)\n" }
        for (origin, login) in contents.catalogues.sorted(by: { $0.key < $1.key }) {
            body += "\n[catalogue \(origin)]\nuser = \(Self.quoted(login.user))\n"
            body += "password = \(Self.quoted(login.password))\n"
        }
        for (section, key) in contents.kosyncKeys.sorted(by: { $0.key < $1.key }) {
            body += "\n[kosync \(section)]\nkey = \(Self.quoted(key))\n"
        }
        try Self.writePrivate(body, to: file)
    }

    /// `text` as a JSON string (quotes, backslashes and control characters escaped).
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A JSON string's text; a value without quotes is taken as it stands (a file edited by hand).
    static func unquoted(_ text: String) -> String? {
        guard text.hasPrefix("\"") else { return text }
        return try? JSONDecoder().decode(String.self, from: Data(text.utf8))
    }

    /// Writes `text` to `file` with mode 0600, atomically (see ``save(_:)``): the credentials and
    /// a config file that holds a service key.
    static func writePrivate(_ text: String, to link: URL) throws {
        // A file kept elsewhere behind a link (dotfiles in a repository) is written where the link
        // points: the rename below would otherwise put a plain file in the link's place.
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil
        let file = isLink ? link.resolvingSymlinksInPath() : link
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

    /// Deletes the remembered card and PIN (catalogue logins stay); true when there were some.
    ///
    /// A file bok cannot read (another's, or readable by others) is deleted whole, as logout always did.
    @discardableResult
    func forget() -> Bool {
        guard var contents = try? contents() else { return (try? FileManager.default.removeItem(at: file)) != nil }
        guard contents.card != nil else { return false }
        contents.card = nil
        return (try? store(contents)) != nil
    }

    /// Deletes the remembered login for the catalogue at `url`; true when there was one.
    @discardableResult
    func forgetCatalogueLogin(for url: URL) -> Bool {
        guard let origin = Origin(url), var contents = try? contents(),
            contents.catalogues.removeValue(forKey: origin.description) != nil
        else { return false }
        return (try? store(contents)) != nil
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
        guard let text = try SmallTextFile.contents(target, what: what) else {
            throw UserError(
                tr("{what} {file} cannot be read. Check that it exists and is yours.", ["what": what, "file": shown]))
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
