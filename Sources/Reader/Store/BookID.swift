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

    /// The id of an opened book: its unique identifier with its fingerprint, else the SHA-256 of
    /// its file.
    public init(book: EPUBBook) {
        if let identifier = Self.identifier(of: book) {
            self.init(rawValue: "epub:" + identifier + "#" + Self.fingerprint(of: book))
        } else {
            self.init(fileBytes: book.archive.bytes)
        }
    }

    /// The id of `book` in `store`, which takes over what was kept under the book's id from
    /// before ids had a fingerprint (`epub:IDENTIFIER`) the first time the book is opened, so a
    /// patron's place and notes survive the change. Only a book with nothing of its own in the
    /// store takes them, once: a second book with the same identifier starts afresh.
    public static func opening(_ book: EPUBBook, in store: any PositionStore) -> BookID {
        let id = BookID(book: book)
        if let identifier = identifier(of: book) {
            try? store.adoptLegacy(BookID(rawValue: "epub:" + identifier), as: id)
        }
        return id
    }

    /// The package's unique identifier (or its first one), trimmed; nil when it has none.
    static func identifier(of book: EPUBBook) -> String? {
        let unique = book.metadata.identifiers.first(where: \.isUnique) ?? book.metadata.identifiers.first
        guard let value = unique?.value.trimmed, !value.isEmpty else { return nil }
        return value
    }

    /// What tells two books with one identifier apart and stays the same for one book downloaded
    /// again (a lending copy's watermark changes its bytes, not its title, its authors or the
    /// names of its chapters' files): 12 hex digits of the SHA-256 of those.
    static func fingerprint(of book: EPUBBook) -> String {
        var text = book.identityTitle + "\n" + book.identityCreators.joined(separator: ", ")
        for item in book.spine { text += "\n" + (item.path ?? "") }
        return String(hex(SHA256.hash(data: Array(text.utf8))).prefix(12))
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The id made from a file's bytes alone.
    public init(fileBytes: [UInt8]) {
        self.init(rawValue: "sha256:" + Self.hex(SHA256.hash(data: fileBytes)))
    }
}
