import Catalog
import Dispatch

/// The catalogue with its search index and sort ranks: answers "which products, in which order,
/// on this page" for `GET products`.
///
/// Immutable after start-up and `Sendable`, so requests search it concurrently without a lock;
/// only availability (which changes with loans) comes from the caller.
struct CatalogSearch: Sendable {
    /// The products, by index, generated when read.
    let products: ProductTable
    let index: SearchIndex
    let ranks: SortRanks
    /// Recent queries' hits.
    let matches = MatchCache()

    /// Indexes `products` and ranks them in `collation`'s alphabet (generating each book once).
    init(products: ProductTable, collation: Collation) {
        var part = Part(start: 0, count: products.count, collation: collation)
        for index in products.indices { part.add(index, products[index]) }
        part.finish()
        self.init(products: products, parts: [part], collation: collation)
    }

    /// A search over an index and ranks built before (read back from the index cache).
    init(products: ProductTable, index: SearchIndex, ranks: SortRanks) {
        self.products = products
        self.index = index
        self.ranks = ranks
    }

    /// Joins what the chunks of the catalogue gave, in order: the index and the ranks on every core.
    init(products: ProductTable, parts: [Part], collation: Collation) {
        self.products = products
        let index = ResultSlots<SearchIndex>(count: 1)
        ranks = SortRanks(count: products.count, facts: parts.map(\.ranks), adjusted: products.adjusted) {
            index.set(0, SearchIndex(count: products.count, builders: parts.map(\.index)))
        }
        self.index = index.values()[0]
    }

    /// What one chunk of consecutive books gives the index and the ranks.
    struct Part: Sendable {
        var index = SearchIndex.Builder()
        var ranks: SortRanks.Facts

        init(start: Int, count: Int, collation: Collation) {
            ranks = SortRanks.Facts(start: start, count: count, collation: collation)
        }

        mutating func add(_ number: Int, _ product: borrowing Product) {
            index.add(Int32(number), product)
            ranks.add(product)
        }

        /// Drops the memos of adding books, so that a million titles' chunks do not hold them all at once.
        mutating func finish() {
            index.finish()
            for column in ranks.texts.indices { ranks.texts[column].finish() }
        }
    }

    /// Whether walking the whole catalogue's order until `pageEnd` hits are found is cheaper than
    /// sorting the hits: when hits are spread through the catalogue, the walk visits about
    /// `pageEnd × catalogue / hits` products, against a key for each hit.
    static func walks(hits: Int, pageEnd: Int, catalogue: Int) -> Bool {
        hits >= 512 && pageEnd * catalogue <= 4 * hits * hits
    }

    /// One page of a search.
    struct Page {
        /// Matches on all pages.
        var total: Int
        /// Product indices on this page, in order.
        var indices: [Int]
    }

    /// Runs a search.
    /// - Parameter isAvailable: Whether product `i` can be borrowed now (for `available=true`).
    /// - Parameter walking: Whether to walk the precomputed orders (true) or sort the hits'
    ///   keys (false); nil chooses by the number of hits (tests compare the two).
    func search(_ request: SearchOptions, walking: Bool? = nil, isAvailable: (Int) -> Bool) -> Page {
        var hits = matches.hits(request.query) {
            MatchCache.sorted(index.match(request.query, in: products), count: products.count)
        }
        let filters = [
            request.category.map { index.categoryMembers[$0] ?? [] },
            request.publisher.map { index.publisherMembers[$0] ?? [] },
            request.language.map { language in
                let code = SearchIndex.languageNames.first { $0.value.contains(language) }?.key ?? language
                return index.languageMembers[code] ?? []
            },
        ].compactMap { $0 }
        if !filters.isEmpty || request.availableOnly {
            var allowed: [Bool]?
            for members in filters {
                var mask = [Bool](repeating: false, count: products.count)
                for member in members where allowed?[Int(member)] ?? true { mask[Int(member)] = true }
                allowed = mask
            }
            var kept = 0
            for position in hits.indices.indices {
                let i = Int(hits.indices[position])
                if allowed?[i] ?? true, !request.availableOnly || isAvailable(i) {
                    hits.indices[kept] = hits.indices[position]
                    hits.scores[kept] = hits.scores[position]
                    kept += 1
                }
            }
            hits.indices.removeLast(hits.indices.count - kept)
            hits.scores.removeLast(hits.scores.count - kept)
        }
        let total = hits.indices.count
        let end = min(total, request.offset + request.limit)
        guard request.offset < end else { return Page(total: total, indices: []) }
        if walking ?? Self.walks(hits: total, pageEnd: end, catalogue: products.count) {
            if let first = ranks.first(end, request.sort, hits: hits) {
                return Page(total: total, indices: first[request.offset...].map(Int.init))
            }
        }
        let keys = ranks.keys(hits.indices, scores: hits.scores, request.sort)
        let smallest = SmallestKeys.select(keys, count: end)
        let page = smallest[request.offset..<end].map { Int(ranks.index(ofKey: $0, request.sort)) }
        return Page(total: total, indices: page)
    }
}
