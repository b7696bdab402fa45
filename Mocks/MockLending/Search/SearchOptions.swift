import Catalog

/// A `GET products` request, read from its query parameters and checked.
struct SearchOptions: Sendable, Equatable {
    /// The parsed query; nil for an empty `q` (the whole catalogue, for top and new lists).
    var query: SearchQuery?
    /// The raw `q`, which the checksum covers.
    var text: String
    var sort: SortSpec
    var offset: Int
    var limit: Int
    /// Folded filter values.
    var category: String?
    var language: String?
    var publisher: String?
    var availableOnly: Bool
    /// The patron's card, for `borrower` availability.
    var card: String?

    /// Hits per page when `limit` is not given, and the most a page may hold.
    static let defaultLimit = 20
    static let maxLimit = 100

    // Not patron-facing: the mock answers it as an HTTP 400 with a Reason.
    /// Why a request cannot be run; the message goes to the patron as the 400's `Reason`.
    struct Invalid: Error, Equatable {
        let reason: Said
    }

    /// Creates options directly (tests, benchmarks).
    init(
        query: SearchQuery?, sort: SortSpec = SortSpec(.relevance), offset: Int = 0, limit: Int = defaultLimit,
        category: String? = nil, language: String? = nil, publisher: String? = nil, availableOnly: Bool = false,
        card: String? = nil
    ) {
        self.query = query
        self.text = ""
        self.sort = sort
        self.offset = offset
        self.limit = limit
        self.category = category.map(SearchQuery.fold)
        self.language = language.map(SearchQuery.fold)
        self.publisher = publisher.map(SearchQuery.fold)
        self.availableOnly = availableOnly
        self.card = card
    }

    /// Reads the parameters.
    /// - Throws: `Invalid` for a query that does not parse, an unknown sort or order, or a
    ///   non-numeric offset or limit.
    init(_ parameters: QueryParameters) throws(Invalid) {
        text = parameters["q"] ?? ""
        if text.allSatisfy(\.isWhitespace) {
            query = nil
        } else {
            do {
                query = try SearchQuery.parse(text)
            } catch {
                throw Invalid(reason: Said(verbatim: error.message))
            }
        }
        let sortKey: SortKey
        if let word = parameters["sort"], !word.isEmpty {
            guard let key = SortKey(rawValue: word.lowercased()) else {
                let names = SortKey.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(
                    reason: Said(
                        "Unknown sort \"{word}\". Sort by {names}.", ["word": .text(word), "names": .text(names)]))
            }
            sortKey = key
        } else {
            sortKey = .relevance
        }
        var order: SortOrder?
        if let word = parameters["order"], !word.isEmpty {
            guard let parsed = SortOrder(word: word) else {
                throw Invalid(reason: Said("Unknown order \"{word}\". Use asc or desc.", ["word": .text(word)]))
            }
            order = parsed
        }
        sort = SortSpec(sortKey, order)
        // Capped so that offset + limit cannot overflow; no catalogue is that large.
        offset = min(try Self.number(parameters["offset"], name: "offset", default: 0), 1 << 30)
        limit = min(
            Self.maxLimit, max(1, try Self.number(parameters["limit"], name: "limit", default: Self.defaultLimit)))
        category = parameters["category"].flatMap(Self.filterValue)
        language = parameters["language"].flatMap(Self.filterValue)
        publisher = parameters["publisher"].flatMap(Self.filterValue)
        availableOnly = ["true", "1", "yes"].contains(parameters["available"]?.lowercased() ?? "")
        card = parameters["card"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func number(_ text: String?, name: String, default value: Int) throws(Invalid) -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), number >= 0 else {
            throw Invalid(
                reason: Said(
                    "{name} must be a whole number of zero or more, not \"{text}\".",
                    ["name": .text(name), "text": .text(text)]))
        }
        return number
    }

    private static func filterValue(_ text: String) -> String? {
        let folded = SearchQuery.fold(text)
        return folded.isEmpty ? nil : folded
    }
}
