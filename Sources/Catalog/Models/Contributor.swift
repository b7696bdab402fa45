/// A person who made a book: an author, a translator, an illustrator or a narrator.
///
/// Encodes with upstream's keys (`Role`, `FirstName`, `LastName`, `FullName`); also decodes the
/// older feed's unnamed `Authors` objects, which carry no role.
public struct Contributor: Sendable, Hashable, Codable {
    /// What the person did for this book.
    public enum Role: String, Sendable, Hashable, Codable {
        case author = "Author"
        case translator = "Translator"
        case illustrator = "Illustrator"
        case editor = "Editor"
        case narrator = "Narrator"
    }

    /// The role, `author` when the feed does not say.
    public var role: Role
    /// Given name(s); may be empty for a single-name author.
    public var firstName: String
    /// Family name, used for sorting by author.
    public var lastName: String

    /// Creates a contributor.
    public init(role: Role = .author, firstName: String, lastName: String) {
        self.role = role
        self.firstName = firstName
        self.lastName = lastName
    }

    /// "First Last", as shown to the patron.
    public var fullName: String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// "Last, First", as a catalogue lists authors.
    public var invertedName: String {
        firstName.isEmpty ? lastName : "\(lastName), \(firstName)"
    }

    enum CodingKeys: String, CodingKey {
        case role = "Role"
        case firstName = "FirstName"
        case lastName = "LastName"
        case fullName = "FullName"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let roleText = try c.decodeIfPresent(String.self, forKey: .role)
        role =
            roleText.flatMap {
                Role(rawValue: $0) ?? Role(rawValue: $0.prefix(1).uppercased() + $0.dropFirst().lowercased())
            } ?? .author
        let policy = TextPolicy(decoder)
        var first = try c.decodeLineIfPresent(forKey: .firstName, policy) ?? ""
        var last = try c.decodeLineIfPresent(forKey: .lastName, policy) ?? ""
        if first.isEmpty, last.isEmpty, let full = try c.decodeLineIfPresent(forKey: .fullName, policy) {
            // Only a full name: the last word is the family name.
            let words = full.split(separator: " ")
            last = words.last.map(String.init) ?? ""
            first = words.dropLast().joined(separator: " ")
        }
        firstName = first
        lastName = last
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(role.rawValue, forKey: .role)
        try c.encode(firstName, forKey: .firstName)
        try c.encode(lastName, forKey: .lastName)
        try c.encode(fullName, forKey: .fullName)
    }
}
