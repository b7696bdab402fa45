internal import Synchronization

/// A page of the book at one layout: a spine item and a page within that chapter's layout.
public struct PagePosition: Sendable, Hashable, Codable {
    /// The spine index.
    public var spineIndex: Int
    /// The page within the chapter, from 0.
    public var page: Int

    /// Creates a position.
    public init(spineIndex: Int, page: Int) {
        self.spineIndex = spineIndex
        self.page = page
    }
}

/// The whole book paginated at one setting, lazily: a chapter is laid out only when a page of it
/// is asked for, so the first page appears without laying out the rest.
///
/// Page counts of other chapters (for "page 12 of 340") come from `computePageCounts`, which a
/// caller runs in the background; until then they are unknown, never guessed.
public final class BookLayout: Sendable {
    /// The book's converted chapters, shared between layouts.
    public let content: BookContent
    /// The layout settings.
    public let settings: LayoutSettings
    /// How many chapter layouts to keep.
    public let cacheLimit: Int

    private struct State {
        var layouts: [Int: ChapterLayout] = [:]
        var recent: [Int] = []
        var pageCounts: [Int: Int] = [:]
    }

    private let state = Mutex(State())

    /// Creates a layout of a book's content at these settings.
    public init(content: BookContent, settings: LayoutSettings, cacheLimit: Int = 4) {
        self.content = content
        self.settings = Self.resolved(settings, content: content)
        self.cacheLimit = max(2, cacheLimit)
    }

    /// Settings as a layout of this book keeps them: chapters that do not say their language are
    /// in the book's (for hyphenation).
    private static func resolved(_ settings: LayoutSettings, content: BookContent) -> LayoutSettings {
        var settings = settings
        if settings.language == nil { settings.language = content.book.metadata.language }
        return settings
    }

    /// Whether this layout is already at these settings, so laying the book out again would
    /// only repeat the work (`settings` alone differs from them in the language filled in).
    public func isLaidOut(at settings: LayoutSettings) -> Bool {
        self.settings == Self.resolved(settings, content: content)
    }

    /// The same book at other settings (a new width after a resize), sharing converted chapters.
    public func with(settings: LayoutSettings) -> BookLayout {
        BookLayout(content: content, settings: settings, cacheLimit: cacheLimit)
    }

    /// The reading order (spine indices of linear items).
    public var readingOrder: [Int] { content.book.readingOrder }

    /// The layout of one chapter, made now if it is not cached.
    public func chapter(_ spineIndex: Int) -> ChapterLayout {
        if let cached = state.withLock({ state -> ChapterLayout? in
            guard let layout = state.layouts[spineIndex] else { return nil }
            state.recent.removeAll { $0 == spineIndex }
            state.recent.append(spineIndex)
            return layout
        }) {
            return cached
        }
        let layout = ChapterLayout.make(
            content.document(at: spineIndex), spineIndex: spineIndex, settings: settings,
            imageSize: content.imageSize(at:))
        content.noteLaidOut(lines: layout.lines.count)
        state.withLock { state in
            state.layouts[spineIndex] = layout
            state.pageCounts[spineIndex] = layout.pageCount
            state.recent.removeAll { $0 == spineIndex }
            state.recent.append(spineIndex)
            while state.recent.count > cacheLimit { state.layouts[state.recent.removeFirst()] = nil }
        }
        return layout
    }

    /// The lines of a page.
    public func lines(at position: PagePosition) -> ArraySlice<LayoutLine> {
        chapter(position.spineIndex).lines(onPage: position.page)
    }

    /// The page that shows a locator.
    public func page(containing locator: Locator) -> PagePosition {
        let index = max(0, min(locator.spineIndex, content.book.spine.count - 1))
        return PagePosition(spineIndex: index, page: chapter(index).page(containing: locator.offset))
    }

    /// The locator at the start of a page: what to save so the position survives a new width.
    public func locator(atPageStart position: PagePosition) -> Locator {
        let offset = chapter(position.spineIndex).offset(atPageStart: position.page)
        return content.locator(spineIndex: position.spineIndex, offset: offset)
    }

    /// The next page in reading order, or `nil` at the end of the book.
    public func position(after position: PagePosition) -> PagePosition? {
        if position.page + 1 < chapter(position.spineIndex).pageCount {
            return PagePosition(spineIndex: position.spineIndex, page: position.page + 1)
        }
        guard let next = readingOrder.first(where: { $0 > position.spineIndex }) else { return nil }
        return PagePosition(spineIndex: next, page: 0)
    }

    /// The previous page in reading order, or `nil` at the start of the book.
    public func position(before position: PagePosition) -> PagePosition? {
        if position.page > 0 {
            return PagePosition(spineIndex: position.spineIndex, page: position.page - 1)
        }
        guard let previous = readingOrder.last(where: { $0 < position.spineIndex }) else { return nil }
        return PagePosition(spineIndex: previous, page: chapter(previous).pageCount - 1)
    }

    /// The first page of the next chapter in reading order.
    public func nextChapter(after position: PagePosition) -> PagePosition? {
        readingOrder.first(where: { $0 > position.spineIndex }).map { PagePosition(spineIndex: $0, page: 0) }
    }

    /// The first page of this chapter, or of the previous one when already at its start.
    public func previousChapter(before position: PagePosition) -> PagePosition? {
        if position.page > 0 { return PagePosition(spineIndex: position.spineIndex, page: 0) }
        return readingOrder.last(where: { $0 < position.spineIndex }).map { PagePosition(spineIndex: $0, page: 0) }
    }

    /// The page count of a chapter, when it has been laid out or counted.
    public func knownPageCount(ofSpineItem index: Int) -> Int? {
        state.withLock { $0.pageCounts[index] }
    }

    /// Lays out (and forgets) every chapter in reading order whose page count is unknown, so page
    /// numbers for the whole book can be shown. Meant for a background task; `shouldStop` is
    /// polled between chapters.
    public func computePageCounts(shouldStop: () -> Bool = { false }) {
        for index in readingOrder where knownPageCount(ofSpineItem: index) == nil {
            if shouldStop() { return }
            let layout = ChapterLayout.make(
                content.document(at: index), spineIndex: index, settings: settings,
                imageSize: content.imageSize(at:))
            content.noteLaidOut(lines: layout.lines.count)
            let count = layout.pageCount
            state.withLock { $0.pageCounts[index] = count }
        }
    }

    /// The page number in the whole book (from 1) and the total, once every chapter is counted.
    public func pageNumber(of position: PagePosition) -> (page: Int, total: Int)? {
        let counts = state.withLock { $0.pageCounts }
        var before = 0
        var total = 0
        for index in readingOrder {
            guard let count = counts[index] else { return nil }
            if index < position.spineIndex { before += count }
            total += count
        }
        return (before + position.page + 1, total)
    }
}
