internal import Foundation
import Localization

/// A stretch of text on screen that can be highlighted: a paragraph, or the current search hit.
public struct HighlightTarget: Sendable, Hashable {
    /// The chapter.
    public var spineIndex: Int
    /// The offsets in its plain text.
    public var range: Range<Int>
    /// The text.
    public var text: String
    /// Whether this is the current search hit rather than a paragraph.
    public var isSearchHit: Bool
}

/// A link on screen.
public struct VisibleLink: Sendable, Hashable {
    /// The link's text.
    public var text: String
    /// Where it leads.
    public var destination: LinkDestination
    /// Whether it is a footnote reference.
    public var isNoteReference: Bool
}

extension ReaderSession {
    // MARK: - Bookmarks

    /// Bookmarks whose place is on screen.
    public var bookmarksOnScreen: [Bookmark] {
        let ranges = visibleRanges()
        return bookmarks.filter { mark in
            ranges.contains {
                $0.spineIndex == mark.locator.spineIndex
                    && ($0.range.contains(mark.locator.offset) || $0.range.lowerBound == mark.locator.offset)
            }
        }
    }

    /// Adds a bookmark at the top of the screen, or removes the one already on screen.
    ///
    /// - Returns: the new bookmark, or `nil` when one was removed.
    @discardableResult
    public mutating func toggleBookmark() -> Bookmark? {
        let store = store
        let id = bookID
        if let existing = bookmarksOnScreen.first {
            persist(tr("Could not save the bookmark.")) { try store.removeBookmark(id: existing.id, bookID: id) }
            bookmarks.removeAll { $0.id == existing.id }
            message = tr("Bookmark removed.")
            return nil
        }
        let locator = topLocator
        var added: Bookmark?
        persist(tr("Could not save the bookmark.")) { added = try store.addBookmark(locator, bookID: id) }
        guard let added else { return nil }
        bookmarks.append(added)
        bookmarks.sort { $0.locator < $1.locator }
        message = tr("Bookmark added.")
        return added
    }

    /// Goes to a bookmark (the back stack remembers where the reader was).
    public mutating func goTo(_ bookmark: Bookmark) {
        jump(to: bookmark.locator)
    }

    /// Removes a bookmark.
    public mutating func removeBookmark(_ bookmark: Bookmark) {
        let store = store
        let id = bookID
        persist(tr("Could not save the bookmark.")) { try store.removeBookmark(id: bookmark.id, bookID: id) }
        bookmarks.removeAll { $0.id == bookmark.id }
    }

    // MARK: - Highlights

    /// What on screen can be highlighted: the current search hit when it is on screen, then
    /// every paragraph with text on screen, in order.
    public func highlightTargets() -> [HighlightTarget] {
        var targets: [HighlightTarget] = []
        let ranges = visibleRanges()
        if let hit = currentHit,
            ranges.contains(where: { $0.spineIndex == hit.locator.spineIndex && $0.range.contains(hit.locator.offset) })
        {
            let range = hit.locator.offset..<(hit.locator.offset + hit.length)
            targets.append(
                HighlightTarget(
                    spineIndex: hit.locator.spineIndex, range: range,
                    text: text(spineIndex: hit.locator.spineIndex, range: range), isSearchHit: true))
        }
        for (spine, range) in ranges {
            let document = content.document(at: spine)
            for block in document.blocks
            where block.range.lowerBound < range.upperBound && block.range.upperBound > range.lowerBound {
                guard !block.range.isEmpty else { continue }
                if case .image = block.kind { continue }
                targets.append(
                    HighlightTarget(spineIndex: spine, range: block.range, text: block.text, isSearchHit: false))
            }
        }
        return targets
    }

    /// Highlights a stretch of text in a colour, with an optional note.
    @discardableResult
    public mutating func addHighlight(
        _ target: HighlightTarget, color: HighlightColor, note: String? = nil
    ) -> Highlight {
        let start = content.locator(spineIndex: target.spineIndex, offset: target.range.lowerBound)
        let end = Locator(spineIndex: target.spineIndex, offset: target.range.upperBound)
        let trimmedNote = note?.trimmingCharacters(in: .whitespacesAndNewlines)
        let highlight = Highlight(
            start: start, end: end, color: color,
            note: trimmedNote?.isEmpty == false ? trimmedNote : nil, text: target.text)
        saveHighlight(highlight)
        message =
            highlight.note == nil
            ? tr("Highlighted in {colour}.", ["colour": color.name])
            : tr("Highlighted in {colour}, with a note.", ["colour": color.name])
        return highlight
    }

    /// Saves a new or changed highlight.
    public mutating func saveHighlight(_ highlight: Highlight) {
        let store = store
        let id = bookID
        persist(tr("Could not save the highlight.")) { try store.saveHighlight(highlight, bookID: id) }
        highlights.removeAll { $0.id == highlight.id }
        highlights.append(highlight)
        highlights.sort { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    /// Removes a highlight.
    public mutating func removeHighlight(_ highlight: Highlight) {
        let store = store
        let id = bookID
        persist(tr("Could not save the highlight.")) { try store.removeHighlight(id: highlight.id, bookID: id) }
        highlights.removeAll { $0.id == highlight.id }
    }

    /// The highlight covering a target exactly, if there is one (choosing it again recolours it).
    public func highlight(covering target: HighlightTarget) -> Highlight? {
        highlights.first {
            $0.start.spineIndex == target.spineIndex && $0.start.offset == target.range.lowerBound
                && $0.end.spineIndex == target.spineIndex && $0.end.offset == target.range.upperBound
        }
    }

    func text(spineIndex: Int, range: Range<Int>) -> String {
        let text = content.plainText(at: spineIndex)
        let utf16 = text.utf16
        let lower = utf16.index(utf16.startIndex, offsetBy: max(0, min(range.lowerBound, utf16.count)))
        let upper = utf16.index(utf16.startIndex, offsetBy: max(0, min(range.upperBound, utf16.count)))
        return String(text[lower..<upper])
    }

    // MARK: - Links

    /// The links on screen, in order; a link broken over two lines is listed once.
    public func visibleLinks() -> [VisibleLink] {
        var links: [VisibleLink] = []
        var previous: LinkDestination?
        for visible in visiblePages().joined() {
            for run in visible.line.runs {
                guard let destination = run.link else {
                    if !run.text.allSatisfy(\.isWhitespace) { previous = nil }
                    continue
                }
                if destination == previous, !links.isEmpty {
                    links[links.count - 1].text +=
                        (links[links.count - 1].text.hasSuffix(" ") ? "" : " ")
                        + run.text.trimmingCharacters(in: .whitespaces)
                } else {
                    links.append(
                        VisibleLink(
                            text: run.text.trimmingCharacters(in: .whitespaces), destination: destination,
                            isNoteReference: run.style.contains(.noteReference)))
                }
                previous = destination
            }
        }
        return links
    }

    /// The text of the note a footnote reference points to, for showing it over the page: the
    /// block at the target and, when it is part of a note (`aside epub:type="footnote"`), the rest
    /// of that note up to the next anchored block. Nil when the target is not in the book.
    public func noteText(at target: LinkTarget) -> String? {
        guard let spine = book.spineIndex(forPath: target.path), let fragment = target.fragment else { return nil }
        let document = content.document(at: spine)
        guard let offset = document.offset(ofAnchor: fragment) else { return nil }
        let anchored = Set(document.anchors.values)
        var paragraphs: [String] = []
        var length = 0
        for block in document.blocks where block.range.upperBound > offset && !block.range.isEmpty {
            if !paragraphs.isEmpty, !block.isNote || anchored.contains(block.range.lowerBound) { break }
            paragraphs.append(block.text)
            length += block.text.count
            if !block.isNote || paragraphs.count >= 8 || length > 2_000 { break }
        }
        return paragraphs.isEmpty ? nil : paragraphs.joined(separator: "\n")
    }

    /// Follows a link inside the book (``goBack()`` returns); a link out of the book is not followed.
    ///
    /// - Returns: `false` when the link leads outside the book or nowhere in it.
    @discardableResult
    public mutating func follow(_ destination: LinkDestination) -> Bool {
        switch destination {
        case .external(let address):
            message = tr("{address} is outside the book; open it in a browser.", ["address": address])
            return false
        case .internal(let target):
            guard let spine = book.spineIndex(forPath: target.path) else {
                message = tr("That link leads to a part of the book that cannot be shown.")
                return false
            }
            var offset = 0
            if let fragment = target.fragment { offset = content.document(at: spine).offset(ofAnchor: fragment) ?? 0 }
            jump(to: content.locator(spineIndex: spine, offset: offset))
            message = tr("Followed the link; Backspace or u goes back.")
            return true
        }
    }
}
