/// A place in a book that survives a new width: spine item, character offset, and a snippet to re-anchor.
public struct Locator: Sendable, Hashable, Codable {
    /// The spine item, from 0.
    public var spineIndex: Int
    /// Characters into that item's text.
    public var offset: Int
    /// A few words at the place, to find it again if the book file changes.
    public var snippet: String

    /// Creates a locator.
    public init(spineIndex: Int, offset: Int, snippet: String = "") {
        self.spineIndex = spineIndex
        self.offset = offset
        self.snippet = snippet
    }
}
