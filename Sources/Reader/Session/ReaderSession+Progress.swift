import Localization
import Synchronization

/// One line of the table of contents as the reading view lists it.
public struct TOCItem: Sendable, Hashable {
    /// The entry's title.
    public var title: String
    /// How deeply nested (0 for top level).
    public var depth: Int
    /// Where it leads, when it leads into the book.
    public var locator: Locator?
    /// The page in the whole book (from 1), once every chapter's pages have been counted.
    public var page: Int?
    /// Whether the reader is in this entry's part of the book now.
    public var isCurrent: Bool
    /// The fragment the entry links to, while its chapter is not converted and ``locator``
    /// points at the chapter's start.
    var unresolvedFragment: String?
}

extension ReaderSession {
    /// Characters a second the reader is assumed to read before there are samples (about 200 words a minute).
    public static let defaultCharactersPerSecond = 17.0

    // MARK: - Lengths

    /// A chapter's length in characters: exact once converted, else estimated from its file's
    /// size and the text-to-markup ratio of the chapters converted so far.
    public func chapterLength(_ spineIndex: Int) -> Int {
        if let known = content.knownLength(at: spineIndex) { return known }
        return Int(Double(book.byteSize(ofSpineItem: spineIndex)) * textRatio(known: readingOrderLengths().known))
    }

    /// The length of every chapter in reading order for progress (pictures counted, see
    /// ``BookContent/imageWeight``), exact or estimated, worked out in one pass (the status line
    /// asks on every frame).
    func readingOrderLengths() -> (lengths: [(spineIndex: Int, length: Int)], known: (text: Int, bytes: Int)) {
        var known: [Int?] = []
        var text = 0
        var bytes = 0
        for index in book.readingOrder {
            let length = content.knownProgressLength(at: index)
            known.append(length)
            if let length {
                text += length
                bytes += book.byteSize(ofSpineItem: index)
            }
        }
        let ratio = textRatio(known: (text, bytes))
        let lengths = zip(book.readingOrder, known).map { index, length in
            (index, length ?? Int(Double(book.byteSize(ofSpineItem: index)) * ratio))
        }
        return (lengths, (text, bytes))
    }

    private func textRatio(known: (text: Int, bytes: Int)) -> Double {
        known.bytes > 0 && known.text > 0 ? Double(known.text) / Double(known.bytes) : 0.5
    }

    // MARK: - Progress

    /// How far through the book the end of the screen is, from 0 to 1, by characters.
    public var fractionRead: Double {
        let end = bottomLocator
        var before = 0
        var total = 0
        for (index, length) in readingOrderLengths().lengths {
            if index < end.spineIndex { before += length }
            if index == end.spineIndex { before += min(length, end.offset + picturesSeen(upTo: end)) }
            total += length
        }
        guard total > 0 else { return 0 }
        if !end.spineIndex.isLinear(in: book) { return Double(before) / Double(total) }
        // The last screen of the book counts as all of it.
        if nextInReadingOrder(after: end.spineIndex) == nil, end.offset >= chapterLength(end.spineIndex) - 1 {
            return 1
        }
        return min(1, Double(before) / Double(total))
    }

    /// The progress weight of the pictures of `end`'s chapter up to and including `end`.
    private func picturesSeen(upTo end: Locator) -> Int {
        guard content.knownProgressLength(at: end.spineIndex) != content.knownLength(at: end.spineIndex) else {
            return 0
        }
        let seen = content.document(at: end.spineIndex).blocks.reduce(0) { count, block in
            if case .image = block.kind, block.range.lowerBound <= end.offset { return count + 1 }
            return count
        }
        return seen * BookContent.imageWeight
    }

    /// The page of the current chapter on screen and the chapter's page count (screens in scroll
    /// flow); in a spread, the left page. While a long chapter is laid out only in part, the count
    /// is estimated (`isEstimate`) from the share of its text laid out; the page is always exact.
    public var pageInChapter: (page: Int, count: Int, isEstimate: Bool) {
        let chapter = chapter(position.spineIndex, reachingLine: position.line)
        switch preferences.flow {
        case .paged:
            let page = chapter.page(atLine: position.line) + 1
            let known = chapter.isComplete || layout.knownPageCount(ofSpineItem: chapter.spineIndex) != nil
            return (page, max(page, layout.estimatedPageCount(of: chapter)), !known)
        case .scroll:
            let screen = position.line / max(1, rows) + 1
            if !chapter.isComplete, let lines = layout.knownLineCount(ofSpineItem: chapter.spineIndex) {
                let screens = max(1, (lines + rows - 1) / rows)
                return (min(screens, screen), screens, false)
            }
            guard chapter.isComplete else {
                let pages = layout.estimatedPageCount(of: chapter)
                let lines = chapter.lines.count * pages / max(1, chapter.pageCount)
                return (screen, max(screen + 1, (lines + rows - 1) / rows), true)
            }
            let screens = max(1, (chapter.lines.count + rows - 1) / rows)
            return (min(screens, screen), screens, false)
        }
    }

    /// Whether every chapter's pages are counted (the contents show page numbers, the status line
    /// the page in the book); until then the contents say they are being counted.
    public var pagesAreCounted: Bool {
        layout.pageNumber(of: PagePosition(spineIndex: book.readingOrder.first ?? 0, page: 0)) != nil
    }

    /// The page in the whole book and the total, once every chapter's pages are counted
    /// (see ``BookLayout/computePageCounts(shouldStop:)``).
    public var pageInBook: (page: Int, total: Int)? {
        let chapter = chapter(position.spineIndex, reachingLine: position.line)
        return layout.pageNumber(
            of: PagePosition(spineIndex: position.spineIndex, page: chapter.page(atLine: position.line)))
    }

    /// The title of the part of the book on screen: the last table-of-contents entry at or before
    /// the top of the screen, else the chapter's own heading.
    ///
    /// Asked on every frame, so it resolves no chapter's anchors but the one on screen: an entry
    /// in another chapter is before or after the top whatever its offset.
    public func currentChapterTitle(waitingForContents: Bool = true) -> String? {
        let top = topLocator
        // The chapter's own title until the contents are read, when not waiting for them.
        guard waitingForContents || book.navigationIsRead else { return content.document(at: top.spineIndex).title }
        let items = resolvedTableOfContents(converting: [top.spineIndex])
        let current = items.last { item in item.locator.map { $0 <= top } ?? false }
        if let current,
            current.locator?.spineIndex == top.spineIndex
                || !items.contains(where: { $0.locator?.spineIndex == top.spineIndex })
        {
            return current.entry.title
        }
        return content.document(at: top.spineIndex).title ?? current?.entry.title
    }

    // MARK: - Pace and time left

    /// The reader's pace in characters a second: the median of recent samples of this book
    /// (or of all books when this one has few), else ``defaultCharactersPerSecond``.
    public var charactersPerSecond: Double {
        let samples = bookPace.count >= 3 ? bookPace : globalPace
        guard samples.count >= 3 else { return Self.defaultCharactersPerSecond }
        let rates = samples.map(\.charactersPerSecond).sorted()
        return rates[rates.count / 2]
    }

    /// Estimated seconds left in this chapter and in the book, at the reader's own pace.
    public var timeLeft: (chapter: Double, book: Double) {
        let end = bottomLocator
        let inChapter = max(0, chapterLength(end.spineIndex) - end.offset)
        var rest = inChapter
        for (index, length) in readingOrderLengths().lengths where index > end.spineIndex { rest += length }
        let rate = charactersPerSecond
        return (Double(inChapter) / rate, Double(rest) / rate)
    }

    /// Records the time spent on the screen being left, when it looks like reading (not
    /// skimming past, not away from the keyboard).
    mutating func recordPace() {
        let seconds = now() - shownAt
        let characters = visibleCharacterCount
        guard characters >= 200, seconds >= 2, seconds <= 600 else { return }
        let sample = PaceSample(characters: characters, seconds: seconds)
        let rate = sample.charactersPerSecond
        guard rate >= 2, rate <= 100 else { return }
        bookPace.append(sample)
        globalPace.append(sample)
        if bookPace.count > 50 { bookPace.removeFirst() }
        if globalPace.count > 50 { globalPace.removeFirst() }
        let store = store
        let id = bookID
        persist(tr("Could not save your reading pace.")) { try store.addPaceSample(sample, bookID: id) }
    }

    // MARK: - Table of contents

    /// The table of contents with locators, anchors resolved as far as is known.
    ///
    /// An entry that links to a fragment (`ch7.xhtml#s3`) needs its chapter converted to find
    /// where the fragment is. Chapters already converted cost nothing; of the others only those in
    /// `converting` are converted now (nil: all of them), and the rest point at their chapter's
    /// start until their chapter is converted (by reading or by the background page count). The
    /// list is remembered once every entry is resolved.
    func resolvedTableOfContents(converting: Set<Int>? = nil) -> [(entry: TOCEntry, depth: Int, locator: Locator?)] {
        if let known = resolvedTOC.entries.withLock({ $0 }) { return known }
        var complete = true
        let resolved = book.tableOfContents.flatMap { $0.flattened() }.map {
            item -> (entry: TOCEntry, depth: Int, locator: Locator?) in
            guard let spine = item.entry.spineIndex else { return (item.entry, item.depth, nil) }
            var offset = 0
            if let fragment = item.entry.target?.fragment {
                if let anchors = content.knownAnchors(at: spine) {
                    offset = anchors[fragment] ?? 0
                } else if converting?.contains(spine) ?? true {
                    offset = content.document(at: spine).offset(ofAnchor: fragment) ?? 0
                } else {
                    complete = false
                }
            }
            return (item.entry, item.depth, Locator(spineIndex: spine, offset: offset, snippet: item.entry.title))
        }
        if complete { resolvedTOC.entries.withLock { $0 = resolved } }
        return resolved
    }

    /// Where a contents entry leads, converting its chapter now if its fragment is not yet resolved.
    public func locator(of item: TOCItem) -> Locator? {
        item.locator.map { locator(inChapter: ($0, item.unresolvedFragment)) }
    }

    /// The table of contents with page numbers (when counted) and the current entry marked.
    ///
    /// Entries in chapters not converted yet lead to their chapter (``locator(of:)`` finds the
    /// fragment when one is chosen), so opening the contents does not convert the whole book.
    public func tableOfContents() -> [TOCItem] {
        let top = topLocator
        let items = resolvedTableOfContents(converting: [top.spineIndex])
        let current = items.lastIndex { $0.locator.map { $0 <= top } ?? false }
        let counted = pagesAreCounted
        return items.enumerated().map { index, item in
            var page: Int?
            if counted, let locator = item.locator {
                let inChapter =
                    locator.offset == 0
                    ? 0
                    : layout.chapter(locator.spineIndex, reachingOffset: locator.offset)
                        .page(containing: locator.offset)
                page = layout.pageNumber(of: PagePosition(spineIndex: locator.spineIndex, page: inChapter))?.page
            }
            let unresolved = item.entry.target?.fragment.flatMap { fragment in
                item.locator.flatMap { content.knownAnchors(at: $0.spineIndex) } == nil ? fragment : nil
            }
            return TOCItem(
                title: item.entry.title, depth: item.depth, locator: item.locator, page: page,
                isCurrent: index == current,
                unresolvedFragment: unresolved)
        }
    }

    /// The top-level chapters `:goto chapter N` counts: the table of contents' top level (or
    /// the level under a single top entry that wraps the whole book), else the reading order.
    /// Each comes with the fragment it links to; ``locator(inChapter:)`` resolves the one chosen.
    func numberedChapters() -> [(locator: Locator, fragment: String?)] {
        let items = resolvedTableOfContents(converting: [])
        var level = items.filter { $0.depth == 0 }
        if level.count == 1, items.contains(where: { $0.depth == 1 }) { level = items.filter { $0.depth == 1 } }
        let chapters = level.compactMap { item in item.locator.map { ($0, item.entry.target?.fragment) } }
        return chapters.isEmpty ? book.readingOrder.map { (Locator(spineIndex: $0, offset: 0), nil) } : chapters
    }

    /// Where a numbered chapter starts, its fragment resolved (converting its chapter if need be).
    func locator(inChapter chapter: (locator: Locator, fragment: String?)) -> Locator {
        guard let fragment = chapter.fragment else { return chapter.locator }
        let anchors =
            content.knownAnchors(at: chapter.locator.spineIndex)
            ?? content.document(at: chapter.locator.spineIndex).anchors
        return Locator(
            spineIndex: chapter.locator.spineIndex, offset: anchors[fragment] ?? 0, snippet: chapter.locator.snippet)
    }
}

/// The table of contents with its anchors resolved to locators, worked out once per book.
final class ResolvedContents: Sendable {
    let entries = Mutex<[(entry: TOCEntry, depth: Int, locator: Locator?)]?>(nil)
}

extension Int {
    fileprivate func isLinear(in book: EPUBBook) -> Bool {
        book.spine.indices.contains(self) && book.spine[self].isLinear
    }
}
