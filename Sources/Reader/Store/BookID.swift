internal import Crypto

/// A stable name for a book in the store, the same each time the file is opened.
///
/// Made from the package's unique identifier (`urn:uuid:…`, an ISBN) so that a book downloaded
/// again keeps its position and notes; a book without one is named by the SHA-256 of its file.
public struct BookID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id as stored (`epub:urn:isbn:9789100…` or `sha256:3f2a…`).
    public let rawValue: String

    /// Wraps a stored id.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal id (for tests).
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// The id of an opened book: its unique identifier, else the SHA-256 of its file.
    public init(book: EPUBBook) {
        let unique = book.metadata.identifiers.first(where: \.isUnique) ?? book.metadata.identifiers.first
        if let value = unique?.value.trimmed, !value.isEmpty {
            self.init(rawValue: "epub:" + value)
        } else {
            self.init(fileBytes: book.archive.bytes)
        }
    }

    /// The id made from a file's bytes alone.
    public init(fileBytes: [UInt8]) {
        let digest = SHA256.hash(data: fileBytes)
        self.init(
            rawValue: "sha256:"
                + digest.map { byte in
                    let hex = String(byte, radix: 16)
                    return byte < 16 ? "0" + hex : hex
                }.joined())
    }
}
