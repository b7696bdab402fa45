import Localization
internal import Synchronization

/// The converted chapters of one book, cached so that a new layout or a search need not convert
/// them again, and safe to share with background tasks.
///
/// Whole documents are kept for the few chapters most recently used (they hold styled runs);
/// plain texts, which search needs for every chapter, are kept for all chapters once made.
public final class BookContent: Sendable {
    /// The book.
    public let book: EPUBBook
    /// How many converted documents to keep.
    public let cacheLimit: Int

    private struct State {
        var documents: [Int: ChapterDocument] = [:]
        var recent: [Int] = []
        var plainTexts: [Int: String] = [:]
        /// Their lengths in UTF-16 units, which the status line asks for on every frame.
        var lengths: [Int: Int] = [:]
        /// Every converted chapter's anchors (small), so the contents resolve without converting again.
        var anchors: [Int: [String: Int]] = [:]
        /// Pictures in each converted chapter, which count in progress as text does.
        var imageCounts: [Int: Int] = [:]
        var conversions = 0
        var linesLaidOut = 0
        var imageSizes: [String: (width: Int, height: Int)?] = [:]
    }

    private let state = Mutex(State())
    /// The element trees of the chapters whose places were last turned into CFIs (`+CFI`).
    let trees = Mutex<[(index: Int, tree: ContentTree)]>([])

    /// Wraps a book.
    public init(book: EPUBBook, cacheLimit: Int = 6) {
        self.book = book
        self.cacheLimit = max(1, cacheLimit)
    }

    /// The converted chapter at a spine index (converted now if it is not cached).
    public func document(at index: Int) -> ChapterDocument {
        document(at: index, keep: true)
    }

    /// The converted chapter at a spine index; with `keep` false a chapter converted now is not
    /// cached (its plain text, length and anchors are): the background page count and a cold
    /// search pass through every chapter, and keeping the last few they converted held chapters
    /// nobody was reading and pushed out the ones the reader had just read.
    func document(at index: Int, keep: Bool) -> ChapterDocument {
        if let cached = state.withLock({ state -> ChapterDocument? in
            guard let document = state.documents[index] else { return nil }
            if keep {
                state.recent.removeAll { $0 == index }
                state.recent.append(index)
            }
            return document
        }) {
            return cached
        }
        // Convert outside the lock so other chapters can be read meanwhile.
        var document = book.document(at: index)
        if index == book.readingOrder.first { document = Self.withCover(document, book: book) }
        state.withLock { state in
            state.plainTexts[index] = document.plainText
            state.lengths[index] = document.length
            state.anchors[index] = document.anchors
            state.imageCounts[index] = document.blocks.reduce(0) { count, block in
                if case .image = block.kind { return count + 1 }
                return count
            }
            state.conversions += 1
            guard keep else { return }
            state.documents[index] = document
            state.recent.removeAll { $0 == index }
            state.recent.append(index)
            while state.recent.count > cacheLimit {
                state.documents[state.recent.removeFirst()] = nil
            }
        }
        return document
    }

    /// The plain text of the chapter at a spine index.
    public func plainText(at index: Int) -> String {
        if let text = state.withLock({ $0.plainTexts[index] }) { return text }
        return document(at: index, keep: false).plainText
    }

    /// The pixel size of an image in the book, read from its header (and remembered).
    public func imageSize(at path: String) -> (width: Int, height: Int)? {
        if let known = state.withLock({ $0.imageSizes[path] }) { return known }
        let header =
            DataURL.isDataURL(path)
            ? DataURL.decode(path)?.bytes : (try? book.archive.prefix(at: path, maxBytes: 64 << 10))
        let size = header.flatMap(ImageSize.of)
        state.withLock { $0.imageSizes[path] = .some(size) }
        return size
    }

    /// The first chapter with the cover in front, when the book names a cover image that the
    /// chapter does not already show. An image block has no text, so offsets do not move.
    static func withCover(_ document: ChapterDocument, book: EPUBBook) -> ChapterDocument {
        guard let cover = book.coverImagePath, book.archive.contains(cover) else { return document }
        let shown = document.blocks.contains { block in
            if case .image(let image) = block.kind { return image.path == cover }
            return false
        }
        guard !shown else { return document }
        let block = Block(
            kind: .image(ImageReference(path: cover, alt: tr("Cover"))), runs: [], range: 0..<0,
            quoteDepth: 0, listDepth: 0, listMarker: nil, isNote: false, declaredDirection: nil, softHyphens: [])
        return ChapterDocument(
            path: document.path, title: document.title, blocks: [block] + document.blocks,
            plainText: document.plainText, anchors: document.anchors,
            prefersIndentedParagraphs: document.prefersIndentedParagraphs,
            language: document.language, isWellFormed: document.isWellFormed,
            languageSpans: document.languageSpans, length: document.length)
    }

    /// How much a picture weighs in progress, in characters of text: about half a minute of reading,
    /// so that a book of pictures (a comic, a picture book) moves on page by page.
    public static let imageWeight = 500

    /// A chapter's length for progress and time left (its text, plus ``imageWeight`` a picture),
    /// when it has been converted.
    public func knownProgressLength(at index: Int) -> Int? {
        state.withLock { state in
            state.lengths[index].map { $0 + Self.imageWeight * (state.imageCounts[index] ?? 0) }
        }
    }

    /// The anchors (element ids to offsets) of a chapter already converted, without converting it.
    public func knownAnchors(at index: Int) -> [String: Int]? {
        state.withLock { $0.anchors[index] }
    }

    /// How many chapters have been converted so far (a chapter dropped from the cache and needed
    /// again counts again): the work that scales with the book, which the first frame must not do.
    public var conversionCount: Int { state.withLock { $0.conversions } }

    /// How many converted documents are cached now.
    var cachedDocumentCount: Int { state.withLock { $0.documents.count } }

    /// How many lines every layout of this book has made so far, at any settings: with
    /// ``conversionCount``, the work a first frame does, which must not repeat a chapter's layout.
    public var linesLaidOut: Int { state.withLock { $0.linesLaidOut } }

    /// Counts lines laid out (``BookLayout`` calls it).
    func noteLaidOut(lines: Int) {
        state.withLock { $0.linesLaidOut += lines }
    }

    /// The plain text's length (UTF-16) of a chapter already converted, without converting it.
    public func knownLength(at index: Int) -> Int? {
        state.withLock { $0.lengths[index] }
    }

    /// Makes finding UTF-16 offsets in a converted chapter's text quick: the first such lookup
    /// in a long text walks all of it (3 ms for a 2 MB chapter, once), which a background task
    /// does here rather than the first page turn (a ``locator(spineIndex:offset:)``).
    func prepareOffsets(at index: Int) {
        guard let text = state.withLock({ $0.plainTexts[index] }) else { return }
        _ = text.utf16.index(text.utf16.startIndex, offsetBy: text.utf16.count / 2)
    }

    /// The plain text's length (UTF-16) of a chapter, converting it if need be.
    public func length(at index: Int) -> Int {
        if let length = knownLength(at: index) { return length }
        return document(at: index).length
    }

    /// The plain texts of every spine item, converting those not yet seen.
    public func allPlainTexts() -> [String] {
        book.spine.indices.map(plainText(at:))
    }

    /// A locator at an offset, with a snippet of the text there.
    public func locator(spineIndex: Int, offset: Int) -> Locator {
        let text = plainText(at: spineIndex)
        let clamped = max(0, min(offset, length(at: spineIndex)))
        let start = String.Index(utf16Offset: clamped, in: text)
        let snippet = String(text[start...].prefix(48).map { $0 == "\n" ? " " : $0 })
        return Locator(spineIndex: spineIndex, offset: clamped, snippet: snippet)
    }
}
