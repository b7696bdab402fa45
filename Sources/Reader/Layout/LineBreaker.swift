/// Breaks one block's text into lines of at most a given number of cells.
///
/// Greedy, on grapheme clusters (so a cluster is never split and a wide character is never cut
/// in half), breaking at spaces, after dashes, between wide (CJK) characters, and at soft hyphens
/// (shown as `-` only when a line breaks there). With hyphenation on, a line that would be left
/// loose breaks the next word at a point its language's patterns allow (``Hyphenator``); a
/// language without patterns is not hyphenated. A word longer than the whole line is cut where
/// it must be. Between wide characters, the rules of Japanese line breaking (kinsoku shori, JIS X
/// 4051) hold: a line never starts with a closing bracket, a comma, a full stop, a small kana or
/// another character that belongs to the end of the one before, and never ends with an opening
/// bracket (``Kinsoku``).
struct LineBreaker {
    struct Cluster {
        /// Offset into the block's text, UTF-16.
        let offset: Int
        let length: Int
        /// Where the cluster starts in its run's text, in UTF-8 bytes: slicing a line's text by
        /// these is constant-time, where a UTF-16 offset into a text that is not ASCII makes Swift
        /// index the whole run first (a table it allocates for every paragraph laid out).
        let utf8Offset: Int
        let utf8Length: Int
        let width: Int
        let run: Int
        let isSpace: Bool
        let isNewline: Bool
        let isLetter: Bool
        let isDash: Bool
        /// Where a line may not break: before this cluster, after it (``Kinsoku``).
        var kinsoku = Kinsoku.none
    }

    /// One broken line: clusters `start..<end`, and whether it ends in a break hyphen.
    struct Line {
        let start: Int
        let end: Int
        let hyphen: Bool
        /// Whether the line may be justified (not the last line, not before a forced break).
        let stretchable: Bool
    }

    let clusters: [Cluster]
    private let prefixWidth: [Int]
    private let softHyphens: Set<Int>
    private let preformatted: Bool
    /// The block's language's patterns, when it is to be hyphenated, and its text to look words up in.
    private let hyphenator: Hyphenator?
    private let text: [UInt16]

    /// The text of clusters `start...last` (all of one run) of `text`, their run's text.
    func text(_ start: Int, through last: Int, in text: String) -> Substring {
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: clusters[start].utf8Offset)
        let upper = utf8.index(utf8.startIndex, offsetBy: clusters[last].utf8Offset + clusters[last].utf8Length)
        return text[lower..<upper]
    }

    init(runs: [TextRun], softHyphens: [Int], preformatted: Bool, hyphenator: Hyphenator? = nil) {
        var clusters: [Cluster] = []
        var offset = 0
        for (index, run) in runs.enumerated() {
            let utf8 = run.text.utf8
            if utf8.allSatisfy({ $0 < 0x80 }) {
                // ASCII: every byte is a cluster of width 1 (no grapheme breaking needed).
                clusters.reserveCapacity(clusters.count + utf8.count)
                for (position, byte) in utf8.enumerated() {
                    let isNewline = byte == 0x0A
                    let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
                    clusters.append(
                        Cluster(
                            offset: offset, length: 1, utf8Offset: position, utf8Length: 1,
                            width: byte >= 0x20 && byte < 0x7F ? 1 : 0, run: index,
                            isSpace: !preformatted && byte == 0x20, isNewline: isNewline, isLetter: isLetter,
                            isDash: byte == 0x2D || byte == 0x2F, kinsoku: Kinsoku(ascii: byte)))
                    offset += 1
                }
                continue
            }
            var position = 0
            for character in run.text {
                // Compare scalars, not Characters: Character equality is a string comparison.
                let first = character.unicodeScalars.first?.value ?? 0
                let length = character.utf16.count
                let bytes = character.utf8.count
                if first < 0x80, length == 1 {
                    let byte = UInt8(first)
                    clusters.append(
                        Cluster(
                            offset: offset, length: 1, utf8Offset: position, utf8Length: bytes,
                            width: byte >= 0x20 && byte < 0x7F ? 1 : 0, run: index,
                            isSpace: !preformatted && byte == 0x20, isNewline: byte == 0x0A,
                            isLetter: (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A,
                            isDash: byte == 0x2D || byte == 0x2F, kinsoku: Kinsoku(ascii: byte)))
                } else {
                    clusters.append(
                        Cluster(
                            offset: offset, length: length, utf8Offset: position, utf8Length: bytes,
                            width: CellWidth.of(character), run: index,
                            isSpace: false, isNewline: false, isLetter: character.isLetter,
                            isDash: first == 0x2010 || first == 0x2013 || first == 0x2014, kinsoku: Kinsoku(first)))
                }
                offset += length
                position += bytes
            }
        }
        var prefix = [0]
        prefix.reserveCapacity(clusters.count + 1)
        for cluster in clusters { prefix.append(prefix[prefix.count - 1] + cluster.width) }
        self.clusters = clusters
        self.prefixWidth = prefix
        self.softHyphens = Set(softHyphens)
        self.preformatted = preformatted
        self.hyphenator = preformatted ? nil : hyphenator
        text = self.hyphenator == nil ? [] : runs.flatMap { Array($0.text.utf16) }
    }

    /// Cells taken by clusters `start..<end`.
    func cells(_ start: Int, _ end: Int) -> Int { prefixWidth[end] - prefixWidth[start] }

    /// Breaks into lines; the first line gets `firstWidth` cells, the others `width`.
    func lines(firstWidth: Int, width: Int) -> [Line] {
        var lines: [Line] = []
        let count = clusters.count
        var start = skipSpaces(from: 0)
        var candidates: [(end: Int, next: Int, hyphen: Bool)] = []
        var index = start
        var available = max(1, firstWidth)
        func emit(_ end: Int, next: Int, hyphen: Bool, stretchable: Bool) {
            var trimmed = end
            while trimmed > start, clusters[trimmed - 1].isSpace { trimmed -= 1 }
            lines.append(Line(start: start, end: trimmed, hyphen: hyphen, stretchable: stretchable))
            start = skipSpaces(from: next)
            candidates.removeAll(keepingCapacity: true)
            index = start
            available = max(1, width)
        }
        while index < count {
            let cluster = clusters[index]
            if cluster.isNewline {
                emit(index, next: index + 1, hyphen: false, stretchable: false)
                continue
            }
            if cluster.isSpace {
                candidates.append((index, index + 1, false))
                index += 1
                continue
            }
            if index > start, !clusters[index - 1].isSpace {
                let previous = clusters[index - 1]
                if softHyphens.contains(cluster.offset) {
                    candidates.append((index, index, true))
                } else if previous.width == 2 || cluster.width == 2 {
                    if !cluster.kinsoku.contains(.notAtLineStart), !previous.kinsoku.contains(.notAtLineEnd) {
                        candidates.append((index, index, false))
                    }
                } else if previous.isDash, cluster.isLetter, index - 1 > start, clusters[index - 2].isLetter {
                    candidates.append((index, index, false))
                }
            }
            guard cells(start, index + 1) > available else {
                index += 1
                continue
            }
            // Over the line: break at the last opportunity that fits.
            var chosen: (end: Int, next: Int, hyphen: Bool)?
            for candidate in candidates.reversed() where candidate.end > start {
                var end = candidate.end
                while end > start, clusters[end - 1].isSpace { end -= 1 }
                if end > start, cells(start, end) + (candidate.hyphen ? 1 : 0) <= available {
                    chosen = candidate
                    break
                }
            }
            if hyphenator != nil {
                let used = chosen.map { cells(start, trimmedEnd($0.end)) + ($0.hyphen ? 1 : 0) } ?? 0
                if available - used >= max(3, available / 6),
                    let split = patternHyphenation(
                        lineStart: start, overflowAt: index, after: chosen?.next ?? start, available: available)
                {
                    chosen = (split, split, true)
                }
            }
            if let chosen {
                emit(chosen.end, next: chosen.next, hyphen: chosen.hyphen, stretchable: true)
            } else {
                // A word longer than the line (or wide text with no break the rules allow): cut it,
                // at least one cluster per line, rather before a character that may start a line.
                var end = max(index, start + 1)
                while end - 1 > start, end < count,
                    clusters[end].kinsoku.contains(.notAtLineStart) || clusters[end - 1].kinsoku.contains(.notAtLineEnd)
                {
                    end -= 1
                }
                emit(end, next: end, hyphen: false, stretchable: false)
            }
        }
        if start < count || lines.isEmpty {
            lines.append(Line(start: start, end: max(start, trimmedEnd(count)), hyphen: false, stretchable: false))
        }
        return lines
    }

    private func trimmedEnd(_ end: Int) -> Int {
        var end = end
        while end > 0, clusters[end - 1].isSpace { end -= 1 }
        return end
    }

    private func skipSpaces(from index: Int) -> Int {
        var index = index
        while index < clusters.count, clusters[index].isSpace { index += 1 }
        return index
    }

    /// The break in the word that overflowed that its language's patterns allow and that fills
    /// the line best; nil when there is none (or no patterns).
    private func patternHyphenation(lineStart: Int, overflowAt index: Int, after wordStart: Int, available: Int) -> Int?
    {
        guard let hyphenator else { return nil }
        var start = index
        while start > max(lineStart, wordStart), !clusters[start - 1].isSpace { start -= 1 }
        // The word's letters, without the quotes, brackets and punctuation around them.
        while start < clusters.count, !clusters[start].isLetter, !clusters[start].isSpace { start += 1 }
        var end = start
        while end < clusters.count, clusters[end].isLetter { end += 1 }
        guard end - start >= Hyphenator.minimumBefore + Hyphenator.minimumAfter, end > index else { return nil }
        let first = clusters[start].offset
        let last = clusters[end - 1].offset + clusters[end - 1].length
        let word = String(decoding: text[first..<last], as: UTF16.self)
        var split: Int?
        var cluster = start
        for offset in hyphenator.breaks(in: word) {
            // The cluster the break comes before (offsets are UTF-16 units into the word).
            while cluster < end, clusters[cluster].offset < first + offset { cluster += 1 }
            guard cluster < end, clusters[cluster].offset == first + offset, cluster <= index else { continue }
            if cells(lineStart, cluster) + 1 <= available { split = cluster }
        }
        return split
    }
}
