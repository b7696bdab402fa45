import Catalog
import Foundation
import Localization
import TextSafety

/// The library bok talks to, from `$XDG_CONFIG_HOME/bok/config`, the environment or flags.
///
/// The file is `key = value` lines with `#` comments:
/// ```
/// url = https://example.org/library/v3.0/
/// service-id = 1234
/// service-key = secret
/// name = Malmö stadsbibliotek
/// locale = sv-SE
/// kind = elib          # or opds: an OPDS catalogue such as calibre's content server
/// ```
/// Several libraries are named sections (`[library home]` followed by the same keys), and
/// `use = NAME` at the top says which one bok starts with (see ``LibraryProfiles``);
/// `mock` is always the built-in mock library.
/// `BOK_LIBRARY_URL`, `BOK_SERVICE_ID`, `BOK_SERVICE_KEY` override the file; `--library URL|NAME` overrides both.
struct LibraryConfig: Sendable, Equatable {
    var url: URL?
    var serviceID: String?
    var serviceKey: String?
    var name: String?
    var locale: String?
    /// What the library speaks; nil: Elib when a service id is set, else found out from what the URL answers.
    var kind: Kind?
    /// Other servers the library's redirects may lead to (`allow-redirects = HOST[:PORT], …`).
    var redirectsAllowed = RedirectAllowance()
    /// The profile's name (`[library NAME]`), nil for the unnamed library at the top of the file.
    var profile: String?
    /// The built-in mock library (`use = mock`, `--library mock`).
    var isMock = false

    /// The protocols bok speaks.
    enum Kind: String, Sendable, Equatable, CaseIterable {
        case elib, opds

        /// The kinds as an option's value is written: `elib|opds`.
        static var choices: String { allCases.map(\.rawValue).joined(separator: "|") }
        /// The kinds in words: `elib or opds` (`elib eller opds`).
        static var inWords: String { Words.list(allCases.map(\.rawValue), last: tr("or")) }
    }

    /// True when a real library is configured.
    var isConfigured: Bool { url != nil }

    /// The library of the config file's `profiles` (read once, at start) with the environment over
    /// it: the library called `profile`, else the one `use =` names, else the unnamed one.
    /// - Throws: `UserError` for an unknown profile (naming `file`).
    static func resolve(
        _ profiles: LibraryProfiles, file: URL, environment: [String: String], profile: String? = nil
    ) throws -> LibraryConfig {
        var config = try profiles.config(named: profile, file: file)
        guard !config.isMock else { return config }
        if let url = environment["BOK_LIBRARY_URL"], !url.isEmpty {
            config.url = try parseURL(url, source: "BOK_LIBRARY_URL")
        }
        if let id = environment["BOK_SERVICE_ID"], !id.isEmpty { config.serviceID = id }
        if let key = environment["BOK_SERVICE_KEY"], !key.isEmpty { config.serviceKey = key }
        return config
    }

    /// `cdn.example.org` or `cdn.example.org:8443`: a host name (or address) and an optional port.
    static func isServer(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, parts.count <= 2,
            host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" })
        else { return false }
        return parts.count == 1 || Int(parts[1]).map { (1...65535).contains($0) } == true
    }

    /// Takes one `key = value` line of the file.
    mutating func apply(key: String, value: String, at place: String) throws {
        switch key {
        case "url": url = try Self.parseURL(value, source: place)
        case "service-id": serviceID = value
        case "service-key": serviceKey = value
        case "name": name = SafeText.line(value)
        case "locale": locale = value
        case "kind":
            guard let parsed = Kind(rawValue: value.lowercased()) else {
                throw UserError(
                    tr(
                        "{place}: kind is {kinds}, not \"{value}\".",
                        ["place": place, "kinds": Kind.inWords, "value": SafeText.line(value)]))
            }
            kind = parsed
        case "allow-redirects":
            let servers = value.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            guard !servers.isEmpty, servers.allSatisfy(Self.isServer) else {
                throw UserError(
                    tr(
                        "{place}: allow-redirects lists servers as host or host:port, e.g. allow-redirects = "
                            + "cdn.example.org, files.example.org:8443.",
                        ["place": place]))
            }
            redirectsAllowed = RedirectAllowance(servers)
        default:
            throw UserError(
                tr(
                    "{place}: unknown key \"{key}\". Keys are url, service-id, service-key, name, locale, kind, "
                        + "allow-redirects (and use and language at the top).",
                    ["place": place, "key": SafeText.line(key)]))
        }
    }

    /// An address that names a folder (`https://host/library/v3.0`) gets the trailing slash that
    /// relative paths resolve against; one that names a file (`…/opds/index.xml`, `catalog.php`) or
    /// carries a query is kept as typed, since a slash would name something else.
    static func parseURL(_ text: String, source: String) throws -> URL {
        guard let url = URL(string: Self.keptAsTyped(text) ? text : text + "/"),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            throw UserError(
                tr(
                    "{source}: \"{text}\" is not an http(s) URL, e.g. https://example.org/library/v3.0/",
                    ["source": source, "text": SafeText.line(text)]))
        }
        return url
    }

    /// True when `text` already ends in a slash, carries a query or fragment, or its last path
    /// component has a file extension of letters (`index.xml`, `feed.json`; not `v3.0`).
    static func keptAsTyped(_ text: String) -> Bool {
        if text.hasSuffix("/") { return true }
        guard let parts = URLComponents(string: text) else { return false }
        if parts.query != nil || parts.fragment != nil { return true }
        guard let last = parts.path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return false }
        let ext = last[last.index(after: dot)...]
        return !ext.isEmpty && ext.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The endpoint to call, once a URL, service id and key are known.
    func endpoint() throws -> LibraryEndpoint {
        guard let url else {
            throw UserError(tr("No library is configured. Start bok with --mock, or see docs/configuration.md."))
        }
        guard let serviceID, let serviceKey else {
            throw UserError(
                tr(
                    "The library at {url} needs a service id and key: set service-id and service-key in the config "
                        + "file or BOK_SERVICE_ID and BOK_SERVICE_KEY.",
                    ["url": url.absoluteString]))
        }
        return LibraryEndpoint(baseURL: url, serviceID: serviceID, serviceKey: serviceKey)
    }
}
