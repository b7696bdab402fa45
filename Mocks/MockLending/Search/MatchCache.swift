import Catalog
import Synchronization

/// The hits of recent queries, sorted by product index, so that paging through a query or a
/// popular query asked again does not mark every posting of its words again (`language:en` or
/// `the` hit a third of the catalogue). The index never changes, so a kept answer stays true;
/// availability and filters are applied to it afresh at each search.
///
/// At most 64 queries and 4 000 000 hits in all (24 MB); the oldest query goes first.
final class MatchCache: Sendable {
    /// A query's hits in ascending product index, each with its score.
    struct Hits: Sendable {
        var indices: [Int32] {
            didSet {
                bitmap = []
                keptScoreCounts = nil
            }
        }
        var scores: [UInt16]
        /// One bit per product of the catalogue, set for the hits (empty: not made, or the
        /// hits changed since); `isHit` answers from it without a search.
        private(set) var bitmap: [UInt64] = []

        init(indices: [Int32], scores: [UInt16]) {
            self.indices = indices
            self.scores = scores
        }

        /// `scoreCounts`, once made for hits kept (nil inside: too many different scores).
        private var keptScoreCounts: [(score: UInt16, count: Int)]??

        /// Each different score with its number of hits, in the order met; nil past 64 scores
        /// (the relevance walk then sorts instead). Kept with the hits: counting is a pass over them.
        var scoreCounts: [(score: UInt16, count: Int)]? {
            keptScoreCounts ?? Self.scoreCounts(scores, atMost: 64)
        }

        /// Makes `bitmap` for a catalogue of `count` products, and counts the scores.
        mutating func keep(count: Int) {
            makeBitmap(count: count)
            keptScoreCounts = .some(Self.scoreCounts(scores, atMost: 64))
        }

        private static func scoreCounts(_ scores: [UInt16], atMost limit: Int) -> [(score: UInt16, count: Int)]? {
            var counts: [(score: UInt16, count: Int)] = []
            var last = 0
            for score in scores {
                if last >= counts.count || counts[last].score != score {
                    if let known = counts.firstIndex(where: { $0.score == score }) {
                        last = known
                    } else {
                        guard counts.count < limit else { return nil }
                        counts.append((score, 0))
                        last = counts.count - 1
                    }
                }
                counts[last].count += 1
            }
            return counts
        }

        /// Makes `bitmap` for a catalogue of `count` products.
        private mutating func makeBitmap(count: Int) {
            var bits = [UInt64](repeating: 0, count: (count + 63) / 64)
            for index in indices { bits[Int(index) >> 6] |= 1 << (UInt64(index) & 63) }
            bitmap = bits
        }

        /// Whether product `index` is a hit.
        @inline(__always)
        func isHit(_ index: Int32) -> Bool {
            if bitmap.isEmpty { return position(of: index) != nil }
            return bitmap[Int(index) >> 6] & (1 << (UInt64(index) & 63)) != 0
        }

        /// The position of product `index` among the hits, if it is one (binary search).
        @inline(__always)
        func position(of index: Int32) -> Int? {
            var low = 0
            var high = indices.count
            while low < high {
                let mid = (low + high) / 2
                if indices[mid] < index { low = mid + 1 } else { high = mid }
            }
            return low < indices.count && indices[low] == index ? low : nil
        }
    }

    static let maxQueries = 64
    static let maxHits = 4_000_000

    private struct Kept {
        var hits: [SearchQuery?: Hits] = [:]
        /// Queries from the oldest kept.
        var order: [SearchQuery?] = []
        var size = 0
    }

    private let kept = Mutex(Kept())

    /// The hits of `query`, kept or made by `match` (outside the lock: two requests for a new
    /// query may both match it; the answer is the same).
    func hits(_ query: SearchQuery?, match: () -> Hits) -> Hits {
        if let known = kept.withLock({ $0.hits[query] }) { return known }
        let made = match()
        guard made.indices.count <= Self.maxHits / 4 else { return made }
        kept.withLock { kept in
            guard kept.hits[query] == nil else { return }
            while !kept.order.isEmpty,
                kept.order.count >= Self.maxQueries || kept.size + made.indices.count > Self.maxHits
            {
                let oldest = kept.order.removeFirst()
                kept.size -= kept.hits.removeValue(forKey: oldest)?.indices.count ?? 0
            }
            kept.hits[query] = made
            kept.order.append(query)
            kept.size += made.indices.count
        }
        return made
    }

    /// `hits` in ascending product index: a pass over a dense array when they are many of the
    /// `count` products, a sort when they are few.
    static func sorted(_ hits: SearchIndex.Hits, count: Int) -> Hits {
        if hits.indices.count * 16 < count {
            let packed = zip(hits.indices, hits.scores).map { UInt64(UInt32($0.0)) << 16 | UInt64($0.1) }.sorted()
            var sorted = Hits(
                indices: packed.map { Int32($0 >> 16) }, scores: packed.map { UInt16(truncatingIfNeeded: $0) })
            sorted.keep(count: count)
            return sorted
        }
        var isHit = [Bool](repeating: false, count: count)
        var scores = [UInt16](repeating: 0, count: count)
        for (index, score) in zip(hits.indices, hits.scores) {
            isHit[Int(index)] = true
            scores[Int(index)] = score
        }
        var sorted = Hits(indices: [], scores: [])
        sorted.indices.reserveCapacity(hits.indices.count)
        sorted.scores.reserveCapacity(hits.indices.count)
        for index in 0..<count where isHit[index] {
            sorted.indices.append(Int32(index))
            sorted.scores.append(scores[index])
        }
        sorted.keep(count: count)
        return sorted
    }
}
