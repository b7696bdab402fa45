internal import Crypto

/// A stable name for a book in the store, the same each time the file is opened.
///
/// Made from the package's unique identifier (`urn:uuid:…`, an ISBN) and a fingerprint of the
/// book's content, so that a book downloaded again keeps its position and notes while two
/// different books that carry the same identifier (publishers reuse them) keep their own; a book
/// without an identifier is named by the SHA-256 of its file.
public struct BookID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as stored (`epub:urn:isbn:9789100…#3f2a9c01be47` or `sha256:3f2a…`).
    public let rawValue: String

    /// Wraps a stored id.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal id (for tests).
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The SHA-256 of `bytes` in hex.
    package static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The id made from a file's bytes alone.
    public init(fileBytes: [UInt8]) {
        self.init(rawValue: "sha256:" + Self.sha256(fileBytes))
    }
}
