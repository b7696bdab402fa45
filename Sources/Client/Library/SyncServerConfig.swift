import Foundation
import Localization
import TextSafety

/// A sync server of the config file, beside the libraries: a `[sync NAME]` section.
///
/// ```
/// [sync reader]
/// kind = kosync                       # KOReader's progress sync
/// url = https://sync.koreader.rocks   # where its paths (users/auth, syncs/progress) begin
/// user = elsa
/// ```
///
/// The password is never in the file: `sync login NAME` asks for it without echo and keeps its
/// key (the MD5 KOReader sends) in the credentials file, mode 600.
struct SyncServerConfig: Sendable, Equatable {
    /// The protocols bok syncs places with, besides a calibre catalogue's own.
    enum Kind: String, Sendable, Equatable, CaseIterable {
        case kosync
    }

    var name: String
    var kind: Kind
    /// Where the server's own paths begin (with a trailing slash).
    var url: URL
    var user: String
}

/// A `[sync NAME]` section as it is read, key by key; ``checked(at:)`` makes it a server.
struct SyncServerSection: Sendable, Equatable {
    var name: String
    var kind: SyncServerConfig.Kind?
    var url: URL?
    var user: String?

    /// Takes one `key = value` line of the section.
    mutating func apply(key: String, value: String, at place: String) throws {
        switch key {
        case "kind":
            guard let parsed = SyncServerConfig.Kind(rawValue: value.lowercased()) else {
                throw UserError(
                    tr(
                        "{place}: a sync server's kind is kosync (KOReader's progress sync), not \"{value}\".",
                        ["place": place, "value": SafeText.line(value)]))
            }
            kind = parsed
        case "url": url = try LibraryConfig.parseURL(value.hasSuffix("/") ? value : value + "/", source: place)
        case "user":
            guard !value.isEmpty, !value.contains(":"), value.count <= 100,
                !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw UserError(
                    tr("{place}: user is a name of 1–100 characters without a colon.", ["place": place]))
            }
            user = value
        default:
            throw UserError(
                tr(
                    "{place}: unknown key \"{key}\" for a sync server. Keys are kind, url and user.",
                    ["place": place, "key": SafeText.line(key)]))
        }
    }

    /// Checks that the section says all a server needs, once it is read.
    func checked(at place: String) throws -> SyncServerConfig {
        guard let kind, let url, let user else {
            throw UserError(
                tr(
                    "{place}: [sync {name}] needs kind = kosync, url = … and user = …, e.g. url = "
                        + "http://127.0.0.1:8080/kosync and user = elsa.",
                    ["place": place, "name": name]))
        }
        return SyncServerConfig(name: name, kind: kind, url: url, user: user)
    }

    /// `[sync reader]` → `reader`.
    static func sectionName(_ line: String) -> String? {
        guard line.hasPrefix("["), line.hasSuffix("]") else { return nil }
        let words = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0].lowercased() == "sync", LibraryProfiles.isValidName(String(words[1]))
        else { return nil }
        return String(words[1])
    }
}
