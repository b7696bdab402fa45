/// A hash table from byte strings to integers, for the memos of building the index: a word is
/// looked up by the bytes it occupies in its text, so a look-up makes no `String` and allocates
/// nothing, and the hash is a few multiplications instead of `Hasher`'s SipHash.
///
/// Keys are copied into one array of bytes as they are inserted; entries are never removed.
struct ByteTable: Sendable {
    /// What an entry holds: where its key is in `keyBytes`, its hash and its value.
    private struct Entry {
        var start: UInt32
        var length: UInt32
        var hash: UInt64
        var value: Int
    }

    /// The keys' bytes, one after another.
    private var keyBytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Open addressing with linear probing: the high 32 bits of the key's hash and its entry's
    /// number + 1 (0 for an empty slot), so that a key not in the table seldom reads an entry
    /// (a title is new to the table most times); a power of two long, at most half full.
    private var slots: [UInt64]

    /// A table for about `capacity` keys before it grows.
    init(capacity: Int = 64) {
        var count = 16
        while count < 2 * capacity { count *= 2 }
        slots = [UInt64](repeating: 0, count: count)
    }

    /// Number of keys.
    var count: Int { entries.count }

    /// Where a key was looked for: its value if present, else where `insert` puts it.
    struct Probe {
        fileprivate let slot: Int
        fileprivate let hash: UInt64
        let value: Int?
    }

    /// Looks `key` up; insert it with the probe (before any other insertion) when its value is nil.
    @inline(__always)
    func probe(_ key: UnsafeRawBufferPointer) -> Probe {
        let hash = Self.hash(key)
        let (slot, entry) = find(key, hash)
        return Probe(slot: slot, hash: hash, value: entry.map { entries[$0].value })
    }

    /// The value of `key`, if it was inserted.
    func value(_ key: UnsafeRawBufferPointer) -> Int? { probe(key).value }

    /// Adds `key`, which `probe` did not find, with `value`.
    mutating func insert(_ key: UnsafeRawBufferPointer, _ value: Int, at probe: Probe) {
        precondition(probe.value == nil, "a key is inserted once")
        insert(key, probe.hash, value, at: probe.slot)
    }

    /// The slot of `key` (or the empty slot where it would go) and its entry's number, if present.
    @inline(__always)
    private func find(_ key: UnsafeRawBufferPointer, _ hash: UInt64) -> (slot: Int, entry: Int?) {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                keyBytes.withUnsafeBytes { bytes in
                    let mask = slots.count - 1
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    let tag = hash & 0xFFFF_FFFF_0000_0000
                    while true {
                        let value = slots[slot]
                        if value == 0 { return (slot, nil) }
                        let number = Int(truncatingIfNeeded: value & 0xFFFF_FFFF)
                        guard value & 0xFFFF_FFFF_0000_0000 == tag else {
                            slot = (slot + 1) & mask
                            continue
                        }
                        let entry = entries[number - 1]
                        if entry.hash == hash, Int(entry.length) == key.count,
                            key.isEmpty
                                || Self.equal(bytes.baseAddress! + Int(entry.start), key.baseAddress!, key.count)
                        {
                            return (slot, number - 1)
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    private mutating func insert(_ key: UnsafeRawBufferPointer, _ hash: UInt64, _ value: Int, at slot: Int) {
        precondition(
            keyBytes.count + key.count < Int(UInt32.max) && entries.count < Int(UInt32.max) - 1,
            "a memo's keys fit in 4 GB")
        entries.append(Entry(start: UInt32(keyBytes.count), length: UInt32(key.count), hash: hash, value: value))
        keyBytes.append(contentsOf: key)
        slots[slot] = Self.slotValue(hash, entries.count)
        if 2 * entries.count > slots.count { grow() }
    }

    /// Doubles the slots and places every entry again by its kept hash.
    private mutating func grow() {
        var slots = [UInt64](repeating: 0, count: 2 * self.slots.count)
        let mask = slots.count - 1
        for (number, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Self.slotValue(entry.hash, number + 1)
        }
        self.slots = slots
    }

    /// A slot's contents: the hash's high half and the entry's number + 1.
    private static func slotValue(_ hash: UInt64, _ numberPlusOne: Int) -> UInt64 {
        hash & 0xFFFF_FFFF_0000_0000 | UInt64(numberPlusOne)
    }

    /// Whether `count` bytes at `a` and `b` are the same: eight at a time, without calling
    /// `memcmp` (words are short).
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

    /// A hash of a few bytes: eight at a time, each step a multiply and a shift (SplitMix64's mixer).
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 &* UInt64(key.count &+ 1)
        var position = 0
        while position + 8 <= key.count {
            hash = mix(hash ^ key.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            position += 8
        }
        if position < key.count {
            var tail: UInt64 = 0
            for offset in 0..<(key.count - position) { tail |= UInt64(key[position + offset]) << (8 * offset) }
            hash = mix(hash ^ tail)
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
