public import Foundation
internal import Localization
internal import Synchronization

/// A request for ``BoundedExchange``: what bok sends, and nothing of URLSession's. (Foundation's
/// `URLRequest` would link FoundationNetworking, and with it libcurl, into every start of bok;
/// Sources/CCurl/bok_curl.c says why that is avoided.)
public struct HTTPRequest: Sendable {
    /// Where the request goes.
    public var url: URL
    /// `GET`, `POST`, `DELETE`, …
    public var method: String
    /// Header fields in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body, or nil for none.
    public var body: Data?

    /// Creates a request.
    public init(url: URL, method: String = "GET", headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// A server's scheme, host and port: where bok's requests to a library may go.
///
/// A redirect is followed only when it stays within the origin it started from, so the card
/// number, checksums and a catalogue password never reach a host the patron did not configure.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public let scheme: String
    /// The host name, lower case.
    public let host: String
    /// The port, the scheme's default when the URL names none.
    public let port: Int

    /// The origin of `url`, nil when it has no scheme or host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// The other servers a library's redirects may lead to (the `allow-redirects` of its profile):
/// `host` allows that host on any port, `host:port` only that port. A redirect never goes from
/// https to http, and the `Authorization` header is never sent along to another server.
public struct RedirectAllowance: Sendable, Hashable {
    /// `host` or `host:port`, lower case.
    public var servers: Set<String>

    public init(_ servers: some Sequence<String> = []) {
        self.servers = Set(servers.map { $0.lowercased() })
    }

    /// Whether a redirect from `origin` may go on to `target`.
    public func allows(_ target: Origin, from origin: Origin) -> Bool {
        guard !(origin.scheme == "https" && target.scheme == "http") else { return false }
        return servers.contains(target.host) || servers.contains("\(target.host):\(target.port)")
    }
}

/// One HTTP exchange that a hostile server cannot stretch: a total deadline over connect, headers
/// and body (and over any redirects); a cap on the body enforced while it streams in (reading
/// stops at the cap); and redirects followed only within the first URL's origin (or to the servers
/// its library allows), at most five.
/// Built on ``HTTPTransfer`` (libcurl); see there why not URLSession.
public struct BoundedExchange: Sendable {
    // Not patron-facing: the lending and OPDS clients turn it into a LendingError.
    /// Why an exchange did not produce an answer.
    public struct Failure: Error, Sendable {
        /// What kind of failure.
        public enum Kind: Sendable {
            /// The deadline passed first.
            case timedOut
            /// The body was larger than the cap (said so in Content-Length, or while streaming).
            case tooLarge
            /// A redirect to another origin (or a sixth redirect), not followed.
            case redirectedAway(Origin?)
            /// More redirects than ``maxRedirects`` within the servers allowed (a loop, mostly).
            case tooManyRedirects
            /// The connection failed.
            case transport(HTTPTransfer.Failure)
        }
        /// What kind of failure.
        public let kind: Kind
    }

    /// What bok accepts, sent in `Accept`.
    public let accept: String
    /// Seconds the whole exchange may take.
    public let deadline: TimeInterval
    /// Largest body read, in bytes.
    public let maxBytes: Int
    /// Other servers a redirect may lead to (``RedirectAllowance``); none by default.
    public var redirectsAllowed = RedirectAllowance()

    /// Creates an exchange with these bounds.
    public init(accept: String, deadline: TimeInterval, maxBytes: Int) {
        self.accept = accept
        self.deadline = deadline
        self.maxBytes = maxBytes
    }

    static let maxRedirects = 5

    /// Sends `request` and collects its answer within the bounds.
    public func run(_ request: HTTPRequest) async throws(Failure) -> (Data, HTTPTransfer.Head) {
        var url = request.url
        let origin = Origin(url)
        let end = Date().addingTimeInterval(deadline)
        var method = request.method
        var body = request.body
        var headers = [("Accept", accept), ("Accept-Language", Localization.acceptLanguage), ("User-Agent", "bok/0.1")]
        for (name, value) in request.headers where name.lowercased() != "accept" {
            headers.append((name, value))
        }
        var redirects = 0
        while true {
            let remaining = end.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(kind: .timedOut) }
            let collector = Collector(maxBytes: maxBytes)
            let head: HTTPTransfer.Head
            do {
                head = try await HTTPTransfer(timeout: remaining).perform(
                    url: url, method: method, headers: headers, body: body,
                    onHead: { collector.accepts($0) }, onData: { collector.append($0) })
            } catch {
                if collector.tooLarge { throw Failure(kind: .tooLarge) }
                throw Failure(kind: error.kind == .timedOut ? .timedOut : .transport(error))
            }
            if [301, 302, 303, 307, 308].contains(head.status), let location = head.value("Location"),
                let target = URL(string: location, relativeTo: url)?.absoluteURL
            {
                let targetOrigin = Origin(target)
                guard let origin, let targetOrigin,
                    targetOrigin == origin || redirectsAllowed.allows(targetOrigin, from: origin)
                else {
                    throw Failure(kind: .redirectedAway(targetOrigin))
                }
                guard redirects < Self.maxRedirects else { throw Failure(kind: .tooManyRedirects) }
                // A password is for the server it was given to: it does not follow the request elsewhere.
                if targetOrigin != Origin(url) { headers.removeAll { $0.0.lowercased() == "authorization" } }
                redirects += 1
                url = target
                if head.status == 303 || (head.status <= 302 && method == "POST") {
                    method = "GET"
                    body = nil
                    headers.removeAll { $0.0.lowercased() == "content-type" }
                }
                continue
            }
            return (collector.body, head)
        }
    }
}

/// Collects a body up to its cap; past it, says stop (curl then reads no more).
private final class Collector: Sendable {
    private struct State: ~Copyable {
        var body = Data()
        var tooLarge = false
    }

    private let maxBytes: Int
    private let state = Mutex(State())

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    var body: Data { state.withLock { $0.body } }
    var tooLarge: Bool { state.withLock { $0.tooLarge } }

    func accepts(_ head: HTTPTransfer.Head) -> Bool {
        guard let length = head.contentLength, length > Int64(maxBytes) else { return true }
        state.withLock { $0.tooLarge = true }
        return false
    }

    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        state.withLock { state in
            guard state.body.count + piece.count <= maxBytes else {
                state.tooLarge = true
                return false
            }
            state.body.append(contentsOf: piece)
            return true
        }
    }
}
