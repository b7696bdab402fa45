/// Where the reader keeps what a patron leaves in a book: the reading position, bookmarks,
/// highlights and notes, settings, and reading pace.
///
/// Shelf implements this over its SQLite database; ``InMemoryPositionStore`` serves tests and
/// `bok read FILE` until then. Every call is synchronous and short (one row or a few), so the
/// reading view can call it on each page turn. Writes may throw (a full disk, a locked
/// database); the reader shows the message and goes on reading.
public protocol PositionStore: Sendable {
    /// The position saved for a book, or `nil` when it has never been opened.
    func loadPosition(bookID: BookID) throws -> Locator?
    /// Saves the position in a book, replacing the previous one, with how much of it is read (0–100).
    func savePosition(_ locator: Locator, percent: Double, bookID: BookID) throws

    /// Adds a bookmark at a locator and returns it.
    @discardableResult
    func addBookmark(_ locator: Locator, bookID: BookID) throws -> Bookmark
    /// The book's bookmarks, in reading order.
    func bookmarks(bookID: BookID) throws -> [Bookmark]
    /// Removes a bookmark; removing one that is not there does nothing.
    func removeBookmark(id: AnnotationID, bookID: BookID) throws

    /// Adds a highlight, or replaces the one with the same id (a changed colour or note).
    func saveHighlight(_ highlight: Highlight, bookID: BookID) throws
    /// The book's highlights, in reading order.
    func highlights(bookID: BookID) throws -> [Highlight]
    /// Removes a highlight; removing one that is not there does nothing.
    func removeHighlight(id: AnnotationID, bookID: BookID) throws

    /// The settings chosen for a book, or `nil` to use ``defaultSettings()``.
    func settings(bookID: BookID) throws -> ReaderPreferences?
    /// Saves the settings for a book.
    func saveSettings(_ settings: ReaderPreferences, bookID: BookID) throws
    /// The settings a book opens with when it has none of its own, or `nil` for the built-in ones.
    func defaultSettings() throws -> ReaderPreferences?
    /// Saves the settings new books open with.
    func saveDefaultSettings(_ settings: ReaderPreferences) throws

    /// Records how fast the patron read a stretch of text, for time-left estimates.
    func addPaceSample(_ sample: PaceSample, bookID: BookID) throws
    /// Recent pace samples, newest last: of one book, or of every book when `bookID` is `nil`.
    func paceSamples(bookID: BookID?, limit: Int) throws -> [PaceSample]

    /// Keeps a word looked up in a book: a word looked up again counts once more, with its newest
    /// meaning and place.
    func addLookedUpWord(_ word: LookedUpWord, bookID: BookID) throws
    /// The words looked up in a book, in the order first looked up.
    func lookedUpWords(bookID: BookID) throws -> [LookedUpWord]

    /// Moves what is kept under `legacy` (a book's id from before ids had a fingerprint) to `id`,
    /// when `id` has nothing of its own yet; otherwise does nothing. See ``BookID/opening(_:in:)``.
    func adoptLegacy(_ legacy: BookID, as id: BookID) throws
}
