import ReadingState

/// A book's id from its package: what the reader and the shelf's record of a download both use.
extension BookID {
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
        return String(sha256(Array(text.utf8)).prefix(12))
    }
}
