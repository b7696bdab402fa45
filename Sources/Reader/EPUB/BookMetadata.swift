/// A person or organisation credited in the book, with their role.
public struct Contributor: Sendable, Hashable, Codable {
    /// The name as displayed.
    public var name: String
    /// The MARC relator code (`aut`, `edt`, `trl`, `ill`, ...), when the book gives one.
    public var role: String?
    /// The name for sorting (`opf:file-as` or a `file-as` refinement).
    public var fileAs: String?
    /// The name's direction (`dir` on the element, else on the package), nil when neither says.
    public var direction: TextDirection?

    /// Creates a contributor.
    public init(name: String, role: String? = nil, fileAs: String? = nil, direction: TextDirection? = nil) {
        self.name = name
        self.role = role
        self.fileAs = fileAs
        self.direction = direction
    }

    /// The role in words (`author`, `translator`), or the code itself when it is not a common one.
    public var roleName: String? {
        guard let role else { return nil }
        let names = [
            "aut": "author", "edt": "editor", "trl": "translator", "ill": "illustrator", "nrt": "narrator",
            "aui": "author of introduction", "aft": "author of afterword", "ctb": "contributor",
            "pbl": "publisher", "cov": "cover designer", "bkp": "book producer", "ann": "annotator",
        ]
        return names[role.lowercased()] ?? role
    }
}

/// An identifier of the book (ISBN, UUID, ...).
public struct BookIdentifier: Sendable, Hashable, Codable {
    /// The identifier's text.
    public var value: String
    /// Its scheme (`ISBN`, `UUID`), when the book says.
    public var scheme: String?
    /// Whether the package names this as the book's unique identifier.
    public var isUnique: Bool
}

/// What the package document says about the book.
public struct BookMetadata: Sendable, Hashable, Codable {
    /// The main title: the first `dc:title` in document order (EPUB RS 3.3).
    public var title: String
    /// The title's direction (`dir` on its `dc:title`, else on the package), nil when neither says:
    /// its first strong letter decides when it is drawn.
    public var titleDirection: TextDirection? = nil
    /// Authors and other creators, in order.
    public var creators: [Contributor]
    /// Other contributors (editors, translators, illustrators) listed as `dc:contributor`.
    public var contributors: [Contributor]
    /// Languages (BCP 47 tags), the primary first.
    public var languages: [String]
    /// Identifiers, the unique one first.
    public var identifiers: [BookIdentifier]
    /// The publisher.
    public var publisher: String?
    /// The publication date as written.
    public var date: String?
    /// The description (plain text).
    public var description: String?

    /// The primary language, if any.
    public var language: String? { languages.first }
}
