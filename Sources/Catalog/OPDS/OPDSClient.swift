public import Foundation
#if canImport(FoundationNetworking)
internal import FoundationNetworking
#endif

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
    let accept =
        "application/atom+xml;profile=opds-catalog, application/opds+json, application/atom+xml;q=0.9, */*;q=0.1"

    /// Creates a client for the catalogue at `root`.
    public init(
        root: URL, user: String? = nil, password: String? = nil, timeout: TimeInterval = 10,
        maxBodyBytes: Int = 16 << 20
    ) {
        self.root = root
        self.user = user
        self.password = password
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
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
            throw LendingError(
                .badResponse,
                """
                The catalogue at \(displayName) answered with something that \(failure.description). Is the \
                address that of an OPDS catalogue?
                """
            )
        }
    }

    /// The results of searching for `terms` from a feed that has a `search` link (an OpenSearch
    /// description, or a `{searchTerms}` template as calibre gives).
    public func search(_ terms: String, from feed: OPDSFeed) async throws -> OPDSFeed {
        guard let link = feed.link("search") else {
            throw LendingError(.unsupported, "The catalogue at \(displayName) has no search; browse it instead.")
        }
        var template = link.href.absoluteString.removingPercentEncoding ?? link.href.absoluteString
        if !template.contains("{searchTerms}") {
            let description = try await get(link.href)
            guard let found = OPDSParser.openSearchTemplate(description, base: link.href) else {
                throw LendingError(
                    .badResponse,
                    "The catalogue at \(displayName) describes its search in a way bok cannot use; browse it instead.")
            }
            template = found
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?&=+#")
        let encoded = terms.addingPercentEncoding(withAllowedCharacters: allowed) ?? terms
        guard let url = URL(string: template.replacingOccurrences(of: "{searchTerms}", with: encoded)) else {
            throw LendingError(.badResponse, "The catalogue at \(displayName) gave a search address bok cannot use.")
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
                throw LendingError(
                    .timeout,
                    "The catalogue at \(name) did not answer within \(Int(timeout)) s. Try again, or check the server.")
            case .tooLarge:
                throw LendingError(
                    .badResponse,
                    "The catalogue at \(name) sent a feed larger than \(maxBodyBytes >> 20) MB; refusing it.")
            case .redirectedAway(let target):
                throw LendingError(
                    .redirected,
                    """
                    The catalogue at \(name) sent bok to another server \
                    (\(target.map { "\($0.host):\($0.port)" } ?? "an unknown address")); bok only follows links \
                    within the catalogue's own address. If the catalogue has moved, use its new address.
                    """
                )
            case .transport(let failure):
                switch failure.kind {
                case .timedOut:
                    throw LendingError(
                        .timeout,
                        """
                        The catalogue at \(name) did not answer within \(Int(timeout)) s. Try again, or check the \
                        server.
                        """
                    )
                case .cannotConnect, .cannotFindHost:
                    throw LendingError(
                        .unreachable,
                        "Cannot reach the catalogue at \(name). Check the address and that the server is running.")
                case .cancelled: throw CancellationError()
                default:
                    throw LendingError(
                        .dropped, "The catalogue at \(name) closed the connection before answering. Try again.")
                }
            }
        }
        switch http.statusCode {
        case 200..<300: break
        case 401, 403:
            throw LendingError(
                .unauthorized,
                user == nil
                    ? """
                    The catalogue at \(name) asks for a user name and password: log in with login (your password \
                    is never shown).
                    """
                    : "The catalogue at \(name) did not accept that user name and password. Type login to try again.",
                status: http.statusCode)
        case 404: throw LendingError(.notFound, "The catalogue at \(name) has no such page (\(url.path)).", status: 404)
        default:
            throw LendingError(
                .rejected, "The catalogue at \(name) could not answer (HTTP \(http.statusCode)). Try again later.",
                status: http.statusCode)
        }
        return data
    }
}
