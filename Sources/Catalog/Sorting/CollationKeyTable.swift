internal import Foundation

/// The collation keys of many texts in one byte buffer, for sorting.
///
/// A sort compares each key about 14 times (10 000 keys); in one buffer a comparison is a
/// `memcmp` with no reference counting. The first 8 bytes of each key (about four letters) are
/// also kept as an integer, which settles comparisons of keys that differ early without reading
/// the buffer.
struct CollationKeyTable {
    /// Numbers keys in the order they were added, from 0.
    typealias Index = Int32

    private var writer: Collation.KeyWriter
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes`; one more entry than there are keys, for the end.
    private var starts: [Int] = [0]
    /// The first 8 bytes of each key, big-endian, padded with zeros.
    private var prefixes: [UInt64] = []

    /// Creates an empty table for `collation`'s keys.
    init(_ collation: Collation, capacity: Int = 0) {
        writer = Collation.KeyWriter(collation)
        starts.reserveCapacity(capacity + 1)
        prefixes.reserveCapacity(capacity)
    }

    /// Adds `text` to the key being written; a key may be written from several texts, read as
    /// if they were one.
    mutating func add(_ text: String) { writer.add(text) }

    /// Ends the key being written (the key of an empty text if nothing was added) and returns its index.
    @discardableResult
    mutating func endKey() -> Index {
        writer.finish(appendingTo: &bytes)
        return appendEnd()
    }

    /// Adds an empty key, which sorts before every text's (even an empty text's), and returns its index.
    @discardableResult
    mutating func appendEmpty() -> Index { appendEnd() }

    /// Removes every key and keeps the storage, so that the table can be filled again.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        prefixes.removeAll(keepingCapacity: true)
    }

    private mutating func appendEnd() -> Index {
        let start = starts[starts.count - 1]
        var prefix: UInt64 = 0
        for offset in 0..<8 {
            prefix <<= 8
            if start + offset < bytes.count { prefix |= UInt64(bytes[start + offset]) }
        }
        prefixes.append(prefix)
        starts.append(bytes.count)
        return Index(prefixes.count - 1)
    }

    /// Compares two keys as `memcmp` does, a shorter key before a longer one it begins: negative,
    /// zero or positive.
    func compare(_ a: Index, _ b: Index) -> Int {
        let a = Int(a)
        let b = Int(b)
        if prefixes[a] != prefixes[b] { return prefixes[a] < prefixes[b] ? -1 : 1 }
        // Equal prefixes mean equal first bytes, up to 8 or the shorter key's end (padding is zero).
        let startA = starts[a]
        let startB = starts[b]
        let countA = starts[a + 1] - startA
        let countB = starts[b + 1] - startB
        let common = min(countA, countB)
        if common > 8 {
            let order = bytes.withUnsafeBufferPointer { base in
                memcmp(base.baseAddress! + startA + 8, base.baseAddress! + startB + 8, common - 8)
            }
            if order != 0 { return Int(order) }
        }
        return countA - countB
    }
}
