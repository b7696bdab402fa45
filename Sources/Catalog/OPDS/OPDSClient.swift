public import Foundation
#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif
import Localization
public import Logging

/// An OPDS catalogue over HTTP: feeds, search, and the address of a book's file.
///
/// Every call has the session's deadline and a cap on the answer; a password goes in an
/// `Authorization` header (HTTP Basic), never in a URL, and only to the catalogue's own host.
/// Failures are `LendingError`s worded for the patron, as the lending client's are.
public struct OPDSClient: Sendable {
    /// The catalogue's root feed.
    public let root: URL
    let user: String?
    let password: String?
    let timeout: TimeInterval
    let maxBodyBytes: Int
    let logger: Logger
    let accept =
        "application/atom+xml;profile=opds-catalog, application/opds+json, application/atom+xml;q=0.9, */*;q=0.1"

    /// Creates a client for the catalogue at `root`.
    public init(
        root: URL, user: String? = nil, password: String? = nil, timeout: TimeInterval = 10,
        maxBodyBytes: Int = 16 << 20,
        logger: Logger = Logger(label: "bok.opds", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.root = root
        self.user = user
        self.password = password
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }

    /// The catalogue's name for messages: its host and port.
    public var displayName: String { root.host.map { h in root.port.map { "\(h):\($0)" } ?? h } ?? root.absoluteString }

    /// The feed at `url` (the root when nil).
    public func feed(_ url: URL? = nil) async throws -> OPDSFeed {
        let target = url ?? root
        let data = try await get(target)
        do {
            return try OPDSParser.feed(data, base: target)
        } catch let failure as OPDSParser.Failure {
            logger.debug("not a feed", metadata: ["url": "\(target.absoluteString)", "why": "\(failure.description)"])
            throw LendingError(
                .badResponse,
                tr(
                    "The catalogue at {server} sent a page that is not a catalogue bok can read. Is the address "
                        + "that of an OPDS catalogue?",
                    ["server": displayName]))
        }
    }

    /// The results of searching for `terms` from a feed that has a `search` link (an OpenSearch
    /// description, or a `{searchTerms}` template as calibre gives).
    public func search(_ terms: String, from feed: OPDSFeed) async throws -> OPDSFeed {
        guard let link = feed.link("search") else {
            throw LendingError(
                .unsupported, tr("The catalogue at {server} has no search; browse it instead.", ["server": displayName])
            )
        }
        var template = link.href.absoluteString.removingPercentEncoding ?? link.href.absoluteString
        if !template.contains("{searchTerms}") {
            let description = try await get(link.href)
            guard let found = OPDSParser.openSearchTemplate(description, base: link.href) else {
                throw LendingError(
                    .badResponse,
                    tr(
                        "The catalogue at {server} describes its search in a way bok cannot use; browse it instead.",
                        ["server": displayName]))
            }
            template = found
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?&=+#")
        let encoded = terms.addingPercentEncoding(withAllowedCharacters: allowed) ?? terms
        guard let url = URL(string: template.replacingOccurrences(of: "{searchTerms}", with: encoded)) else {
            throw LendingError(
                .badResponse,
                tr("The catalogue at {server} gave a search address bok cannot use.", ["server": displayName]))
        }
        return try await self.feed(url)
    }

    /// The `Authorization` header for the catalogue's own host, when a user is set.
    public func authorization(for url: URL) -> String? {
        guard let user, let password, url.host == root.host, url.port == root.port else { return nil }
        return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    func get(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url)
        if let authorization = authorization(for: url) {
            request.setValue(authorization, forHTTPHeaderField: "Authorization")
        }
        let name = displayName
        let exchange = BoundedExchange(accept: accept, deadline: timeout, maxBytes: maxBodyBytes)
        let data: Data, http: HTTPURLResponse
        do {
            // The whole call within `timeout`, the feed read up to the cap and no further, and redirects
            // only within the catalogue's origin (the Authorization header must not go elsewhere).
            // A 401 comes back as a status: libcurl does not wait on a challenge as corelibs Foundation did.
            (data, http) = try await exchange.run(request)
        } catch {
            switch error.kind {
            case .timedOut:
                throw timedOut(name)
            case .tooLarge:
                throw LendingError(
                    .badResponse,
                    tr(
                        "The catalogue at {server} sent a page larger than {size} MB, so bok stopped reading it.",
                        ["server": name, "size": maxBodyBytes >> 20]))
            case .redirectedAway(let target):
                throw LendingError(
                    .redirected,
                    tr(
                        "The catalogue at {server} sent bok to another server ({target}); bok only follows links "
                            + "within the catalogue's own address. If the catalogue has moved, use its new address.",
                        ["server": name, "target": target.map { "\($0.host):\($0.port)" } ?? tr("an unknown address")]))
            case .transport(let failure):
                logger.debug(
                    "transfer failed", metadata: ["url": "\(url.absoluteString)", "detail": "\(failure.detail)"])
                switch failure.kind {
                case .timedOut:
                    throw timedOut(name)
                case .cannotConnect, .cannotFindHost:
                    throw LendingError(
                        .unreachable,
                        tr(
                            "Cannot reach the catalogue at {server}. Check the address and that the server is running.",
                            ["server": name]))
                case .cancelled: throw CancellationError()
                default:
                    throw LendingError(
                        .dropped,
                        tr(
                            "The catalogue at {server} closed the connection before answering. Try again.",
                            ["server": name]))
                }
            }
        }
        switch http.statusCode {
        case 200..<300: break
        case 401, 403:
            throw LendingError(
                .unauthorized,
                user == nil
                    ? tr(
                        "The catalogue at {server} asks for a user name and password: log in with login (your "
                            + "password is never shown).",
                        ["server": name])
                    : tr(
                        "The catalogue at {server} did not accept that user name and password. Type login to try "
                            + "again.",
                        ["server": name]),
                status: http.statusCode)
        case 404:
            logger.debug("no such page", metadata: ["url": "\(url.absoluteString)"])
            throw LendingError(
                .notFound,
                tr(
                    "The catalogue at {server} has no such page; it may have moved. browse starts again at the top.",
                    ["server": name]),
                status: 404)
        default:
            logger.debug("refused", metadata: ["url": "\(url.absoluteString)", "status": "\(http.statusCode)"])
            throw LendingError(
                .rejected, tr("The catalogue at {server} could not answer. Try again later.", ["server": name]),
                status: http.statusCode)
        }
        return data
    }

    private func timedOut(_ name: String) -> LendingError {
        LendingError(
            .timeout,
            tr(
                "The catalogue at {server} did not answer within {seconds} s. Try again, or check the server.",
                ["server": name, "seconds": Int(timeout)]))
    }
}
