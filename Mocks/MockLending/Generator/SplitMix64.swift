/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea & Flood 2014).
///
/// The catalogue must be the same for the same seed on every machine and every run, so the
/// generator never touches the system RNG. SplitMix64 passes BigCrush, needs one `UInt64` of
/// state and is cheap enough to draw dozens of numbers per book for 200 000 books.
struct SplitMix64: RandomNumberGenerator, Sendable, Codable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for an independent stream derived from this seed, e.g. one per book.
    ///
    /// Deriving per-book streams keeps a book's text stable when another part of the generator
    /// draws a different number of values.
    static func stream(_ seed: UInt64, _ salt: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (salt &* 0xD6E8_FEB8_6659_FD93))
        return SplitMix64(seed: mixer.next())
    }

    /// A uniform integer in `0..<bound` (bound > 0); Lemire's multiply-shift, bias negligible here.
    mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// A uniform double in `[0, 1)`.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An element chosen with a skew towards the start of the array (index ~ n·u²), for "some are common".
    mutating func pickSkewed<T>(_ items: [T]) -> T {
        let u = unit()
        return items[min(items.count - 1, Int(u * u * Double(items.count)))]
    }
}
