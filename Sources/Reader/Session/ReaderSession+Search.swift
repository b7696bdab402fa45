import Localization

/// A search in progress: its pattern, every hit in the book, and the one last jumped to.
public struct SearchState: Sendable, Hashable {
    /// The pattern as typed.
    public var pattern: String
    /// Every hit, in reading order.
    public var hits: [SearchHit]
    /// The index in `hits` of the current hit.
    public var current: Int
}

/// A stretch of text to paint on screen: a search hit or a highlight.
public struct TextMark: Sendable, Hashable {
    /// What the mark is.
    public enum Kind: Sendable, Hashable {
        /// A search hit; `current` for the one last jumped to.
        case searchHit(current: Bool)
        /// A highlight in its colour.
        case highlight(HighlightColor)
        /// The sentence being read aloud.
        case spoken
    }

    /// The chapter.
    public var spineIndex: Int
    /// The marked offsets of the chapter's plain text.
    public var range: Range<Int>
    /// What it is.
    public var kind: Kind
}

extension ReaderSession {
    /// Searches the whole book and goes to the first hit at or after the top of the screen
    /// (wrapping to the first hit of the book).
    ///
    /// - Parameters:
    ///   - pattern: a regular expression (ICU syntax); `(?-i)` in it makes it case-sensitive.
    ///   - caseSensitive: `false` (the default) ignores case.
    /// - Returns: the number of hits.
    /// - Throws: `ReaderError.invalidSearch` for a pattern that is not a valid expression.
    @discardableResult
    public mutating func search(_ pattern: String, caseSensitive: Bool = false) throws(ReaderError) -> Int {
        let hits: [SearchHit]
        do {
            hits = try content.search(pattern, caseSensitive: caseSensitive)
        } catch let error as ReaderError {
            throw error
        } catch {
            throw ReaderError(
                .invalidSearch, tr("The search could not be done; try plain words."), detail: "\(error)")
        }
        guard !hits.isEmpty else {
            search = nil
            message = tr("No matches for \"{pattern}\".", ["pattern": pattern])
            return 0
        }
        let top = topLocator
        let first = hits.firstIndex { $0.locator >= top } ?? 0
        search = SearchState(pattern: pattern, hits: hits, current: first)
        jump(to: hits[first].locator)
        message = hitMessage(wrapped: first == 0 && hits[0].locator < top)
        return hits.count
    }

    /// Goes to the next hit of the search, wrapping at the end of the book.
    ///
    /// - Returns: `false` when no search is active.
    @discardableResult
    public mutating func nextHit() -> Bool { stepHit(by: 1) }

    /// Goes to the previous hit of the search, wrapping at the start of the book.
    @discardableResult
    public mutating func previousHit() -> Bool { stepHit(by: -1) }

    /// Ends the search: its hits are no longer marked, and `n` turns chapters again.
    public mutating func clearSearch() {
        search = nil
    }

    /// The current search hit, if a search is active.
    public var currentHit: SearchHit? {
        search.map { $0.hits[$0.current] }
    }

    private mutating func stepHit(by step: Int) -> Bool {
        guard var state = search, !state.hits.isEmpty else { return false }
        let next = state.current + step
        let wrapped = next < 0 || next >= state.hits.count
        state.current = (next + state.hits.count) % state.hits.count
        search = state
        show(state.hits[state.current].locator)
        message = hitMessage(wrapped: wrapped)
        return true
    }

    /// `Match 2 of 9 for "ferry"`, with `(wrapped)` after going round the end of the book: what a
    /// step to a hit says (the screen-reader transcript adds the words around it).
    func hitMessage(wrapped: Bool) -> String {
        guard let search else { return "" }
        let count = search.hits.count
        let limit = count >= 2000 ? "+" : ""
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "current": search.current + 1, "count": String(count) + limit, "pattern": search.pattern,
        ]
        return wrapped
            ? tr("Match {current} of {count} for \"{pattern}\" (wrapped)", values)
            : tr("Match {current} of {count} for \"{pattern}\"", values)
    }

    /// The hits and highlights that fall on screen.
    public func visibleMarks() -> [TextMark] {
        var marks: [TextMark] = []
        for (spine, range) in visibleRanges() {
            for highlight in highlights {
                guard highlight.start.spineIndex <= spine, highlight.end.spineIndex >= spine else { continue }
                let lower = highlight.start.spineIndex == spine ? highlight.start.offset : 0
                let upper = highlight.end.spineIndex == spine ? highlight.end.offset : Int.max
                guard lower < range.upperBound, upper > range.lowerBound else { continue }
                marks.append(TextMark(spineIndex: spine, range: lower..<upper, kind: .highlight(highlight.color)))
            }
            if let search {
                // Hits are in reading order: skip to the first that can reach the screen.
                var index = search.hits.partitionPoint {
                    ($0.locator.spineIndex, $0.locator.offset + $0.length) <= (spine, range.lowerBound)
                }
                while index < search.hits.count {
                    let hit = search.hits[index]
                    guard hit.locator.spineIndex == spine, hit.locator.offset < range.upperBound else { break }
                    marks.append(
                        TextMark(
                            spineIndex: spine, range: hit.locator.offset..<(hit.locator.offset + hit.length),
                            kind: .searchHit(current: index == search.current)))
                    index += 1
                }
            }
            if let spoken = aloud?.spoken, spoken.spineIndex == spine, spoken.sentence.overlaps(range) {
                marks.append(TextMark(spineIndex: spine, range: spoken.sentence, kind: .spoken))
            }
        }
        return marks
    }
}

extension Array {
    /// The index of the first element for which `belongs` is false, where it is true for a prefix.
    func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
