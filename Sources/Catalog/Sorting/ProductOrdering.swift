/// Orders products by a `SortSpec` in a library's alphabet.
///
/// Ties are broken by title (A→Z) and then by id, so an order is stable from page to page.
/// Authors sort by the first author's last name, then first name.
public struct ProductOrdering: Sendable {
    /// The alphabet text keys follow.
    public let collation: Collation

    /// Creates an ordering.
    public init(collation: Collation) { self.collation = collation }

    /// The text an author sort compares: last name, then first name, of the first author.
    public static func authorSortText(_ product: Product) -> String {
        guard let first = product.authors.first ?? product.contributors.first else { return "" }
        return first.lastName + " " + first.firstName
    }

    /// Sorts `products`; `relevance` keeps the given order (reversed for ascending).
    public func sorted(_ products: [Product], by spec: SortSpec) -> [Product] {
        if spec.key == .relevance {
            return spec.order == .descending ? products : products.reversed()
        }
        let descending = spec.order == .descending
        let keyed = products.map { product in
            (primary: primaryKey(product, spec.key), title: collation.key(product.title), product: product)
        }
        return keyed.sorted { a, b in
            if a.primary != b.primary { return descending ? b.primary < a.primary : a.primary < b.primary }
            if a.title != b.title { return a.title < b.title }
            return a.product.id < b.product.id
        }.map(\.product)
    }

    /// A comparable key for one field of a product.
    public enum FieldKey: Sendable, Hashable, Comparable {
        case text(Collation.Key)
        case number(Double)
        case missing

        public static func < (lhs: FieldKey, rhs: FieldKey) -> Bool {
            switch (lhs, rhs) {
            case let (.text(a), .text(b)): a < b
            case let (.number(a), .number(b)): a < b
            case (.missing, .missing): false
            case (.missing, _): true   // unknown values sort first ascending, last descending
            case (_, .missing): false
            default: false
            }
        }
    }

    /// The key of `product` for `key`.
    public func primaryKey(_ product: Product, _ key: SortKey) -> FieldKey {
        switch key {
        case .title: return .text(collation.key(product.title))
        case .author: return .text(collation.key(Self.authorSortText(product)))
        case .publisher: return product.publisher.map { .text(collation.key($0)) } ?? .missing
        case .date:
            guard let d = product.publishedDate else { return .missing }
            return .number(Double(d.year * 10_000 + d.month * 100 + d.day))
        case .popularity: return product.popularity.map { .number(Double($0)) } ?? .missing
        case .rating: return product.rating.map { .number($0) } ?? .missing
        case .relevance: return .missing
        }
    }
}
