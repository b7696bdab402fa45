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
        guard let first = product.contributors.first(where: { $0.role == .author }) ?? product.contributors.first else { return "" }
        return first.lastName + " " + first.firstName
    }

    /// Sorts `products`; `relevance` keeps the given order (reversed for ascending).
    public func sorted(_ products: [Product], by spec: SortSpec) -> [Product] {
        if spec.key == .relevance {
            return spec.order == .descending ? products : products.reversed()
        }
        let descending = spec.order == .descending
        var order = Array(products.indices)
        let equalPrimary: (Int, Int) -> Bool
        if spec.key.isText {
            // All keys in one buffer, compared with memcmp: no reference counting per comparison,
            // which is what makes sorting 10 000 titles take milliseconds.
            var blob: [UInt8] = []
            var offsets: [Int] = []
            var lengths: [Int] = []
            offsets.reserveCapacity(products.count)
            lengths.reserveCapacity(products.count)
            for product in products {
                let bytes = textKey(product, spec.key)?.bytes ?? []
                offsets.append(blob.count)
                lengths.append(bytes.count)
                blob.append(contentsOf: bytes)
            }
            let compare: (Int, Int) -> Int32 = { a, b in
                blob.withUnsafeBufferPointer { base in
                    let common = min(lengths[a], lengths[b])
                    if common > 0, let start = base.baseAddress {
                        let order = memcmp(start + offsets[a], start + offsets[b], common)
                        if order != 0 { return order }
                    }
                    return lengths[a] == lengths[b] ? 0 : (lengths[a] < lengths[b] ? -1 : 1)
                }
            }
            order.sort { a, b in descending ? compare(b, a) < 0 : compare(a, b) < 0 }
            equalPrimary = { compare($0, $1) == 0 }
        } else {
            let primaries = products.map { primaryKey($0, spec.key) }
            order.sort { a, b in descending ? primaries[b] < primaries[a] : primaries[a] < primaries[b] }
            equalPrimary = { primaries[$0] == primaries[$1] }
        }
        // Title keys only for runs of equal primary keys: most products never need one.
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, equalPrimary(order[end], order[start]) { end += 1 }
            if end - start > 1 {
                let run = order[start..<end].map { (title: collation.key(products[$0].title), index: $0) }
                let sortedRun = run.sorted { $0.title != $1.title ? $0.title < $1.title : products[$0.index].id < products[$1.index].id }
                order.replaceSubrange(start..<end, with: sortedRun.map(\.index))
            }
            start = end
        }
        return order.map { products[$0] }
    }

    /// The collation key of a text sort key, or nil when the product has no such text.
    func textKey(_ product: Product, _ key: SortKey) -> Collation.Key? {
        switch key {
        case .title: collation.key(product.title)
        case .author: collation.key(Self.authorSortText(product))
        case .publisher: product.publisher.map { collation.key($0) }
        default: nil
        }
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
