internal import Synchronization

/// A position store that is opened on a thread of its own while the book is read and laid out;
/// each call waits for it.
///
/// `bok read FILE` opens the shelf's database (and on a new account makes it) beside the book
/// instead of before it. When the store is known to hold nothing yet (its file did not exist),
/// reads answer at once with nothing until the first write, so a first start never waits for a
/// database to be made before its first page.
public final class OpeningPositionStore: PositionStore {
    private let opening: BackgroundResult<any PositionStore>
    /// Whether nothing has been written since a store that started empty was asked to open.
    private let empty: Mutex<Bool>

    /// Starts `open` at once on a new thread.
    /// - Parameter startsEmpty: whether the store `open` gives is known to hold nothing.
    public init(startsEmpty: Bool, open: @escaping @Sendable () -> any PositionStore) {
        empty = Mutex(startsEmpty)
        opening = BackgroundResult(open)
    }

    /// The store, once open.
    public var store: any PositionStore { opening.value }

    private func reading<Value>(_ nothing: Value, _ read: (any PositionStore) throws -> Value) rethrows -> Value {
        if empty.withLock({ $0 }) { return nothing }
        return try read(opening.value)
    }

    private func writing<Value>(_ write: (any PositionStore) throws -> Value) rethrows -> Value {
        let store = opening.value
        // Reads go to the store from here on, whether or not the write succeeds.
        empty.withLock { $0 = false }
        return try write(store)
    }

    public func loadPosition(bookID: BookID) throws -> Locator? {
        try reading(nil) { try $0.loadPosition(bookID: bookID) }
    }

    public func savePosition(_ locator: Locator, percent: Double, bookID: BookID) throws {
        try writing { try $0.savePosition(locator, percent: percent, bookID: bookID) }
    }

    @discardableResult
    public func addBookmark(_ locator: Locator, bookID: BookID) throws -> Bookmark {
        try writing { try $0.addBookmark(locator, bookID: bookID) }
    }

    public func bookmarks(bookID: BookID) throws -> [Bookmark] {
        try reading([]) { try $0.bookmarks(bookID: bookID) }
    }

    public func removeBookmark(id: AnnotationID, bookID: BookID) throws {
        try writing { try $0.removeBookmark(id: id, bookID: bookID) }
    }

    public func saveHighlight(_ highlight: Highlight, bookID: BookID) throws {
        try writing { try $0.saveHighlight(highlight, bookID: bookID) }
    }

    public func highlights(bookID: BookID) throws -> [Highlight] {
        try reading([]) { try $0.highlights(bookID: bookID) }
    }

    public func removeHighlight(id: AnnotationID, bookID: BookID) throws {
        try writing { try $0.removeHighlight(id: id, bookID: bookID) }
    }

    public func settings(bookID: BookID) throws -> ReaderPreferences? {
        try reading(nil) { try $0.settings(bookID: bookID) }
    }

    public func saveSettings(_ settings: ReaderPreferences, bookID: BookID) throws {
        try writing { try $0.saveSettings(settings, bookID: bookID) }
    }

    public func defaultSettings() throws -> ReaderPreferences? {
        try reading(nil) { try $0.defaultSettings() }
    }

    public func saveDefaultSettings(_ settings: ReaderPreferences) throws {
        try writing { try $0.saveDefaultSettings(settings) }
    }

    public func addPaceSample(_ sample: PaceSample, bookID: BookID) throws {
        try writing { try $0.addPaceSample(sample, bookID: bookID) }
    }

    public func paceSamples(bookID: BookID?, limit: Int) throws -> [PaceSample] {
        try reading([]) { try $0.paceSamples(bookID: bookID, limit: limit) }
    }

    public func addLookedUpWord(_ word: LookedUpWord, bookID: BookID) throws {
        try writing { try $0.addLookedUpWord(word, bookID: bookID) }
    }

    public func lookedUpWords(bookID: BookID) throws -> [LookedUpWord] {
        try reading([]) { try $0.lookedUpWords(bookID: bookID) }
    }

    public func adoptLegacy(_ legacy: BookID, as id: BookID) throws {
        // An empty store has nothing under the old id to move.
        try reading(()) { try $0.adoptLegacy(legacy, as: id) }
    }
}
