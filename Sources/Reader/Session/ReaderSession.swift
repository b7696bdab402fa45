internal import Foundation
import Localization
internal import Speech

/// Where the view starts: a row of a chapter's layout. In paged flow the row is always the
/// first of a page; in scroll flow it can be any row.
public struct ViewPosition: Sendable, Hashable {
    /// The spine index of the chapter.
    public var spineIndex: Int
    /// The row in that chapter's layout.
    public var line: Int

    /// Creates a position.
    public init(spineIndex: Int, line: Int) {
        self.spineIndex = spineIndex
        self.line = line
    }
}

/// A laid-out row on screen, with the chapter it comes from.
public struct VisibleLine: Sendable, Hashable {
    /// The spine index of the row's chapter.
    public var spineIndex: Int
    /// The row.
    public var line: LayoutLine
}

/// The state of one reading session, without a terminal: where the reader is in the book, how
/// it is laid out, the search, bookmarks, highlights, links followed, and reading pace.
///
/// Every command the reading view offers is a method here, so the behaviour is tested without
/// a screen. The position is kept as a ``Locator`` (the anchor) that page turns move and that
/// a new width, margin or spacing does not: after a re-layout the view shows the page holding
/// the same sentence. Every page turn saves the position through the ``PositionStore``.
public struct ReaderSession {
    /// The book.
    public let book: EPUBBook
    /// Its id in the store.
    public let bookID: BookID
    /// Its converted chapters, shared by every layout.
    public let content: BookContent
    /// The book at the current settings and screen size.
    public internal(set) var layout: BookLayout
    /// The reader's settings.
    public internal(set) var preferences: ReaderPreferences
    /// Cells across the page area (both pages when two are shown).
    public internal(set) var columns: Int
    /// Rows of the page area (the status line not counted).
    public internal(set) var rows: Int
    /// The first row shown.
    public internal(set) var position: ViewPosition
    /// The place the view is kept on: a page turn moves it, a re-layout does not.
    public internal(set) var anchor: Locator
    /// Places to come back to after following a link or jumping, most recent last.
    public internal(set) var backStack: [Locator] = []
    /// The active search, if any.
    public internal(set) var search: SearchState?
    /// The book's bookmarks, in reading order.
    public internal(set) var bookmarks: [Bookmark] = []
    /// The book's highlights, in reading order.
    public internal(set) var highlights: [Highlight] = []
    /// A one-line message for the status line (what a command did, or what went wrong).
    public var message: String?
    /// Whether the screen can draw pictures, so the layout keeps rows for them.
    public let drawsImages: Bool
    /// Reading aloud, while it is on (`r`).
    var aloud: AloudPlayer?
    /// The sentence the voice was in when reading aloud said something (its voice, no sound
    /// device): the message gives way when the voice moves on, so it never covers what is read.
    var aloudMessageSentence: AloudPlayer.Spoken?
    /// When the loan of this book ends, on the ``now`` clock; reading aloud stops then.
    public var loanEnds: Double?
    /// A word's dictionary entry, from `:define`, for the view to show in a panel.
    public var definition: Definition?
    /// A dictionary's entry being read aloud (`r` in its panel).
    var lineSpeaker: LineSpeaker?
    /// Who reads aloud: speech-dispatcher when one runs, or eSpeak NG (`BOK_SPEECH`, `speech =`).
    var speechChoice = SpeechChoice(environment: ProcessInfo.processInfo.environment)
    /// Where `:define` asks (dictd on this computer, or `BOK_DICT_SERVER`).
    public var dictionary = WordLookup.fromEnvironment(ProcessInfo.processInfo.environment)
    /// Chapters whose malformed markup has been pointed out already.
    var malformedNoted: Set<Int> = []
    /// The next chapter being made ready, last asked for (``prepareNextChapter()``).
    var preparing: BackgroundResult<Void>?

    let store: any PositionStore
    let now: () -> Double
    /// Recent pace samples: this book's when it has enough, else all books'.
    var bookPace: [PaceSample] = []
    var globalPace: [PaceSample] = []
    /// When the current screen was first shown, for the pace.
    var shownAt: Double
    /// Table of contents with resolved locators, made on first use (shared by copies).
    let resolvedTOC = ResolvedContents()
    /// Whether a picture book's words are shown beside its pages (`w`).
    public var popsOutWords = true
    /// The fixed pages read so far (``fixedPage(_:)``).
    let fixedPages = FixedPages()

    /// The most places the back stack remembers.
    static let backStackLimit = 64

    /// Opens a session on a book at its saved position (or its start), with its saved settings.
    ///
    /// - Parameters:
    ///   - book: the opened book.
    ///   - store: where positions, annotations, settings and pace are kept.
    ///   - columns: cells across the page area.
    ///   - rows: rows of the page area, without the status line.
    ///   - bookID: the book's id; by default made from the book.
    ///   - drawsImages: whether the screen can draw pictures (else images show as labels).
    ///   - now: the clock, in seconds (tests pass their own).
    public init(
        book: EPUBBook, store: any PositionStore, columns: Int, rows: Int, bookID: BookID? = nil,
        drawsImages: Bool = false, now: @escaping () -> Double = ReaderSession.wallClock
    ) {
        self.book = book
        self.bookID = bookID ?? BookID.opening(book, in: store)
        self.store = store
        self.now = now
        self.drawsImages = drawsImages
        self.content = BookContent(book: book)
        self.columns = max(10, columns)
        self.rows = max(1, rows)
        let id = self.bookID
        var problems: [String] = []
        let saved = Self.attempt(&problems) { try store.settings(bookID: id) } ?? nil
        let defaults = Self.attempt(&problems) { try store.defaultSettings() } ?? nil
        var preferences = saved ?? defaults ?? ReaderPreferences()
        // A book that asks to be scrolled (rendition:flow) opens scrolling, until the reader sets it otherwise.
        if saved == nil, book.prefersScrolling { preferences.flow = .scroll }
        self.preferences = preferences
        self.layout = BookLayout(
            content: content,
            settings: Self.layoutSettings(
                self.preferences, columns: self.columns, rows: self.rows,
                drawsImages: drawsImages))
        let savedPosition = Self.attempt(&problems) { try store.loadPosition(bookID: id) } ?? nil
        let first = book.readingOrder.first ?? 0
        self.anchor = Locator(spineIndex: first, offset: 0)
        self.position = ViewPosition(spineIndex: first, line: 0)
        self.shownAt = now()
        bookmarks = Self.attempt(&problems) { try store.bookmarks(bookID: id) } ?? []
        highlights = Self.attempt(&problems) { try store.highlights(bookID: id) } ?? []
        bookPace = Self.attempt(&problems) { try store.paceSamples(bookID: id, limit: 50) } ?? []
        globalPace = Self.attempt(&problems) { try store.paceSamples(bookID: nil, limit: 50) } ?? []
        if let savedPosition {
            anchor = reanchored(savedPosition)
        }
        position = viewPosition(for: anchor)
        noteIfMalformed()
        if let problem = problems.first { message = problem }
    }

    /// Reads the book's bookmarks and highlights from the store again (another device's arrived
    /// through a sync while the book was open); a store that cannot be read leaves them as they are.
    public mutating func reloadAnnotations() {
        if let marks = try? store.bookmarks(bookID: bookID) { bookmarks = marks }
        if let marked = try? store.highlights(bookID: bookID) { highlights = marked }
    }

    /// Seconds by the system clock: the session's clock unless a test gives its own.
    public static func wallClock() -> Double { Date().timeIntervalSinceReferenceDate }

    /// The layout settings for preferences on a page area, with picture rows only where they can be drawn.
    static func layoutSettings(
        _ preferences: ReaderPreferences, columns: Int, rows: Int, drawsImages: Bool
    ) -> LayoutSettings {
        var settings = preferences.layoutSettings(columns: columns, rows: rows)
        settings.showImages = settings.showImages && drawsImages
        return settings
    }

    // MARK: - What is on screen

    /// Whether pages are shown two side by side now.
    public var showsTwoPages: Bool { preferences.showsTwoPages(columns: columns) }

    /// The layout of a whole chapter at the current settings.
    public func chapter(_ spineIndex: Int) -> ChapterLayout { layout.chapter(spineIndex) }

    /// The layout of a chapter at least as far as two pages past the page holding `line`: enough
    /// for the screen there and a turn forward, without laying out the rest of a long chapter.
    func chapter(_ spineIndex: Int, reachingLine line: Int) -> ChapterLayout {
        layout.chapter(spineIndex, reachingLine: line)
    }

    /// The rows on screen: one column of rows, or two for a two-page spread.
    public func visiblePages() -> [[VisibleLine]] {
        let spine = position.spineIndex
        let fixed = spread(containing: spine)
        if !fixed.isEmpty {
            // A fixed page is one screen, whatever the flow: its lines are all on it.
            return fixed.map { index in self.chapter(index).lines.map { VisibleLine(spineIndex: index, line: $0) } }
        }
        let chapter = chapter(spine, reachingLine: position.line)
        switch preferences.flow {
        case .paged:
            let page = chapter.page(atLine: position.line)
            let left = chapter.lines(onPage: page).map { VisibleLine(spineIndex: spine, line: $0) }
            guard showsTwoPages else { return [left] }
            let right =
                page + 1 < chapter.pageCount
                ? chapter.lines(onPage: page + 1).map { VisibleLine(spineIndex: spine, line: $0) } : []
            return [left, right]
        case .scroll:
            var result: [VisibleLine] = []
            var index = spine
            var line = position.line
            var layout = chapter
            while result.count < rows {
                if line >= layout.lines.count, !layout.isComplete { layout = self.chapter(index, reachingLine: line) }
                if line < layout.lines.count {
                    result.append(VisibleLine(spineIndex: index, line: layout.lines[line]))
                    line += 1
                } else {
                    guard let next = nextInReadingOrder(after: index) else { break }
                    index = next
                    layout = self.chapter(next, reachingLine: 0)
                    line = 0
                }
            }
            return [result]
        }
    }

    /// The locator of the first text on screen.
    public var topLocator: Locator {
        let lines = chapter(position.spineIndex, reachingLine: position.line).lines
        let offset = lines.indices.contains(position.line) ? lines[position.line].sourceRange.lowerBound : 0
        return content.locator(spineIndex: position.spineIndex, offset: offset)
    }

    /// The end of the text on screen: its chapter and the offset just past the last character.
    public var bottomLocator: Locator {
        let last = visiblePages().last(where: { !$0.isEmpty })?.last ?? visiblePages().first?.last
        guard let last else { return topLocator }
        return Locator(spineIndex: last.spineIndex, offset: last.line.sourceRange.upperBound)
    }

    /// The text ranges on screen, per chapter (usually one, two at a chapter's end in scroll flow).
    public func visibleRanges() -> [(spineIndex: Int, range: Range<Int>)] {
        var result: [(spineIndex: Int, range: Range<Int>)] = []
        for line in visiblePages().joined() {
            let range = line.line.sourceRange
            if let last = result.last, last.spineIndex == line.spineIndex {
                result[result.count - 1].range =
                    min(last.range.lowerBound, range.lowerBound)..<max(last.range.upperBound, range.upperBound)
            } else {
                result.append((line.spineIndex, range))
            }
        }
        return result
    }

    /// Characters of text on screen, for the pace.
    var visibleCharacterCount: Int {
        visiblePages().joined().reduce(0) { $0 + $1.line.sourceRange.count }
    }

    // MARK: - Moving

    /// Turns to the next page (or spread, or screen in scroll flow).
    ///
    /// - Returns: `false` at the end of the book.
    @discardableResult
    public mutating func nextPage() -> Bool {
        let target: ViewPosition?
        switch preferences.flow {
        case _ where fixedPage(position.spineIndex) != nil: target = fixedStep(forward: true)
        case .paged: target = pageStep(forward: true)
        case .scroll: target = scrolled(by: rows)
        }
        guard let target, target != position else {
            message = tr("End of the book.")
            return false
        }
        recordPace()
        move(to: target)
        return true
    }

    /// Turns to the previous page (or spread, or screen).
    ///
    /// - Returns: `false` at the start of the book.
    @discardableResult
    public mutating func previousPage() -> Bool {
        let target: ViewPosition?
        switch preferences.flow {
        case _ where fixedPage(position.spineIndex) != nil: target = fixedStep(forward: false)
        case .paged: target = pageStep(forward: false)
        case .scroll: target = scrolled(by: -rows)
        }
        guard let target, target != position else {
            message = tr("Start of the book.")
            return false
        }
        move(to: target)
        return true
    }

    /// Scrolls by a number of rows (negative: up); in paged flow, turns a page per screenful.
    @discardableResult
    public mutating func scroll(lines: Int) -> Bool {
        guard preferences.flow == .scroll, fixedPage(position.spineIndex) == nil else {
            return lines > 0 ? nextPage() : previousPage()
        }
        guard let target = scrolled(by: lines), target != position else { return false }
        if lines > 0 { recordPace() }
        move(to: target)
        return true
    }

    /// Goes to the first page of the book.
    public mutating func goToStart() {
        let first = book.readingOrder.first ?? 0
        jump(to: Locator(spineIndex: first, offset: 0))
    }

    /// Goes to the last page of the book.
    public mutating func goToEnd() {
        let last = book.readingOrder.last ?? 0
        let chapter = chapter(last)
        let target: ViewPosition
        switch preferences.flow {
        case .paged:
            var page = chapter.pageCount - 1
            if showsTwoPages { page -= page % 2 }
            target = ViewPosition(spineIndex: last, line: chapter.firstLine(ofPage: page))
        case .scroll:
            target = ViewPosition(spineIndex: last, line: max(0, chapter.lines.count - rows))
        }
        pushBack()
        move(to: target)
    }

    /// Goes to the start of the next chapter in reading order.
    @discardableResult
    public mutating func nextChapter() -> Bool {
        guard let next = nextInReadingOrder(after: position.spineIndex) else {
            message = tr("This is the last chapter.")
            return false
        }
        recordPace()
        move(to: ViewPosition(spineIndex: next, line: 0))
        return true
    }

    /// Goes to the start of this chapter, or of the previous one when already at the start.
    @discardableResult
    public mutating func previousChapter() -> Bool {
        if position.line > 0 {
            move(to: ViewPosition(spineIndex: position.spineIndex, line: 0))
            return true
        }
        guard let previous = book.readingOrder.last(where: { $0 < position.spineIndex }) else {
            message = tr("This is the first chapter.")
            return false
        }
        move(to: ViewPosition(spineIndex: previous, line: 0))
        return true
    }

    /// Goes to a locator, remembering where the reader was so ``goBack()`` returns there.
    public mutating func jump(to locator: Locator) {
        pushBack()
        show(locator)
    }

    /// Returns to where the reader was before the last jump or followed link.
    ///
    /// - Returns: `false` when there is nowhere to go back to.
    @discardableResult
    public mutating func goBack() -> Bool {
        guard let previous = backStack.popLast() else {
            message = tr("Nowhere to go back to.")
            return false
        }
        show(previous)
        return true
    }

    /// Shows the page holding a locator and keeps the view on it (without touching the back stack).
    mutating func show(_ locator: Locator) {
        let clamped = clamp(locator)
        position = viewPosition(for: clamped)
        anchor = clamped
        didMove()
    }

    /// Moves the view and anchors it at the new top.
    mutating func move(to target: ViewPosition) {
        position = target
        anchor = topLocator
        didMove()
    }

    mutating func pushBack() {
        if backStack.last != anchor { backStack.append(anchor) }
        if backStack.count > Self.backStackLimit { backStack.removeFirst(backStack.count - Self.backStackLimit) }
    }

    private mutating func didMove() {
        shownAt = now()
        savePosition()
        noteIfMalformed()
        prepareNextChapter()
    }

    /// On the last screens of a chapter, has the next one in reading order made ready in the
    /// background, so that turning into it is as quick as any turn.
    mutating func prepareNextChapter() {
        let spine = position.spineIndex
        let chapter = chapter(spine, reachingLine: position.line)
        guard chapter.isComplete, position.line + 3 * rows >= chapter.lines.count,
            let next = nextInReadingOrder(after: spine)
        else { return }
        if let work = layout.prepare(next) { preparing = work }
    }

    /// Says once per chapter when the chapter on screen is not well-formed XHTML.
    mutating func noteIfMalformed() {
        let spine = position.spineIndex
        guard !malformedNoted.contains(spine), !content.document(at: spine).isWellFormed else { return }
        malformedNoted.insert(spine)
        message = tr("This chapter is partly damaged; bok shows its text as far as it could be read.")
    }

    /// Saves the position (also called on exit).
    public mutating func savePosition() {
        let locator = anchor
        let percent = min(100, max(0, fractionRead * 100))
        let id = bookID
        let store = store
        persist(tr("Could not save your place in the book.")) {
            try store.savePosition(locator, percent: percent, bookID: id)
        }
    }

    /// The view position showing a locator at the current layout and flow.
    func viewPosition(for locator: Locator) -> ViewPosition {
        let spine = locator.spineIndex
        if let first = spread(containing: spine).first { return ViewPosition(spineIndex: first, line: 0) }
        let chapter = layout.chapter(spine, reachingOffset: locator.offset)
        switch preferences.flow {
        case .paged:
            var page = chapter.page(containing: locator.offset)
            if showsTwoPages { page -= page % 2 }
            return ViewPosition(spineIndex: spine, line: chapter.firstLine(ofPage: page))
        case .scroll:
            return ViewPosition(spineIndex: spine, line: chapter.line(containing: locator.offset))
        }
    }

    /// A locator moved inside the book: a spine index that exists, an offset inside its text.
    func clamp(_ locator: Locator) -> Locator {
        let count = book.spine.count
        let spine = max(0, min(locator.spineIndex, count - 1))
        let length = content.length(at: spine)
        return Locator(spineIndex: spine, offset: max(0, min(locator.offset, length)), snippet: locator.snippet)
    }

    /// A saved locator checked against the book's text: when the snippet no longer matches there
    /// (the file changed), the nearest place where it does.
    func reanchored(_ locator: Locator) -> Locator {
        let clamped = clamp(locator)
        guard let snippet = locator.snippet?.trimmed, snippet.count >= 8 else { return clamped }
        let here = content.locator(spineIndex: clamped.spineIndex, offset: clamped.offset).snippet ?? ""
        if here.hasPrefix(snippet) || snippet.hasPrefix(here) { return clamped }
        // Offsets are UTF-16 code units: look for the snippet's start among them.
        let text = Array(content.plainText(at: clamped.spineIndex).utf16)
        let needle = Array(snippet.prefix(24).utf16)
        guard let first = needle.first, text.count >= needle.count else { return clamped }
        var best: Int?
        for start in 0...(text.count - needle.count) where text[start] == first {
            guard text[start..<start + needle.count].elementsEqual(needle) else { continue }
            if best.map({ abs($0 - clamped.offset) > abs(start - clamped.offset) }) ?? true { best = start }
        }
        return best.map { Locator(spineIndex: clamped.spineIndex, offset: $0, snippet: locator.snippet) } ?? clamped
    }

    // MARK: - Steps

    func nextInReadingOrder(after spineIndex: Int) -> Int? {
        book.readingOrder.first(where: { $0 > spineIndex })
    }

    private func previousInReadingOrder(before spineIndex: Int) -> Int? {
        book.readingOrder.last(where: { $0 < spineIndex })
    }

    /// The next or previous page (two pages for a spread; a spread never spans two chapters).
    private func pageStep(forward: Bool) -> ViewPosition? {
        let spine = position.spineIndex
        let chapter = chapter(spine, reachingLine: position.line)
        let page = chapter.page(atLine: position.line)
        let step = showsTwoPages ? 2 : 1
        if forward {
            if page + step < chapter.pageCount {
                return ViewPosition(spineIndex: spine, line: chapter.firstLine(ofPage: page + step))
            }
            return nextInReadingOrder(after: spine).map { ViewPosition(spineIndex: $0, line: 0) }
        }
        if page > 0 {
            return ViewPosition(spineIndex: spine, line: chapter.firstLine(ofPage: max(0, page - step)))
        }
        guard let previous = previousInReadingOrder(before: spine) else { return nil }
        if let first = spread(containing: previous).first { return ViewPosition(spineIndex: first, line: 0) }
        let before = self.chapter(previous)
        var last = before.pageCount - 1
        if showsTwoPages { last -= last % 2 }
        return ViewPosition(spineIndex: previous, line: before.firstLine(ofPage: last))
    }

    /// The position `count` rows further on (or back, when negative), across chapters; the
    /// last chapter stops when its last row reaches the foot of the screen.
    private func scrolled(by count: Int) -> ViewPosition? {
        var spine = position.spineIndex
        var line = position.line
        var remaining = abs(count)
        if count > 0 {
            while remaining > 0 {
                // Laid out at least two screens past the target, unless the chapter ends sooner.
                let length = chapter(spine, reachingLine: line + remaining).lines.count
                if line + remaining < length {
                    line += remaining
                    remaining = 0
                } else if let next = nextInReadingOrder(after: spine) {
                    remaining -= length - line
                    spine = next
                    line = 0
                } else {
                    line = length - 1
                    remaining = 0
                }
            }
            // The last chapter's end is two screens past `line` at least, unless it is laid out whole.
            let last = chapter(spine, reachingLine: line)
            if nextInReadingOrder(after: spine) == nil, last.isComplete {
                let stop = max(0, last.lines.count - rows)
                if line > stop { line = spine == position.spineIndex ? max(position.line, stop) : stop }
            }
        } else {
            while remaining > 0 {
                if line - remaining >= 0 {
                    line -= remaining
                    remaining = 0
                } else if let previous = previousInReadingOrder(before: spine) {
                    remaining -= line + 1
                    spine = previous
                    line = chapter(previous).lines.count - 1
                } else {
                    line = 0
                    remaining = 0
                }
            }
        }
        return ViewPosition(spineIndex: spine, line: line)
    }

    // MARK: - Store

    /// Runs a store write; a failure becomes the status message (`failure`, which says what was
    /// not saved) rather than an error.
    mutating func persist(_ failure: @autoclosure () -> String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            message = failure()
        }
    }

    private static func attempt<T>(_ problems: inout [String], _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            problems.append(tr("Could not read what was saved for this book (place, bookmarks, settings)."))
            return nil
        }
    }
}
