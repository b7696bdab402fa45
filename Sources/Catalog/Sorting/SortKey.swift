public import Localization

/// What a result list is ordered by.
public enum SortKey: String, Sendable, Hashable, CaseIterable, Codable {
    case relevance, title, author, date, publisher, popularity, rating

    /// The order a patron expects first: A→Z for text, newest, most popular and best rated first.
    public var defaultOrder: SortOrder {
        switch self {
        case .title, .author, .publisher: .ascending
        case .relevance, .date, .popularity, .rating: .descending
        }
    }

    /// The key in the interface language: `author`, `författare` (the first of its names there).
    public var word: String { typedWord.localNames.first ?? rawValue }

    /// Other English words for the key: `sort writer`, `sort stars`.
    public var aliases: [String] {
        switch self {
        case .relevance, .publisher: []
        case .title: ["name"]
        case .author: ["writer"]
        case .date: ["year", "published", "new"]
        case .popularity: ["popular"]
        case .rating: ["stars"]
        }
    }

    /// The key as a patron types it, named in other languages by their catalogues: `sortera
    /// författare fallande` works whatever the interface language.
    public var typedWord: TypedWord {
        switch self {
        case .relevance: TypedWord("typed: sort key", "relevance")
        case .title: TypedWord("typed: sort key", "title")
        case .author: TypedWord("typed: sort key", "author")
        case .date: TypedWord("typed: sort key", "date")
        case .publisher: TypedWord("typed: sort key", "publisher")
        case .popularity: TypedWord("typed: sort key", "popularity")
        case .rating: TypedWord("typed: sort key", "rating")
        }
    }

    /// The key a patron's word names: its own name, an English alias or its name in a language
    /// bok speaks, in any case.
    public init?(word: String) {
        let word = word.lowercased()
        if let key = SortKey(rawValue: word) ?? Self.allCases.first(where: { $0.aliases.contains(word) })
            ?? Self.allCases.first(where: { $0.typedWord.isNamed(word) })
        {
            self = key
        } else {
            return nil
        }
    }

    /// True for keys ordered by text in the library's alphabet.
    public var isText: Bool { self == .title || self == .author || self == .publisher }
}

/// Ascending or descending.
public enum SortOrder: String, Sendable, Hashable, CaseIterable, Codable {
    case ascending = "asc"
    case descending = "desc"

    /// The other direction.
    public var flipped: SortOrder { self == .ascending ? .descending : .ascending }

    /// Parses `asc`/`desc`, their spelled-out forms and their names in any language bok speaks.
    public init?(word: String) {
        switch word.lowercased() {
        case "asc", "ascending", "up": self = .ascending
        case "desc", "descending", "down": self = .descending
        default:
            // Whatever the interface language: `sortera författare fallande`.
            guard let order = Self.allCases.first(where: { $0.typedWord.isNamed(word) }) else { return nil }
            self = order
        }
    }

    /// The direction as a patron types it, named in other languages by their catalogues.
    public var typedWord: TypedWord {
        switch self {
        case .ascending: TypedWord("typed: sort order", "asc")
        case .descending: TypedWord("typed: sort order", "desc")
        }
    }
}

/// A sort key with its direction, described in the patron's terms.
public struct SortSpec: Sendable, Hashable, Codable {
    /// The key.
    public var key: SortKey
    /// The direction.
    public var order: SortOrder

    /// Creates a spec; the order defaults to the key's natural one.
    public init(_ key: SortKey, _ order: SortOrder? = nil) {
        self.key = key
        self.order = order ?? key.defaultOrder
    }

    /// `A→Ö`/`Ö→A` in a Swedish library, `A→Z`/`Z→A` otherwise, `newest first`, `most popular first`…
    public func directionLabel(alphabet: Collation.Alphabet, arrow: String = "→") -> String {
        let up = order == .ascending
        switch key {
        case .title, .author, .publisher:
            let last = alphabet == .swedish ? "Ö" : "Z"
            return up ? "A\(arrow)\(last)" : "\(last)\(arrow)A"
        case .date: return up ? tr("oldest first") : tr("newest first")
        case .popularity: return up ? tr("least popular first") : tr("most popular first")
        case .rating: return up ? tr("lowest rated first") : tr("highest rated first")
        case .relevance: return up ? tr("weakest match first") : tr("best match first")
        }
    }

    /// `author, Ö→A` — as the count line shows it.
    public func label(alphabet: Collation.Alphabet, arrow: String = "→") -> String {
        "\(key.word), \(directionLabel(alphabet: alphabet, arrow: arrow))"
    }
}
