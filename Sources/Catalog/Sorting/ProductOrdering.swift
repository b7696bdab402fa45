internal import Foundation

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
        guard let author = sortAuthor(product.contributors) else { return "" }
        return author.lastName + " " + author.firstName
    }

    /// The contributor an author sort goes by: the first author, or else the first contributor.
    public static func sortAuthor(_ contributors: [Contributor]) -> Contributor? {
        contributors.first(where: { $0.role == .author }) ?? contributors.first
    }

    /// Sorts `products`; `relevance` keeps the given order (reversed for ascending).
    public func sorted(_ products: [Product], by spec: SortSpec) -> [Product] {
        if spec.key == .relevance {
            return spec.order == .descending ? products : products.reversed()
        }
        let descending = spec.order == .descending
        var order = (0..<products.count).map { Int32($0) }
        let samePrimary: (Int32, Int32) -> Bool
        if spec.key.isText {
            let keys = textKeys(products, spec.key)
            order.sort { a, b in descending ? keys.compare(b, a) < 0 : keys.compare(a, b) < 0 }
            samePrimary = { keys.compare($0, $1) == 0 }
        } else {
            let primaries = products.map { primaryKey($0, spec.key) }
            order.sort { a, b in
                descending ? primaries[Int(b)] < primaries[Int(a)] : primaries[Int(a)] < primaries[Int(b)]
            }
            samePrimary = { primaries[Int($0)] == primaries[Int($1)] }
        }
        breakTiesByTitle(&order, products, samePrimary: samePrimary)
        return order.map { products[Int($0)] }
    }

    /// Orders each run of products with equal primary keys by title, then id.
    ///
    /// Title keys are written only for products in such runs, into one table reused from run to
    /// run. The product's position in `products` breaks the last ties, as the stable sorts of
    /// earlier versions did.
    private func breakTiesByTitle(_ order: inout [Int32], _ products: [Product], samePrimary: (Int32, Int32) -> Bool) {
        var titles = CollationKeyTable(collation)
        var run: [Int32] = []
        var slots: [CollationKeyTable.Index] = []
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, samePrimary(order[end], order[start]) { end += 1 }
            if end - start > 1 {
                run.removeAll(keepingCapacity: true)
                run.append(contentsOf: order[start..<end])
                titles.removeAll()
                for index in run {
                    titles.add(products[Int(index)].title)
                    titles.endKey()
                }
                // Slot k is run[k]'s title key.
                slots.removeAll(keepingCapacity: true)
                slots.append(contentsOf: 0..<CollationKeyTable.Index(run.count))
                slots.sort { a, b in
                    let byTitle = titles.compare(a, b)
                    if byTitle != 0 { return byTitle < 0 }
                    let productA = Int(run[Int(a)])
                    let productB = Int(run[Int(b)])
                    if products[productA].id != products[productB].id {
                        return products[productA].id < products[productB].id
                    }
                    return productA < productB
                }
                for (offset, slot) in slots.enumerated() { order[start + offset] = run[Int(slot)] }
            }
            start = end
        }
    }

    /// The collation keys of a text sort key, one per product in `products`' order; an empty key
    /// where a product has no such text.
    func textKeys(_ products: [Product], _ key: SortKey) -> CollationKeyTable {
        var keys = CollationKeyTable(collation, capacity: products.count)
        // One loop per key, each reading only the fields it needs: handing a whole product to a
        // helper would copy it, retaining a dozen strings and arrays, to read one name.
        switch key {
        case .title:
            for index in products.indices {
                keys.add(products[index].title)
                keys.endKey()
            }
        case .author:
            // The key of `authorSortText`, written from the name's parts.
            for index in products.indices {
                if let author = Self.sortAuthor(products[index].contributors) {
                    keys.add(author.lastName)
                    keys.add(" ")
                    keys.add(author.firstName)
                }
                keys.endKey()
            }
        case .publisher:
            for index in products.indices {
                if let publisher = products[index].publisher {
                    keys.add(publisher)
                    keys.endKey()
                } else {
                    keys.appendEmpty()
                }
            }
        case .relevance, .date, .popularity, .rating:
            for _ in products.indices { keys.appendEmpty() }
        }
        return keys
    }

    /// A comparable key for one field of a product.
    public enum FieldKey: Sendable, Hashable, Comparable {
        case text(Collation.Key)
        case number(Double)
        case missing

        public static func < (lhs: FieldKey, rhs: FieldKey) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): a < b
            case (.number(let a), .number(let b)): a < b
            case (.missing, .missing): false
            case (.missing, _): true  // unknown values sort first ascending, last descending
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
