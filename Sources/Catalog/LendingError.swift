public import Localization

/// A failure talking to the lending service, with a one-line message that says what to do.
///
/// A struct over a kind rather than a public enum, so kinds can be added without breaking callers
/// (as async-http-client's `HTTPClientError` does). Compare with `error.kind == .notFound`.
public struct LendingError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// No connection could be made (refused, unknown host, network down).
        public static let unreachable = Kind("unreachable")
        /// The server did not answer before the deadline.
        public static let timeout = Kind("timeout")
        /// The connection broke before the answer was complete.
        public static let dropped = Kind("dropped")
        /// The answer was not JSON, or JSON of the wrong shape, or too large.
        public static let badResponse = Kind("badResponse")
        /// The server said the thing asked for does not exist (404).
        public static let notFound = Kind("notFound")
        /// The server refused the caller or the patron (401/403).
        public static let unauthorized = Kind("unauthorized")
        /// The server answered another 4xx or 5xx status.
        public static let rejected = Kind("rejected")
        /// The server does not offer this call (an extension missing from a plain Elib server).
        public static let unsupported = Kind("unsupported")
        /// The server sent bok to another origin (scheme, host, port), which bok does not follow.
        public static let redirected = Kind("redirected")
        /// The request itself was wrong before anything was sent.
        public static let invalidRequest = Kind("invalidRequest")
    }

    /// The kind of failure.
    public let kind: Kind
    /// The one-line message for the patron.
    public let message: String
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// The server's `Reason`, when it gave one.
    public let reason: String?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, status: Int? = nil, reason: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.reason = reason
    }

    public var description: String { message }
}

extension LendingError: PatronFacingError {
    public var patronMessage: String { message }
}
