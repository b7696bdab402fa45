import Catalog

/// Precomputed positions of every product in every sort order, so that ordering a result list
/// is sorting integers.
///
/// The orders are exactly `ProductOrdering`'s (tests compare them): a primary key per sort key,
/// equal primaries broken by title and then id, missing values first ascending and last
/// descending. Each product gets a dense rank of its primary key (equal keys share a rank) and
/// one tie rank by (title, id); a result's sort key is then `primary << 24 | tie`, with the
/// primary flipped for descending order, which keeps ties in title order both ways as
/// `ProductOrdering` does.
struct SortRanks: Sendable {
    /// Bits of a rank; catalogues are limited to 2^24 (16.7 million) products.
    static let rankBits: UInt64 = 24
    static let rankMask: UInt64 = (1 << rankBits) - 1

    /// Rank of each product by (title, id).
    let tie: [UInt32]
    /// Product index at each tie rank (the inverse of `tie`).
    let byTie: [Int32]
    /// Dense primary rank per sort key (0 = missing), indexed by `slot(of:)`.
    private let primary: [[UInt32]]
    private let maxPrimary: [UInt32]

    /// Computes the ranks of `products` in `collation`'s alphabet.
    init(products: [Product], collation: Collation) {
        precondition(UInt64(products.count) <= Self.rankMask, "catalogue too large for 24-bit ranks")
        let count = products.count
        let ordering = ProductOrdering(collation: collation)
        var primary: [[UInt32]] = []
        var maxPrimary: [UInt32] = []
        for key in Self.keys {
            let (ranks, distinct) = Self.denseRanks(products, key, ordering)
            primary.append(ranks)
            maxPrimary.append(distinct)
        }
        let titleRank = primary[Self.slot(of: .title)]
        // Ties: title, then id, as ProductOrdering breaks them.
        let order = (0..<count).sorted { a, b in
            titleRank[a] != titleRank[b] ? titleRank[a] < titleRank[b] : products[a].id < products[b].id
        }
        var tie = [UInt32](repeating: 0, count: count)
        for (rank, index) in order.enumerated() { tie[index] = UInt32(rank) }
        self.tie = tie
        self.byTie = order.map { Int32($0) }
        self.primary = primary
        self.maxPrimary = maxPrimary
    }

    /// Dense ranks of every product's primary key for `key` (0 for a missing value), and one
    /// more than the number of distinct keys.
    ///
    /// Keys come from `ProductOrdering.primaryKey`, so the order is its order; they are computed
    /// once per distinct value and ranked among the distinct ones only (a few thousand titles
    /// and names, not 200 000 products), then looked up per product.
    private static func denseRanks(
        _ products: [Product], _ key: SortKey, _ ordering: ProductOrdering
    ) -> ([UInt32], UInt32) {
        switch key {
        case .title: denseRanks(products, key, ordering) { $0.title }
        case .author: denseRanks(products, key, ordering) { ProductOrdering.authorSortText($0) }
        case .publisher: denseRanks(products, key, ordering) { $0.publisher }
        case .date:
            denseRanks(products, key, ordering) { $0.publishedDate.map { $0.year * 10_000 + $0.month * 100 + $0.day } }
        case .popularity: denseRanks(products, key, ordering) { $0.popularity }
        case .rating: denseRanks(products, key, ordering) { $0.rating }
        case .relevance: ([UInt32](repeating: 0, count: products.count), 1)
        }
    }

    /// - Parameter value: What the primary key is computed from; products with equal values have equal keys.
    private static func denseRanks<Value: Hashable>(
        _ products: [Product], _ key: SortKey, _ ordering: ProductOrdering,
        value: (borrowing Product) -> Value?
    ) -> ([UInt32], UInt32) {
        var keyOfValue: [Value: ProductOrdering.FieldKey] = [:]
        var valueOfProduct: [Value?] = []
        valueOfProduct.reserveCapacity(products.count)
        for index in products.indices {
            let productValue = value(products[index])
            if let productValue, keyOfValue[productValue] == nil {
                keyOfValue[productValue] = ordering.primaryKey(products[index], key)
            }
            valueOfProduct.append(productValue)
        }
        // Equal keys share a rank even when their texts differ ("O'Connor" and "OConnor").
        let distinctKeys = Set(keyOfValue.values).sorted()
        var rankOfKey: [ProductOrdering.FieldKey: UInt32] = [:]
        for (position, fieldKey) in distinctKeys.enumerated() { rankOfKey[fieldKey] = UInt32(position + 1) }
        var rankOfValue: [Value: UInt32] = [:]
        rankOfValue.reserveCapacity(keyOfValue.count)
        for (productValue, fieldKey) in keyOfValue { rankOfValue[productValue] = rankOfKey[fieldKey]! }
        let ranks = valueOfProduct.map { $0.map { rankOfValue[$0]! } ?? 0 }
        // Missing (0) sorts below every value, as `FieldKey.missing` does; the maximum is one
        // above the largest rank so that descending (max − rank) puts missing values last.
        return (ranks, UInt32(distinctKeys.count + 1))
    }

    /// The sort keys with a precomputed primary rank, in slot order: every key but relevance
    /// (which uses popularity's). Derived from `slot(of:)`, whose switch the compiler keeps
    /// complete, so a new `SortKey` cannot go without ranks or look one up out of range.
    private static let keys: [SortKey] = {
        let keys = SortKey.allCases.filter { $0 != .relevance }.sorted { slot(of: $0) < slot(of: $1) }
        precondition(keys.map(slot(of:)) == Array(keys.indices), "SortRanks.slot(of:) must number the keys 0, 1, 2, …")
        return keys
    }()

    /// The key's place in `primary`; fast enough for the per-product `key(_:_:score:)`.
    private static func slot(of key: SortKey) -> Int {
        switch key {
        case .title: 0
        case .author: 1
        case .date: 2
        case .publisher: 3
        case .popularity, .relevance: 4
        case .rating: 5
        }
    }

    /// A key whose ascending order is the order `spec` asks for; `score` is the relevance score.
    ///
    /// Relevance: higher score first, then more popular, then by title; ascending is the exact
    /// reverse (as `ProductOrdering` reverses the server's order).
    @inline(__always)
    func key(_ index: Int32, _ spec: SortSpec, score: UInt16) -> UInt64 {
        let i = Int(index)
        let tieRank = UInt64(tie[i])
        if spec.key == .relevance {
            let slot = Self.slot(of: .popularity)
            let popularityDescending = UInt64(maxPrimary[slot] - primary[slot][i])
            let descending =
                UInt64(UInt16.max - score) << (2 * Self.rankBits) | popularityDescending << Self.rankBits | tieRank
            return spec.order == .descending ? descending : ~descending
        }
        let slot = Self.slot(of: spec.key)
        let rank = primary[slot][i]
        let primaryPart = UInt64(spec.order == .ascending ? rank : maxPrimary[slot] - rank)
        return primaryPart << Self.rankBits | tieRank
    }

    /// The product index a key stands for.
    @inline(__always)
    func index(ofKey key: UInt64, _ spec: SortSpec) -> Int32 {
        let plain = spec.key == .relevance && spec.order == .ascending ? ~key : key
        return byTie[Int(plain & Self.rankMask)]
    }
}
