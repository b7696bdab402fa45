internal import Synchronization

/// A ``PositionStore`` that keeps everything in memory: for tests, and for reading a file
/// outside the library until Shelf's database takes over.
public final class InMemoryPositionStore: PositionStore {
    private struct BookState {
        var position: Locator?
        var bookmarks: [Bookmark] = []
        var highlights: [Highlight] = []
        var settings: ReaderPreferences?
        var pace: [PaceSample] = []
        var words: [LookedUpWord] = []
    }

    private struct State {
        var books: [BookID: BookState] = [:]
        var defaults: ReaderPreferences?
        /// Every book's samples, in the order they came.
        var pace: [PaceSample] = []
        var savedPositions = 0
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    /// How many times a position was saved (tests check that page turns save).
    public var savedPositionCount: Int { state.withLock { $0.savedPositions } }

    public func adoptLegacy(_ legacy: BookID, as id: BookID) {
        state.withLock { state in
            guard legacy != id, state.books[id] == nil, let old = state.books.removeValue(forKey: legacy) else {
                return
            }
            state.books[id] = old
        }
    }

    public func loadPosition(bookID: BookID) -> Locator? {
        state.withLock { $0.books[bookID]?.position }
    }

    public func savePosition(_ locator: Locator, percent: Double, bookID: BookID) {
        state.withLock {
            $0.books[bookID, default: BookState()].position = locator
            $0.savedPositions += 1
        }
    }

    @discardableResult
    public func addBookmark(_ locator: Locator, bookID: BookID) -> Bookmark {
        let bookmark = Bookmark(locator: locator)
        state.withLock { state in
            var marks = state.books[bookID, default: BookState()].bookmarks
            marks.append(bookmark)
            marks.sort { $0.locator < $1.locator }
            state.books[bookID, default: BookState()].bookmarks = marks
        }
        return bookmark
    }

    public func bookmarks(bookID: BookID) -> [Bookmark] {
        state.withLock { $0.books[bookID]?.bookmarks ?? [] }
    }

    public func removeBookmark(id: AnnotationID, bookID: BookID) {
        state.withLock { $0.books[bookID]?.bookmarks.removeAll { $0.id == id } }
    }

    public func saveHighlight(_ highlight: Highlight, bookID: BookID) {
        state.withLock { state in
            var list = state.books[bookID, default: BookState()].highlights
            list.removeAll { $0.id == highlight.id }
            list.append(highlight)
            list.sort { ($0.start, $0.end) < ($1.start, $1.end) }
            state.books[bookID, default: BookState()].highlights = list
        }
    }

    public func highlights(bookID: BookID) -> [Highlight] {
        state.withLock { $0.books[bookID]?.highlights ?? [] }
    }

    public func removeHighlight(id: AnnotationID, bookID: BookID) {
        state.withLock { $0.books[bookID]?.highlights.removeAll { $0.id == id } }
    }

    public func settings(bookID: BookID) -> ReaderPreferences? {
        state.withLock { $0.books[bookID]?.settings }
    }

    public func saveSettings(_ settings: ReaderPreferences, bookID: BookID) {
        state.withLock { $0.books[bookID, default: BookState()].settings = settings }
    }

    public func defaultSettings() -> ReaderPreferences? {
        state.withLock { $0.defaults }
    }

    public func saveDefaultSettings(_ settings: ReaderPreferences) {
        state.withLock { $0.defaults = settings }
    }

    public func addPaceSample(_ sample: PaceSample, bookID: BookID) {
        state.withLock {
            $0.books[bookID, default: BookState()].pace.append(sample)
            $0.pace.append(sample)
        }
    }

    public func paceSamples(bookID: BookID?, limit: Int) -> [PaceSample] {
        state.withLock { state in
            let all = bookID.map { state.books[$0]?.pace ?? [] } ?? state.pace
            return Array(all.suffix(max(0, limit)))
        }
    }

    public func addLookedUpWord(_ word: LookedUpWord, bookID: BookID) {
        state.withLock { state in
            var words = state.books[bookID, default: BookState()].words
            if let known = words.firstIndex(where: { $0.word == word.word }) {
                words[known].merge(word)
            } else {
                words.append(word)
            }
            state.books[bookID, default: BookState()].words = words
        }
    }

    public func lookedUpWords(bookID: BookID) -> [LookedUpWord] {
        state.withLock { $0.books[bookID]?.words ?? [] }
    }
}
