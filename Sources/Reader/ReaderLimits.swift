/// Caps on what opening a book may cost, so a hostile file (a zip bomb) cannot exhaust memory.
public struct ReaderLimits: Sendable, Hashable {
    /// The most bytes all entries of the archive may declare together once decompressed.
    public var maxTotalBytes: Int
    /// The most bytes one entry may decompress to.
    public var maxEntryBytes: Int
    /// The most entries the archive may list.
    public var maxEntries: Int

    /// Creates limits.
    public init(maxTotalBytes: Int = 512 << 20, maxEntryBytes: Int = 128 << 20, maxEntries: Int = 65_535) {
        self.maxTotalBytes = maxTotalBytes
        self.maxEntryBytes = maxEntryBytes
        self.maxEntries = maxEntries
    }

    /// The limits used unless the caller gives others: 512 MB in all, 128 MB per entry.
    public static let standard = ReaderLimits()
}
