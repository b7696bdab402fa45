import Catalog

/// One hit in `--json` output. Field names are stable and documented in docs/commands.md.
struct ResultJSON: Encodable, Sendable {
    let number: Int
    let id: String
    let title: String
    /// Full names, first author first.
    let authors: [String]
    let year: Int?
    let categories: [String]
    /// Nil when availability could not be learnt.
    let available: Bool?
    /// Null or upstream's word: `product`, `library`, `borrower`.
    let reason: String?
    /// The reason in words, as the list shows it.
    let explanation: String?

    init(number: Int, product: Product) {
        self.number = number
        id = product.id
        title = product.title
        authors = product.authors.map(\.fullName)
        year = product.year
        categories = product.categories
        available = product.availability?.available
        reason = product.availability?.reason?.word
        explanation = product.availability?.explanation
    }

    enum CodingKeys: String, CodingKey {
        case number, id, title, authors, year, categories, available, reason, explanation
    }

    /// Unknown values are written as `null`, not left out, so every result has every field.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(authors, forKey: .authors)
        try c.encode(year, forKey: .year)
        try c.encode(categories, forKey: .categories)
        try c.encode(available, forKey: .available)
        try c.encode(reason, forKey: .reason)
        try c.encode(explanation, forKey: .explanation)
    }
}

/// A result list in `--json` output.
struct ListJSON: Encodable, Sendable {
    /// `search`, `top`, `new` or `library`.
    let list: String
    let query: String?
    let total: Int
    let offset: Int
    let sort: String
    let order: String
    let filters: FiltersJSON
    let results: [ResultJSON]
}

/// Active filters in `--json` output.
struct FiltersJSON: Encodable, Sendable {
    let available: Bool
    let language: String?
    let category: String?
    let publisher: String?

    init(_ filters: SearchFilters) {
        available = filters.availableOnly
        language = filters.language
        category = filters.category
        publisher = filters.publisher
    }
}

/// The current order in `--json` output.
struct SortJSON: Encodable, Sendable {
    let sort: String
    let order: String
    let label: String
}
