import Catalog
import Dispatch
internal import Foundation

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
    let primary: [[UInt32]]
    /// One more than the highest rank in each of `primary`.
    let maxPrimary: [UInt32]

    /// Per slot, every product in ascending order of (primary rank, tie rank): walked until a
    /// page is full when a search hits much of the catalogue.
    let orders: [[Int32]]
    /// Per slot, where each primary rank's products start in `orders` (one more entry, the end).
    let groupStarts: [[UInt32]]

    /// Ranks as they were computed before (read back from the index cache).
    init(tie: [UInt32], byTie: [Int32], primary: [[UInt32]], maxPrimary: [UInt32]) {
        self.tie = tie
        self.byTie = byTie
        self.primary = primary
        self.maxPrimary = maxPrimary
        (orders, groupStarts) = Self.orders(byTie: byTie, primary: primary, maxPrimary: maxPrimary)
    }

    /// Each slot's order, by counting: the products in tie order, placed by their primary rank
    /// (the slots on every core).
    private static func orders(
        byTie: [Int32], primary: [[UInt32]], maxPrimary: [UInt32]
    )
        -> ([[Int32]], [[UInt32]])
    {
        let results = ResultSlots<([Int32], [UInt32])>(count: primary.count)
        DispatchQueue.concurrentPerform(iterations: primary.count) { slot in
            let ranks = primary[slot]
            let top = maxPrimary[slot]
            var starts = [UInt32](repeating: 0, count: Int(top) + 1)
            for rank in ranks { starts[Int(rank) + 1] += 1 }
            for rank in 0..<Int(top) { starts[rank + 1] += starts[rank] }
            var next = starts
            let order = [Int32](unsafeUninitializedCapacity: byTie.count) { order, initialized in
                for index in byTie {
                    let rank = Int(ranks[Int(index)])
                    order[Int(next[rank])] = index
                    next[rank] += 1
                }
                initialized = byTie.count
            }
            results.set(slot, (order, starts))
        }
        let values = results.values()
        return (values.map(\.0), values.map(\.1))
    }

    /// Number of primary rank arrays (`slot(of:)` numbers them).
    static var slotCount: Int { keys.count }

    /// What the ranks need of one chunk of consecutive books: each distinct text once with its
    /// collation key, and per book the text's number in the chunk and the numbers sorted by.
    struct Facts: Sendable {
        /// Index of the chunk's first book.
        let start: Int
        let collation: Collation
        /// Title, author's sort text, publisher.
        var texts = [TextColumn](repeating: TextColumn(), count: 3)
        /// Publication date as yyyymmdd, -1 for none.
        var dates: [Int32] = []
        var popularity: [Int] = []
        var ratings: [Double?] = []
        /// The product ids as numbers (seven digits, so they compare as the strings do).
        var ids: [Int32] = []
        /// The bytes of the author's sort text of the book being added.
        private var authorText: [UInt8] = []

        init(start: Int, count: Int, collation: Collation) {
            self.start = start
            self.collation = collation
            dates.reserveCapacity(count)
            popularity.reserveCapacity(count)
            ratings.reserveCapacity(count)
            ids.reserveCapacity(count)
        }

        mutating func add(_ product: borrowing Product) {
            texts[0].add(product.title, collation)
            // `ProductOrdering.authorSortText`, looked up without making the string.
            authorText.removeAll(keepingCapacity: true)
            if let author = ProductOrdering.sortAuthor(product.contributors) {
                authorText += author.lastName.utf8
                authorText.append(UInt8(ascii: " "))
                authorText += author.firstName.utf8
            }
            let author = authorText
            author.withUnsafeBytes { texts[1].add($0, collation) }
            texts[2].add(product.publisher, collation)
            dates.append(product.publishedDate.map { Int32($0.year * 10_000 + $0.month * 100 + $0.day) } ?? -1)
            popularity.append(product.popularity ?? -1)
            ratings.append(product.rating)
            guard product.id.utf8.count == 7, let id = Int32(product.id) else {
                preconditionFailure("product ids are seven digits")
            }
            ids.append(id)
        }
    }

    /// One text to sort by: its distinct values in one chunk, with their collation keys' bytes
    /// one after another (a million titles' keys as arrays were a million allocations, and
    /// sorting them a retain and a release per move); the texts themselves are dropped by
    /// `finish()`, once the chunk is done.
    struct TextColumn: Sendable {
        /// A text's bytes → its number.
        var numberOfText = ByteTable(capacity: 1_024)
        /// The keys' bytes; key `n` is `keyBytes[keyStarts[n]..<keyStarts[n + 1]]`.
        var keyBytes: [UInt8] = []
        var keyStarts: [Int] = [0]
        /// Per book, the number of its text (-1: none).
        var numbers: [Int32] = []

        /// Number of distinct texts.
        var count: Int { keyStarts.count - 1 }

        mutating func finish() { numberOfText = ByteTable(capacity: 0) }

        mutating func add(_ text: String?, _ collation: Collation) {
            guard let text else {
                numbers.append(-1)
                return
            }
            text.withBytes { add($0, collation) }
        }

        /// Adds a text given as its UTF-8 bytes.
        mutating func add(_ text: UnsafeRawBufferPointer, _ collation: Collation) {
            let probe = numberOfText.probe(text)
            if let number = probe.value {
                numbers.append(Int32(number))
                return
            }
            numberOfText.insert(text, count, at: probe)
            collation.appendKey(String(decoding: text, as: UTF8.self), to: &keyBytes)
            keyStarts.append(keyBytes.count)
            numbers.append(Int32(count - 1))
        }
    }

    /// Ranks the books of consecutive chunks; `adjusted` holds what the scenario guarantees
    /// changed after the facts were taken. `alongside` runs as one more of the jobs the cores
    /// share out (joining the index: one pool of jobs keeps both cores busy to the end).
    init(
        count: Int, facts: [Facts], adjusted: [Int: ProductTable.Adjustment] = [:],
        alongside: (@Sendable () -> Void)? = nil
    ) {
        precondition(UInt64(count) <= Self.rankMask, "catalogue too large for 24-bit ranks")
        func join<T>(_ column: (Facts) -> [T]) -> [T] { facts.flatMap(column) }
        var dates = join(\.dates)
        var popularity = join(\.popularity)
        for (index, adjustment) in adjusted {
            if let value = adjustment.popularity { popularity[index] = value }
            if let date = adjustment.publishedDate {
                dates[index] = Int32(date.year * 10_000 + date.month * 100 + date.day)
            }
        }
        let ratings = join(\.ratings)
        let ids = join(\.ids)
        // As numbers in their own jobs only (16 MB each at a million titles, at the peak).
        let (days, loans) = (dates, popularity)
        // The keys' ranks and the products in order of id do not depend on each other: on every
        // core (the title's ranks, sorting every distinct title's collation key, take longest).
        let ranked = ResultSlots<([UInt32], UInt32)>(count: Self.keys.count)
        let sortedIDs = ResultSlots<[UInt64]>(count: 1)
        enum Job: Sendable {
            case rank(Int)
            case ids, alongside
        }
        // Longest first: the titles' ranks, then what runs alongside.
        let jobs: [Job] =
            [.rank(Self.slot(of: .title))] + (alongside == nil ? [] : [.alongside]) + [.ids]
            + Self.keys.indices.filter { $0 != Self.slot(of: .title) }.map { .rank($0) }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { number in
            let slot: Int
            switch jobs[number] {
            case .alongside:
                alongside?()
                return
            case .ids:
                // Ties: title, then id, as ProductOrdering breaks them. Sorting integers: first the
                // ids (with the book's index in the low bits), then (title rank, id's rank).
                sortedIDs.set(
                    0,
                    Self.radixSorted(
                        (0..<count).map { UInt64(UInt32(bitPattern: ids[$0])) << Self.rankBits | UInt64($0) },
                        bits: 32 + Int(Self.rankBits)))
                return
            case .rank(let rank): slot = rank
            }
            let key = Self.keys[slot]
            switch key {
            case .title, .author, .publisher:
                let column = key == .title ? 0 : key == .author ? 1 : 2
                ranked.set(slot, Self.denseRanks(facts.map { $0.texts[column] }, count: count))
            case .date: ranked.set(slot, Self.denseRanks(days.map { $0 < 0 ? nil : Double($0) }))
            case .popularity, .relevance: ranked.set(slot, Self.denseRanks(loans.map { $0 < 0 ? nil : Double($0) }))
            case .rating: ranked.set(slot, Self.denseRanks(ratings))
            }
        }
        let primary = ranked.values().map(\.0)
        let maxPrimary = ranked.values().map(\.1)
        let titleRank = primary[Self.slot(of: .title)]
        let byID = sortedIDs.values()[0]
        var idRank = [UInt32](repeating: 0, count: count)
        for (rank, key) in byID.enumerated() { idRank[Int(key & Self.rankMask)] = UInt32(rank) }
        let byTitle = Self.radixSorted(
            (0..<count).map { UInt64(titleRank[$0]) << Self.rankBits | UInt64(idRank[$0]) },
            bits: 2 * Int(Self.rankBits))
        var tie = [UInt32](repeating: 0, count: count)
        var byTie = [Int32](repeating: 0, count: count)
        for (rank, key) in byTitle.enumerated() {
            let index = Int(byID[Int(key & Self.rankMask)] & Self.rankMask)
            tie[index] = UInt32(rank)
            byTie[rank] = Int32(index)
        }
        self.tie = tie
        self.byTie = byTie
        self.primary = primary
        self.maxPrimary = maxPrimary
        (orders, groupStarts) = Self.orders(byTie: byTie, primary: primary, maxPrimary: maxPrimary)
    }

    /// Dense ranks of texts by their collation keys (equal keys share a rank even when their
    /// texts differ, as "O'Connor" and "OConnor"; 0 for a missing text), and one more than the
    /// number of distinct keys.
    private static func denseRanks(_ columns: [TextColumn], count: Int) -> ([UInt32], UInt32) {
        // Key n of the catalogue is in chunk keyChunk[n] at keyStart[n] (its chunk's bytes are
        // read where they are: a million titles' keys are 80 MB, too many to copy at the peak).
        var keyChunk: [UInt8] = []
        var keyStart: [UInt32] = []
        var keyLength: [UInt32] = []
        var firstKey: [Int] = []
        precondition(columns.count <= 256, "at most 256 chunks")
        for (chunk, column) in columns.enumerated() {
            precondition(column.keyBytes.count < Int(UInt32.max), "a chunk's keys fit in 4 GB")
            firstKey.append(keyStart.count)
            keyChunk += repeatElement(UInt8(chunk), count: column.count)
            keyStart += column.keyStarts.dropLast().map { UInt32($0) }
            keyLength += zip(column.keyStarts, column.keyStarts.dropFirst()).map { UInt32($1 - $0) }
        }
        let keyCount = keyStart.count
        var order = (0..<Int32(keyCount)).map { $0 }
        var rankOfKey = [UInt32](repeating: 0, count: keyCount)
        var rank: UInt32 = 0
        withKeyBytes(columns[...]) { chunkBytes in
            /// memcmp of the common part, then the shorter first: `Collation.Key`'s order.
            func compare(_ a: Int32, _ b: Int32) -> Int {
                let (chunkA, chunkB) = (Int(keyChunk[Int(a)]), Int(keyChunk[Int(b)]))
                let (startA, startB) = (Int(keyStart[Int(a)]), Int(keyStart[Int(b)]))
                let (lengthA, lengthB) = (Int(keyLength[Int(a)]), Int(keyLength[Int(b)]))
                let common = min(lengthA, lengthB)
                if common > 0 {
                    let order = memcmp(
                        chunkBytes[chunkA].baseAddress! + startA, chunkBytes[chunkB].baseAddress! + startB, common)
                    if order != 0 { return Int(order) }
                }
                return lengthA - lengthB
            }
            order.sort { compare($0, $1) < 0 }
            for position in order.indices {
                if position == 0 || compare(order[position - 1], order[position]) != 0 { rank += 1 }
                rankOfKey[Int(order[position])] = rank
            }
        }
        var ranks: [UInt32] = []
        ranks.reserveCapacity(count)
        for (chunk, column) in columns.enumerated() {
            let first = firstKey[chunk]
            for number in column.numbers { ranks.append(number < 0 ? 0 : rankOfKey[first + Int(number)]) }
        }
        return (ranks, rank + 1)
    }

    /// Calls `body` with the key bytes of every column, in place.
    private static func withKeyBytes(
        _ columns: ArraySlice<TextColumn>, _ outer: [UnsafeBufferPointer<UInt8>] = [],
        _ body: ([UnsafeBufferPointer<UInt8>]) -> Void
    ) {
        guard let first = columns.first else { return body(outer) }
        first.keyBytes.withUnsafeBufferPointer { withKeyBytes(columns.dropFirst(), outer + [$0], body) }
    }

    /// `keys` in ascending order, each less than 2^`bits`: sorted 16 bits at a time by counting
    /// (a million keys in three passes, a fifth of the time of a comparison sort).
    static func radixSorted(_ keys: consuming [UInt64], bits: Int) -> [UInt64] {
        var source = keys
        var target = [UInt64](repeating: 0, count: source.count)
        var shift = 0
        while shift < bits {
            var starts = [Int](repeating: 0, count: (1 << 16) + 1)
            for key in source { starts[Int((key >> UInt64(shift)) & 0xFFFF) + 1] += 1 }
            for digit in 0..<(1 << 16) { starts[digit + 1] += starts[digit] }
            target.withUnsafeMutableBufferPointer { target in
                for key in source {
                    let digit = Int((key >> UInt64(shift)) & 0xFFFF)
                    target[starts[digit]] = key
                    starts[digit] += 1
                }
            }
            swap(&source, &target)
            shift += 16
        }
        return source
    }

    /// Dense ranks of numbers (0 for a missing one), and one more than the number of distinct values.
    private static func denseRanks(_ values: [Double?]) -> ([UInt32], UInt32) {
        // Dates (yyyymmdd), loans and ratings (tenths) are whole numbers of a step: ranked through
        // a table by value rather than a dictionary (a million look-ups of a hashed Double).
        for perUnit in [1.0, 10.0] {
            if let ranked = denseRanks(values, steps: perUnit) { return ranked }
        }
        let distinct = Array(Set(values.compactMap { $0 })).sorted()
        var rankOf: [Double: UInt32] = [:]
        rankOf.reserveCapacity(distinct.count)
        for (position, value) in distinct.enumerated() { rankOf[value] = UInt32(position + 1) }
        return (values.map { $0.map { rankOf[$0]! } ?? 0 }, UInt32(distinct.count + 1))
    }

    /// Dense ranks as `denseRanks(_:)`, when every value is exactly a whole number divided by
    /// `perUnit` (as the generator rounds ratings to tenths) and they span at most 2^24 steps;
    /// nil otherwise.
    private static func denseRanks(_ values: [Double?], steps perUnit: Double) -> ([UInt32], UInt32)? {
        var steps = [Int](repeating: 0, count: values.count)
        var (low, high) = (Int.max, Int.min)
        for (position, value) in values.enumerated() {
            guard let value else { continue }
            let scaled = (value * perUnit).rounded()
            guard abs(scaled) < 0x1p52, Double(Int(scaled)) / perUnit == value else { return nil }
            steps[position] = Int(scaled)
            (low, high) = (min(low, Int(scaled)), max(high, Int(scaled)))
        }
        guard low <= high else { return (values.map { _ in 0 }, 1) }
        guard high - low < 1 << 24 else { return nil }
        var rankOf = [UInt32](repeating: 0, count: high - low + 1)
        for (position, value) in values.enumerated() where value != nil { rankOf[steps[position] - low] = 1 }
        var distinct: UInt32 = 0
        for offset in rankOf.indices where rankOf[offset] != 0 {
            distinct += 1
            rankOf[offset] = distinct
        }
        let ranks = values.indices.map { values[$0] == nil ? 0 : rankOf[steps[$0] - low] }
        return (ranks, distinct + 1)
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

    /// For each hit, a key whose ascending order is the order `spec` asks for; `scores` are the
    /// hits' relevance scores. One pass with the rank arrays looked up once (a query like
    /// `language:en` has tens of thousands of hits, each needing its key).
    ///
    /// Relevance: higher score first, then more popular, then by title; ascending is the exact
    /// reverse (as `ProductOrdering` reverses the server's order).
    func keys(_ indices: [Int32], scores: [UInt16], _ spec: SortSpec) -> [UInt64] {
        let relevance = spec.key == .relevance
        let slot = Self.slot(of: relevance ? .popularity : spec.key)
        let top = UInt64(maxPrimary[slot])
        let descending = spec.order == .descending
        return primary[slot].withUnsafeBufferPointer { ranks in
            tie.withUnsafeBufferPointer { tie in
                indices.withUnsafeBufferPointer { indices in
                    scores.withUnsafeBufferPointer { scores in
                        [UInt64](unsafeUninitializedCapacity: indices.count) { keys, initialized in
                            for position in 0..<indices.count {
                                let i = Int(indices[position])
                                let rank = UInt64(ranks[i])
                                if relevance {
                                    let key =
                                        UInt64(UInt16.max - scores[position]) << (2 * Self.rankBits)
                                        | (top - rank) << Self.rankBits | UInt64(tie[i])
                                    keys[position] = descending ? key : ~key
                                } else {
                                    keys[position] = (descending ? top - rank : rank) << Self.rankBits | UInt64(tie[i])
                                }
                            }
                            initialized = indices.count
                        }
                    }
                }
            }
        }
    }

    /// The product index a key stands for.
    @inline(__always)
    func index(ofKey key: UInt64, _ spec: SortSpec) -> Int32 {
        let plain = spec.key == .relevance && spec.order == .ascending ? ~key : key
        return byTie[Int(plain & Self.rankMask)]
    }

    /// The first `count` hits in `spec`'s order, found by walking the precomputed order of the
    /// whole catalogue instead of sorting the hits: a query that hits a tenth of it fills a page
    /// of 20 after about 200 products, each looked up among the hits by binary search. Nil when
    /// the hits have too many different scores for a walk per score to pay (sort them instead).
    func first(_ count: Int, _ spec: SortSpec, hits: MatchCache.Hits) -> [Int32]? {
        let relevance = spec.key == .relevance
        let slot = Self.slot(of: relevance ? .popularity : spec.key)
        // Relevance is popularity's order within each score, most popular first when descending;
        // ascending is the exact reverse (ties by title reversed too).
        let groupsUp = spec.order == .ascending
        let withinUp = relevance ? spec.order == .descending : true
        guard relevance else {
            var found: [Int32] = []
            found.reserveCapacity(count)
            walk(slot, groupsUp: groupsUp, withinUp: withinUp) { index in
                if hits.isHit(index) { found.append(index) }
                return found.count < count
            }
            return found
        }
        // Scores in the page's order with their number of hits; the page takes whole scores
        // until the last it needs part of. A score with few hits is collected from the hits and
        // sorted; one with many is found by walking popularity's order (it is dense there).
        guard var totals = hits.scoreCounts else { return nil }
        totals.sort { spec.order == .descending ? $0.score > $1.score : $0.score < $1.score }
        var found: [Int32] = []
        for total in totals where found.count < count {
            let needed = count - found.count
            if total.count <= 2_048 || total.count * 64 < hits.indices.count {
                var members: [Int32] = []
                var scores: [UInt16] = []
                for (index, score) in zip(hits.indices, hits.scores) where score == total.score {
                    members.append(index)
                    scores.append(score)
                }
                let keys = self.keys(members, scores: scores, spec)
                found += SmallestKeys.select(keys, count: needed).map { index(ofKey: $0, spec) }
            } else {
                var taken = 0
                walk(slot, groupsUp: groupsUp, withinUp: withinUp) { index in
                    if hits.isHit(index), let position = hits.position(of: index),
                        hits.scores[position] == total.score
                    {
                        found.append(index)
                        taken += 1
                    }
                    return taken < needed
                }
            }
        }
        return found
    }

    /// Calls `visit` with the products of `slot`'s order: primary ranks upwards or downwards,
    /// each rank's products by tie rank upwards or downwards, until `visit` returns false.
    private func walk(_ slot: Int, groupsUp: Bool, withinUp: Bool, _ visit: (Int32) -> Bool) {
        let order = orders[slot]
        let starts = groupStarts[slot]
        if groupsUp == withinUp {
            if groupsUp {
                for index in order where !visit(index) { return }
            } else {
                for index in order.reversed() where !visit(index) { return }
            }
            return
        }
        let ranks = groupsUp ? Array(0..<(starts.count - 1)) : Array((0..<(starts.count - 1)).reversed())
        for rank in ranks {
            let group = Int(starts[rank])..<Int(starts[rank + 1])
            if withinUp {
                for position in group where !visit(order[position]) { return }
            } else {
                for position in group.reversed() where !visit(order[position]) { return }
            }
        }
    }
}
