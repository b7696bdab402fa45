import Foundation
import Synchronization

/// Fixed-layout books (`rendition:layout pre-paginated`: picture books, comics, scanned pages).
///
/// A fixed page is a picture: the screen shows it whole, fitted, one page a turn, or two side by
/// side (a spread) where the window is wide enough for both at the size one would have. Its words
/// (the page's text, else its picture's description) are popped out beside or under it, in the
/// terminal's own letters, as the ICDL children's library did for scanned picture books.
///
/// A fixed page without a picture, or one on a screen that cannot draw pictures, is shown as
/// text like any chapter.
extension ReaderSession {
    /// What a fixed page shows: its picture and its words.
    public struct FixedPage: Sendable {
        /// The page's spine index.
        public let spineIndex: Int
        /// Its largest picture: the page itself, not a decoration on it.
        public let picture: ImageReference
        /// Its words, a paragraph each: the page's text, else the picture's description.
        public let words: [String]
    }

    /// The fixed page a spine item shows, or nil when it flows as text (a reflowable chapter, a
    /// fixed page without a picture, a screen without pictures).
    public func fixedPage(_ spineIndex: Int) -> FixedPage? {
        guard drawsImages, preferences.showImages, book.isFixedLayout(spineIndex) else { return nil }
        if let known = fixedPages.pages.withLock({ $0[spineIndex] }) { return known }
        let page = Self.readFixedPage(spineIndex, content: content)
        fixedPages.pages.withLock { $0[spineIndex] = .some(page) }
        return page
    }

    private static func readFixedPage(_ spineIndex: Int, content: BookContent) -> FixedPage? {
        let document = content.document(at: spineIndex)
        var best: (picture: ImageReference, area: Int)?
        var words: [String] = []
        for block in document.blocks {
            switch block.kind {
            case .image(let picture):
                let size = picture.path.flatMap { content.imageSize(at: $0) }
                let area = size.map { $0.width * $0.height } ?? 0
                if area > best?.area ?? -1 { best = (picture, area) }
            case .horizontalRule:
                continue
            default:
                let text = block.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                guard !text.isEmpty else { continue }
                // A page made by a layout program sets each line apart (a `<div>` a line, placed
                // in pixels): a line that does not end a sentence goes on with the next.
                if let last = words.last?.last, !Self.endsSentence(last) {
                    words[words.count - 1] += " " + text
                } else {
                    words.append(text)
                }
            }
        }
        guard let best else { return nil }
        if words.isEmpty, !best.picture.alt.trimmingCharacters(in: .whitespaces).isEmpty {
            words = [best.picture.alt]
        }
        return FixedPage(spineIndex: spineIndex, picture: best.picture, words: words)
    }

    private static func endsSentence(_ character: Character) -> Bool {
        ".!?:;…\"”»’)]。！？".contains(character)
    }

    /// The fixed pages on screen, in reading order: one, or two side by side; empty when the
    /// screen shows text.
    public func fixedSpread() -> [FixedPage] {
        spread(containing: position.spineIndex).compactMap(fixedPage)
    }

    /// The spine indices shown together with `spineIndex`: itself alone, or a pair of fixed pages.
    func spread(containing spineIndex: Int) -> [Int] {
        guard fixedPage(spineIndex) != nil else { return [] }
        guard spreadsFit(spineIndex) else { return [spineIndex] }
        // Pair along the run of fixed pages that holds it, from the run's start.
        let order = book.readingOrder
        guard let here = order.firstIndex(of: spineIndex) else { return [spineIndex] }
        var start = here
        while start > 0, fixedPage(order[start - 1]) != nil { start -= 1 }
        var index = start
        while index < order.count {
            let first = order[index]
            let second = index + 1 < order.count ? order[index + 1] : nil
            let paired = second.map { pairs(first, $0, atBookStart: start == 0, positionInRun: index - start) }
            let unit = paired == true ? [first, second!] : [first]
            if unit.contains(spineIndex) { return unit }
            index += unit.count
        }
        return [spineIndex]
    }

    /// Whether two fixed pages in a row make a spread: by the sides the book gives them, else by
    /// their place in the run (a book's first page, its cover, alone; then pairs).
    private func pairs(_ first: Int, _ second: Int, atBookStart: Bool, positionInRun: Int) -> Bool {
        guard book.allowsSpreads, fixedPage(second) != nil else { return false }
        let leading: SpreadSide = book.pagesTurnRightToLeft ? .right : .left
        let trailing: SpreadSide = leading == .left ? .right : .left
        let sides = (book.spine[first].spreadSide, book.spine[second].spreadSide)
        if sides.0 == .center || sides.1 == .center { return false }
        if sides.0 == nil, sides.1 == nil {
            return atBookStart ? positionInRun % 2 == 1 : positionInRun % 2 == 0
        }
        return (sides.0 ?? leading) == leading && (sides.1 ?? trailing) == trailing
    }

    /// Whether two pages like this one fit side by side at the size one page alone would have:
    /// the window is wider than two pages fitted to its height (a cell is about twice as tall as
    /// wide).
    func spreadsFit(_ spineIndex: Int) -> Bool {
        guard let page = fixedPage(spineIndex), let path = page.picture.path,
            let size = content.imageSize(at: path), size.width > 0, size.height > 0
        else { return false }
        let fittedColumns = Double(rows * 2) * Double(size.width) / Double(size.height)
        return 2 * fittedColumns <= Double(columns)
    }

    /// The next or previous screen from a fixed page: the spread after or before this one, or
    /// the chapter of text beside the run.
    func fixedStep(forward: Bool) -> ViewPosition? {
        let unit = spread(containing: position.spineIndex)
        let order = book.readingOrder
        if forward {
            guard let last = unit.last, let next = order.first(where: { $0 > last }) else { return nil }
            return ViewPosition(spineIndex: next, line: 0)
        }
        guard let first = unit.first, let previous = order.last(where: { $0 < first }) else { return nil }
        if fixedPage(previous) != nil {
            return ViewPosition(spineIndex: spread(containing: previous).first ?? previous, line: 0)
        }
        let chapter = self.chapter(previous)
        var last = chapter.pageCount - 1
        if showsTwoPages { last -= last % 2 }
        return ViewPosition(spineIndex: previous, line: chapter.firstLine(ofPage: last))
    }
}

/// The fixed pages read so far, shared by a session's copies (a page is read once).
final class FixedPages: Sendable {
    let pages = Mutex<[Int: ReaderSession.FixedPage?]>([:])
}
