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
/// A long chapter is laid out only as far as the pages asked for (``chapter(_:reachingLine:)``),
/// and further on demand; ``chapter(_:)`` lays it out to its end. Page counts of other chapters
/// (for "page 12 of 340") come from `computePageCounts`, which a caller runs in the background
/// and which counts without keeping lines; until then they are unknown, never guessed (the
/// status line estimates the current chapter's from ``estimatedPageCount(of:)``).
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
        /// Rows of each chapter counted (for screens in scroll flow).
        var lineCounts: [Int: Int] = [:]
        /// Chapters being made ready on a thread of their own (``prepare(_:)``).
        var preparing: Set<Int> = []
    }

    private let state = Mutex(State())
    /// Chapters laid out only in part, to go on from where they stopped. Laying out more holds
    /// this lock (never while holding `state`'s).
    private let growing = Mutex<[Int: ChapterLayout.Growing]>([:])

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

    /// The layout of one whole chapter, made now (or finished) if it is not cached.
    public func chapter(_ spineIndex: Int) -> ChapterLayout {
        chapter(spineIndex, until: { _ in false }, first: { $0.extend(toLines: .max) })
    }

    /// Converts a chapter and lays out its first pages on a thread of its own, unless that is
    /// done or under way: the next chapter while the reader is on the last pages of this one, so
    /// that the turn into it does not wait for that (1–3 ms for a novel's chapter).
    ///
    /// - Returns: the work under way, for whoever must know it is done (tests); nil when nothing
    ///   was left to do.
    @discardableResult
    public func prepare(_ spineIndex: Int) -> BackgroundResult<Void>? {
        let start = state.withLock { state -> Bool in
            guard state.layouts[spineIndex] == nil, !state.preparing.contains(spineIndex) else { return false }
            state.preparing.insert(spineIndex)
            return true
        }
        guard start else { return nil }
        return BackgroundResult { [self] in
            _ = chapter(spineIndex, reachingLine: 0)
            state.withLock { _ = $0.preparing.remove(spineIndex) }
        }
    }

    /// The layout of a chapter at least as far as two pages past the page holding `line`
    /// (maybe the whole chapter): what a page turn forward from there needs, without laying out
    /// the rest of a long chapter.
    public func chapter(_ spineIndex: Int, reachingLine line: Int) -> ChapterLayout {
        let rows = max(1, settings.rows)
        return chapter(
            spineIndex,
            until: { layout in
                layout.lines.count > line + 2 * rows && layout.page(atLine: line) + 2 < layout.pageCount
            },
            // Four screens past the page: a turn lays out two more every other page, a few tenths
            // of a millisecond (ten screens at a time took up to 2 ms on a 2 MB chapter).
            first: { chapter in
                guard chapter.isLong else { return chapter.extend(toLines: .max) }
                chapter.extend(toLines: line + 4 * rows)
            })
    }

    /// The layout of a chapter at least as far as two pages past the page holding a plain-text
    /// offset (maybe the whole chapter).
    public func chapter(_ spineIndex: Int, reachingOffset offset: Int) -> ChapterLayout {
        let rows = max(1, settings.rows)
        return chapter(
            spineIndex,
            until: { layout in
                guard layout.pageCount > 2, layout.offset(atPageStart: layout.pageCount - 1) > offset else {
                    return false
                }
                let page = layout.page(containing: offset)
                return page + 2 < layout.pageCount && layout.lines.count > layout.firstLine(ofPage: page) + 2 * rows
            },
            first: { chapter in
                guard chapter.isLong else { return chapter.extend(toLines: .max) }
                chapter.extend(pastOffset: offset)
                chapter.extend(toLines: chapter.lineCount + 4 * rows)
            })
    }

    /// The cached layout of a chapter when it is whole or `enough` says its first part will do;
    /// else the chapter laid out further from where it stopped: `first`, then a few screens at a
    /// time until it is enough.
    private func chapter(
        _ spineIndex: Int, until enough: (ChapterLayout) -> Bool, first: (inout ChapterLayout.Growing) -> Void
    ) -> ChapterLayout {
        if let cached = state.withLock({ state -> ChapterLayout? in
            guard let layout = state.layouts[spineIndex], layout.isComplete || enough(layout) else { return nil }
            state.recent.removeAll { $0 == spineIndex }
            state.recent.append(spineIndex)
            return layout
        }) {
            return cached
        }
        // The cached first part shares its lines with the chapter still growing: let it go, so
        // that laying out more does not copy them.
        state.withLock { _ = $0.layouts.removeValue(forKey: spineIndex) }
        let layout = growing.withLock { growing -> ChapterLayout in
            var chapter =
                growing.removeValue(forKey: spineIndex)
                ?? ChapterLayout.Growing(
                    content.document(at: spineIndex), spineIndex: spineIndex, settings: settings,
                    imageSize: { [content] in content.imageSize(at: $0) })
            let before = chapter.lineCount
            first(&chapter)
            var layout = chapter.layout()
            while !layout.isComplete && !enough(layout) {
                chapter.extend(toLines: chapter.lineCount + 4 * max(1, settings.rows))
                layout = chapter.layout()
            }
            content.noteLaidOut(lines: chapter.lineCount - before)
            if !chapter.isComplete { growing[spineIndex] = chapter }
            return layout
        }
        store(layout)
        return layout
    }

    /// Keeps a chapter's layout (and its page count once whole), forgetting the least recently
    /// used beyond ``cacheLimit``, and the unfinished layouts of those.
    private func store(_ layout: ChapterLayout) {
        let spineIndex = layout.spineIndex
        let forgotten = state.withLock { state -> [Int] in
            state.layouts[spineIndex] = layout
            if layout.isComplete {
                state.pageCounts[spineIndex] = layout.pageCount
                state.lineCounts[spineIndex] = layout.lines.count
            }
            state.recent.removeAll { $0 == spineIndex }
            state.recent.append(spineIndex)
            var forgotten: [Int] = []
            while state.recent.count > cacheLimit {
                let old = state.recent.removeFirst()
                state.layouts[old] = nil
                forgotten.append(old)
            }
            return forgotten
        }
        if !forgotten.isEmpty { growing.withLock { for index in forgotten { $0[index] = nil } } }
    }

    /// An estimate of a chapter's page count while only its first part is laid out, from the
    /// share of its text laid out; at least one page more than laid out, as there is more.
    public func estimatedPageCount(of layout: ChapterLayout) -> Int {
        guard !layout.isComplete else { return layout.pageCount }
        if let known = knownPageCount(ofSpineItem: layout.spineIndex) { return known }
        let length = content.knownLength(at: layout.spineIndex) ?? 0
        let laidOut = layout.offset(atPageStart: layout.pageCount - 1)
        let estimate =
            laidOut > 0 ? Int((Double(layout.pageCount) * Double(length) / Double(laidOut)).rounded(.up)) : 0
        return max(layout.pageCount + 1, estimate)
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

    /// The number of rows of a chapter, when it has been laid out or counted.
    func knownLineCount(ofSpineItem index: Int) -> Int? {
        state.withLock { $0.lineCounts[index] }
    }

    /// The page count of a chapter, when it has been laid out or counted.
    public func knownPageCount(ofSpineItem index: Int) -> Int? {
        state.withLock { $0.pageCounts[index] }
    }

    /// Counts the pages of every chapter in reading order whose page count is unknown, so page
    /// numbers for the whole book can be shown. Lines are made and forgotten at once (only their
    /// kinds are kept to cut pages), so a long chapter's lines stay laid out only as far as the
    /// reader has gone. Meant for a background task; `shouldStop` is polled between chapters.
    public func computePageCounts(shouldStop: () -> Bool = { false }) {
        for index in state.withLock({ $0.recent }) { content.prepareOffsets(at: index) }
        for index in readingOrder where knownPageCount(ofSpineItem: index) == nil {
            if shouldStop() { return }
            // A chapter laid out in part is counted from where it stopped, on a copy.
            let counting =
                growing.withLock { $0[index] }
                ?? ChapterLayout.Growing(
                    content.document(at: index, keep: false), spineIndex: index, settings: settings,
                    imageSize: { [content] in content.imageSize(at: $0) })
            let count = counting.pageCount()
            content.noteLaidOut(lines: count.linesMade)
            state.withLock { state in
                state.pageCounts[index] = count.pages
                state.lineCounts[index] = count.lines
            }
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
