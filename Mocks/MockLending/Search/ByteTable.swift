/// A hash table from byte strings to integers, for the memos of building the index: a word is
/// looked up by the bytes it occupies in its text, so a look-up makes no `String` and allocates
/// nothing, and the hash is a few multiplications instead of `Hasher`'s SipHash.
///
/// The entries are the slots themselves (open addressing, linear probing), each with its key's
/// hash and first 16 bytes, so that finding a short key reads one place in memory (the tables
/// of a chunk of a million titles do not fit in the cache; a look-up was three misses in a
/// row). Bytes past the sixteenth are kept in one array. Entries are never removed.
struct ByteTable: Sendable {
    private struct Entry {
        var hash: UInt64
        /// The key's first 16 bytes, zero-padded.
        var head: (UInt64, UInt64)
        /// Where the key's bytes past the sixteenth are in `tails`.
        var tailStart: UInt32
        /// The key's length; `Entry.empty` for an empty slot.
        var length: UInt32
        var value: Int

        static let empty = UInt32.max
    }

    /// A power of two long, at most half full.
    private var slots: [Entry]
    /// The keys' bytes past their sixteenth, one key after another.
    private var tails: [UInt8] = []
    /// Number of keys.
    private(set) var count = 0

    /// A table for about `capacity` keys before it grows.
    init(capacity: Int = 64) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Self.emptySlots(size)
    }

    private static func emptySlots(_ count: Int) -> [Entry] {
        [Entry](repeating: Entry(hash: 0, head: (0, 0), tailStart: 0, length: Entry.empty, value: 0), count: count)
    }

    /// Where a key was looked for: its value if present, else where `insert` puts it.
    struct Probe {
        fileprivate let slot: Int
        fileprivate let hash: UInt64
        fileprivate let head: (UInt64, UInt64)
        let value: Int?
    }

    /// Looks `key` up; insert it with the probe (before any other insertion) when its value is nil.
    @inline(__always)
    func probe(_ key: UnsafeRawBufferPointer) -> Probe {
        let head = (Self.word(key, at: 0), Self.word(key, at: 8))
        let hash = Self.hash(key, head: head)
        return slots.withUnsafeBufferPointer { slots in
            tails.withUnsafeBytes { tails in
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let entry = slots[slot]
                    if entry.length == Entry.empty { return Probe(slot: slot, hash: hash, head: head, value: nil) }
                    if entry.hash == hash, Int(entry.length) == key.count, entry.head == head,
                        key.count <= 16
                            || Self.equal(
                                tails.baseAddress! + Int(entry.tailStart), key.baseAddress! + 16, key.count - 16)
                    {
                        return Probe(slot: slot, hash: hash, head: head, value: entry.value)
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// The value of `key`, if it was inserted.
    func value(_ key: UnsafeRawBufferPointer) -> Int? { probe(key).value }

    /// Adds `key`, which `probe` did not find, with `value`.
    mutating func insert(_ key: UnsafeRawBufferPointer, _ value: Int, at probe: Probe) {
        precondition(probe.value == nil, "a key is inserted once")
        precondition(tails.count + key.count < Int(UInt32.max) && key.count < Int(Entry.empty), "keys fit in 4 GB")
        slots[probe.slot] = Entry(
            hash: probe.hash, head: probe.head, tailStart: UInt32(tails.count), length: UInt32(key.count), value: value)
        if key.count > 16 { tails.append(contentsOf: UnsafeRawBufferPointer(rebasing: key[16...])) }
        count += 1
        if 2 * count > slots.count { grow() }
    }

    /// Doubles the slots and places every entry again by its hash.
    private mutating func grow() {
        var slots = Self.emptySlots(2 * self.slots.count)
        let mask = slots.count - 1
        for entry in self.slots where entry.length != Entry.empty {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot].length != Entry.empty { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
        self.slots = slots
    }

    /// The eight bytes of `key` from `offset` (fewer at its end, zero-padded) as one number.
    @inline(__always)
    private static func word(_ key: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        if offset + 8 <= key.count { return key.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var word: UInt64 = 0
        var position = offset
        while position < key.count {
            word |= UInt64(key[position]) << (8 * (position - offset))
            position += 1
        }
        return word
    }

    /// Whether `count` bytes at `a` and `b` are the same: eight at a time, without calling `memcmp`.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        var position = 0
        while position + 8 <= count {
            if a.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            {
                return false
            }
            position += 8
        }
        while position < count {
            if a.load(fromByteOffset: position, as: UInt8.self) != b.load(fromByteOffset: position, as: UInt8.self) {
                return false
            }
            position += 1
        }
        return true
    }

    /// A hash of a key whose first 16 bytes are `head`: eight bytes at a time, each step
    /// SplitMix64's mixer (two multiplications).
    @inline(__always)
    private static func hash(_ key: UnsafeRawBufferPointer, head: (UInt64, UInt64)) -> UInt64 {
        var hash = mix(0x9E37_79B9_7F4A_7C15 &* UInt64(key.count &+ 1) ^ head.0)
        if key.count > 8 { hash = mix(hash ^ head.1) }
        var position = 16
        while position < key.count {
            hash = mix(hash ^ word(key, at: position))
            position += 8
        }
        return hash
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes where they are (a native string's always are),
    /// else with a contiguous copy; unlike `withUTF8`, without copying the string first.
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
