/// A reading position that survives a change of width: a spine item and an offset into its text.
///
/// Pages are only a view at one width; a locator names the character the view starts at, plus
/// a short snippet of the text there so the position can be found again if the book file changes.
/// Two locators are equal when they name the same place; the snippet is not compared.
public struct Locator: Sendable, Hashable, Codable {
    /// Index into the book's spine.
    public var spineIndex: Int
    /// Offset into that spine item's plain text, in UTF-16 code units.
    public var offset: Int
    /// A few words of text at the position, for re-anchoring and for lists of bookmarks.
    public var snippet: String?

    /// Creates a locator.
    public init(spineIndex: Int, offset: Int, snippet: String? = nil) {
        self.spineIndex = spineIndex
        self.offset = offset
        self.snippet = snippet
    }
}

extension Locator: Comparable {
    public static func == (lhs: Locator, rhs: Locator) -> Bool {
        lhs.spineIndex == rhs.spineIndex && lhs.offset == rhs.offset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(spineIndex)
        hasher.combine(offset)
    }

    /// Reading order: by spine index, then offset (the snippet does not count).
    public static func < (lhs: Locator, rhs: Locator) -> Bool {
        (lhs.spineIndex, lhs.offset) < (rhs.spineIndex, rhs.offset)
    }
}
