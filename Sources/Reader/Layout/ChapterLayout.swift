/// One chapter laid out at one width and cut into pages.
///
/// Every line carries the range of the chapter's plain text it shows, so a locator maps to a
/// page exactly and back. Chapters are laid out one at a time: nothing here needs another
/// chapter.
///
/// A layout can also be the first part of a chapter (``isComplete`` false): the lines of blocks
/// 0…k do not depend on later blocks, and a page start is final once the page after it has
/// started, so the pages it has are the pages a full layout has. Only its end is not the
/// chapter's end: ``pageCount`` and `lines.count` count what is laid out so far.
public struct ChapterLayout: Sendable {
    /// The spine index of the chapter.
    public let spineIndex: Int
    /// The settings it was laid out with.
    public let settings: LayoutSettings
    /// All lines laid out, in order (all of the chapter's when ``isComplete``).
    public let lines: [LayoutLine]
    /// The index in `lines` where each page starts.
    public let pageStarts: [Int]
    /// Whether the whole chapter is laid out; else only its first pages are.
    public let isComplete: Bool
    /// Where the last page ends: `lines.count` when complete, else where the next page starts.
    let endOfPages: Int

    init(spineIndex: Int, settings: LayoutSettings, lines: [LayoutLine], pageStarts: [Int]) {
        self.spineIndex = spineIndex
        self.settings = settings
        self.lines = lines
        self.pageStarts = pageStarts
        self.isComplete = true
        self.endOfPages = lines.count
    }

    /// The first part of a chapter: every page but the last laid-out one, which may still grow.
    init(spineIndex: Int, settings: LayoutSettings, partialLines lines: [LayoutLine]) {
        var starts = Self.paginate(lines, rows: max(1, settings.rows))
        let next = starts.count > 1 ? starts.removeLast() : 0
        self.spineIndex = spineIndex
        self.settings = settings
        self.lines = lines
        self.pageStarts = next == 0 ? [] : starts
        self.isComplete = false
        self.endOfPages = next
    }

    /// The number of pages (at least one, even for an empty chapter); of a chapter not laid out
    /// to its end, the pages laid out so far (maybe none).
    public var pageCount: Int { pageStarts.count }

    /// The lines of one page.
    public func lines(onPage page: Int) -> ArraySlice<LayoutLine> {
        guard pageStarts.indices.contains(page) else { return [] }
        let start = pageStarts[page]
        let end = page + 1 < pageStarts.count ? pageStarts[page + 1] : endOfPages
        return lines[start..<min(end, start + settings.rows, lines.count)]
    }

    /// The plain-text offset where a page starts (a page past the end counts as the last page).
    public func offset(atPageStart page: Int) -> Int {
        let page = max(0, min(page, pageStarts.count - 1))
        guard pageStarts.indices.contains(page), pageStarts[page] < lines.count else { return 0 }
        return lines[pageStarts[page]].sourceRange.lowerBound
    }

    /// The page showing a plain-text offset: the first page starting exactly there, else the last
    /// page starting before it.
    public func page(containing offset: Int) -> Int {
        var low = 0
        var high = pageStarts.count - 1
        var found = 0
        while low <= high {
            let middle = (low + high) / 2
            if self.offset(atPageStart: middle) < offset {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        // `low` is the first page starting at or after `offset`.
        if low < pageStarts.count, self.offset(atPageStart: low) == offset { return low }
        return found
    }

    /// Lays out a chapter.
    ///
    /// - Parameter imageSize: the pixel size of an image by its path, when `settings.showImages`
    ///   asks for rows to draw pictures in.
    public static func make(
        _ document: ChapterDocument, spineIndex: Int, settings: LayoutSettings,
        imageSize: (@Sendable (String) -> (width: Int, height: Int)?)? = nil
    ) -> ChapterLayout {
        var growing = Growing(document, spineIndex: spineIndex, settings: settings, imageSize: imageSize)
        growing.extend(toLines: .max)
        return growing.layout()
    }

    static func paginate(_ lines: [LayoutLine], rows: Int) -> [Int] {
        paginate(lines.map(\.pageKind), rows: rows)
    }

    /// Where each page starts, from what kind each line is (all that cutting pages looks at).
    static func paginate(_ lines: [LayoutLine.PageKind], rows: Int) -> [Int] {
        var starts: [Int] = []
        var index = 0
        while index < lines.count {
            // A page does not begin with blank rows.
            if !starts.isEmpty { while index < lines.count, lines[index] == .blank { index += 1 } }
            guard index < lines.count else { break }
            starts.append(index)
            var end = min(lines.count, index + rows)
            // A picture is not cut in two: the page ends above it.
            if end < lines.count, lines[end] == .imageSpace {
                var first = end
                while first > index, lines[first] == .imageSpace { first -= 1 }
                if first > index { end = first }
            }
            // Keep a heading with what follows it rather than alone at the foot of a page.
            if end < lines.count, end - index > 3 {
                var last = end - 1
                while last > index, lines[last] == .blank { last -= 1 }
                if lines[last] == .heading, last > index + 1 { end = last }
            }
            index = end
        }
        return starts.isEmpty ? [0] : starts
    }

    /// A chapter being laid out block by block, so that the first pages can be shown before the
    /// rest is laid out, and the rest laid out later from where it stopped.
    struct Growing: Sendable {
        let document: ChapterDocument
        let spineIndex: Int
        private var builder: Builder
        private var nextBlock = 0

        init(
            _ document: ChapterDocument, spineIndex: Int, settings: LayoutSettings,
            imageSize: (@Sendable (String) -> (width: Int, height: Int)?)?
        ) {
            self.document = document
            self.spineIndex = spineIndex
            builder = Builder(
                settings: settings,
                indentParagraphs: settings.paragraphStyle == .indent
                    || (settings.paragraphStyle == .book && document.prefersIndentedParagraphs == true))
            if settings.showImages { builder.imageSize = imageSize }
            builder.documentLanguage = document.language
            builder.languageSpans = document.languageSpans
        }

        /// Whether the chapter is long enough to lay out in part: a shorter one takes a
        /// millisecond or less to lay out whole, and then its page count is known from the first
        /// frame. (The first frame lays out four screens, some 16 000 characters at 120×40; a
        /// novel's chapter of 58 000 took 3 ms of its 15 to lay out whole.)
        static let longChapter = 30_000
        var isLong: Bool { (document.blocks.last?.range.upperBound ?? 0) > Self.longChapter }

        /// Whether every block is laid out.
        var isComplete: Bool { nextBlock >= document.blocks.count }
        /// The lines laid out so far.
        var lineCount: Int { builder.lines.count }

        /// Lays out blocks until there are at least `count` lines, or the chapter ends.
        mutating func extend(toLines count: Int) {
            let blocks = document.blocks
            while nextBlock < blocks.count, builder.lines.count < count {
                builder.add(blocks[nextBlock])
                nextBlock += 1
            }
        }

        /// Lays out blocks until a line starts past `offset`, or the chapter ends.
        mutating func extend(pastOffset offset: Int) {
            let blocks = document.blocks
            while nextBlock < blocks.count, (builder.lines.last?.sourceRange.lowerBound ?? -1) <= offset {
                builder.add(blocks[nextBlock])
                nextBlock += 1
            }
        }

        /// The chapter's page count, laid out from where this one stopped to the end without
        /// keeping the lines (only their kinds, a byte each): a long chapter's lines are kept only
        /// as far as the reader has gone.
        func pageCount() -> (pages: Int, lines: Int, linesMade: Int) {
            var counting = self
            var kinds = counting.builder.lines.map(\.pageKind)
            counting.builder.forget()
            let blocks = document.blocks
            while counting.nextBlock < blocks.count {
                counting.builder.add(blocks[counting.nextBlock])
                counting.nextBlock += 1
                kinds += counting.builder.lines.lazy.map(\.pageKind)
                counting.builder.forget()
            }
            let pages = kinds.isEmpty ? 1 : ChapterLayout.paginate(kinds, rows: max(1, builder.settings.rows)).count
            return (pages, max(1, counting.builder.lineCount), counting.builder.lineCount - lineCount)
        }

        /// The layout so far: the whole chapter once complete, else its first pages.
        func layout() -> ChapterLayout {
            let settings = builder.settings
            guard isComplete else {
                return ChapterLayout(spineIndex: spineIndex, settings: settings, partialLines: builder.lines)
            }
            let lines =
                builder.lines.isEmpty
                ? [LayoutLine(role: .blank, indent: 0, runs: [], sourceRange: 0..<0, width: 0)]
                : builder.lines
            return ChapterLayout(
                spineIndex: spineIndex, settings: settings, lines: lines,
                pageStarts: paginate(lines, rows: max(1, settings.rows)))
        }
    }

    // MARK: - Building lines

    private struct Builder: Sendable {
        let settings: LayoutSettings
        let indentParagraphs: Bool
        var imageSize: (@Sendable (String) -> (width: Int, height: Int)?)?
        var lines: [LayoutLine] = []
        /// Lines made and forgotten (``forget()``), which still count for what follows them.
        private var forgotten = 0
        private var previous: Block?

        /// How many lines have been made.
        var lineCount: Int { forgotten + lines.count }

        /// Lets go of the lines made so far (a page count needs only their kinds).
        mutating func forget() {
            forgotten += lines.count
            // A block's few lines: keep the room for the next; a long first part: let it go.
            lines.removeAll(keepingCapacity: lines.count < 4096)
        }

        /// The chapter's language, and the passages marked as others, for hyphenation.
        var documentLanguage: String?
        var languageSpans: [LanguageSpan] = []

        init(settings: LayoutSettings, indentParagraphs: Bool) {
            self.settings = settings
            self.indentParagraphs = indentParagraphs
        }

        /// The language at an offset: the innermost passage marked there, else the chapter's, else the book's.
        private func language(at offset: Int) -> String? {
            declaredLanguage(at: offset) ?? settings.language
        }

        /// The language the chapter's own markup gives an offset, without the book's: a paragraph's
        /// direction never comes from the package (EPUB RS 3.3: a reading system must not assume a
        /// content document's language or base direction from `dc:language`).
        private func declaredLanguage(at offset: Int) -> String? {
            LanguageSpan.innermost(languageSpans, at: offset) ?? documentLanguage
        }

        mutating func add(_ block: Block) {
            let blanks = blankLines(before: block)
            for _ in 0..<blanks { appendBlank(at: block.range.lowerBound) }
            let textWidth = settings.textWidth
            let blockIndent = min(textWidth / 2, 2 * block.quoteDepth + 3 * block.listDepth + (block.isNote ? 2 : 0))
            let left = settings.leftEdge + blockIndent
            let width = textWidth - blockIndent
            switch block.kind {
            case .horizontalRule:
                let rule = "* * *"
                lines.append(
                    LayoutLine(
                        role: .horizontalRule, indent: left + max(0, (width - 5) / 2),
                        runs: [LineRun(text: rule, style: [], link: nil)],
                        sourceRange: block.range.lowerBound..<block.range.lowerBound, width: 5))
            case .image(let image):
                var label = image.placeholder
                if CellWidth.of(label) > width { label = String(label.prefix(max(1, width - 1))) + "…" }
                if let path = image.path, let size = imageSize?(path) {
                    // Rows for the picture, centred; the label stands in if it cannot be drawn.
                    let cells = settings.imageCells(pixels: size)
                    let indent = left + max(0, (width - cells.columns) / 2)
                    lines.append(
                        LayoutLine(
                            role: .image(image), indent: indent, runs: [LineRun(text: label, style: [], link: nil)],
                            sourceRange: block.range.lowerBound..<block.range.lowerBound, width: cells.columns))
                    for _ in 1..<max(1, cells.rows) {
                        lines.append(
                            LayoutLine(
                                role: .imageSpace, indent: indent, runs: [],
                                sourceRange: block.range.lowerBound..<block.range.lowerBound, width: 0))
                    }
                } else {
                    lines.append(
                        LayoutLine(
                            role: .image(image), indent: left, runs: [LineRun(text: label, style: [], link: nil)],
                            sourceRange: block.range.lowerBound..<block.range.lowerBound, width: CellWidth.of(label)))
                }
            default:
                addText(block, left: left, width: width, firstLineIndent: firstLineIndent(for: block, blanks: blanks))
            }
            previous = block
        }

        private func isPlainParagraph(_ block: Block) -> Bool {
            block.kind == .paragraph && block.listMarker == nil && block.listDepth == 0
        }

        private func blankLines(before block: Block) -> Int {
            guard let previous, lineCount > 0 else { return 0 }
            if case .heading = previous.kind { return 1 }
            switch block.kind {
            case .heading: return 1
            case .horizontalRule, .image: return 1
            default: break
            }
            switch previous.kind {
            case .horizontalRule, .image, .preformatted: return 1
            default: break
            }
            let sameContext = previous.quoteDepth == block.quoteDepth && previous.isNote == block.isNote
            if block.kind == .tableRow, previous.kind == .tableRow { return 0 }
            if block.listDepth > 0, previous.listDepth > 0, sameContext { return 0 }
            if indentParagraphs, isPlainParagraph(block), isPlainParagraph(previous), sameContext { return 0 }
            return 1
        }

        private func firstLineIndent(for block: Block, blanks: Int) -> Int {
            guard indentParagraphs, blanks == 0, isPlainParagraph(block), let previous, isPlainParagraph(previous)
            else { return 0 }
            return max(0, settings.indentWidth)
        }

        private mutating func appendBlank(at offset: Int) {
            lines.append(LayoutLine(role: .blank, indent: 0, runs: [], sourceRange: offset..<offset, width: 0))
        }

        private mutating func addText(_ block: Block, left: Int, width: Int, firstLineIndent: Int) {
            let role: LayoutLine.Role
            var justify = settings.justify
            switch block.kind {
            case .heading(let level):
                role = .heading(level: level)
                justify = false
            case .preformatted:
                role = .preformatted
                justify = false
            case .tableRow:
                role = .tableRow
                justify = false
            default: role = block.isNote ? .note : .text
            }
            var markerRun: LineRun?
            var firstIndent = firstLineIndent
            var markerWidth = 0
            if let marker = block.listMarker {
                markerWidth = CellWidth.of(marker) + 1
                markerRun = LineRun(text: marker + " ", style: [], link: nil)
            }
            // The reader's setting turns patterns on; the book's `hyphens` may keep a block from them.
            let hyphenator =
                settings.hyphenate && role != .tableRow && block.hyphenation == .auto
                ? Hyphenator.forLanguage(language(at: block.range.lowerBound)) : nil
            let breaker = LineBreaker(
                runs: block.runs, softHyphens: block.hyphenation == .none ? [] : block.softHyphens,
                preformatted: block.kind == .preformatted, hyphenator: hyphenator)
            if markerRun != nil { firstIndent = 0 }
            let broken = breaker.lines(firstWidth: width - firstIndent, width: width)
            let bidi =
                BidiParagraph.mayReorder(
                    block.runs, declared: block.declaredDirection,
                    language: { declaredLanguage(at: block.range.lowerBound) })
                ? BidiParagraph(
                    units: Array(block.text.utf16),
                    clusters: breaker.clusters.map {
                        BidiParagraph.Cluster(
                            offset: $0.offset, length: $0.length,
                            direction: block.runs[$0.run].style.declaredDirection,
                            overrides: block.runs[$0.run].style.contains(.directionOverride),
                            isolatesByContent: block.runs[$0.run].style.contains(.isolate))
                    },
                    declared: block.declaredDirection, language: declaredLanguage(at: block.range.lowerBound)) : nil
            // A right-to-left paragraph is set against the column's right edge: its first-line
            // indent, its quote and list indents and its list marker are on the right.
            let rightToLeft = bidi?.isRightToLeft ?? false
            if rightToLeft, let marker = block.listMarker {
                markerRun = LineRun(
                    text: " " + BidiParagraph.displayLine(marker, direction: .rightToLeft), style: [], link: nil)
            }
            let rightEdge = settings.leftEdge + width
            let base = block.range.lowerBound
            for (number, line) in broken.enumerated() {
                var runs =
                    bidi.map { displayRuns(for: line, bidi: $0, breaker: breaker, block: block) }
                    ?? self.runs(for: line, breaker: breaker, block: block)
                var lineWidth = breaker.cells(line.start, line.end) + (line.hyphen ? 1 : 0)
                let available = width - (number == 0 ? firstIndent : 0)
                if justify, line.stretchable, lineWidth < available {
                    runs = Self.justified(runs, extra: available - lineWidth, towardsEnd: lineCount % 2 == 1)
                    lineWidth = available
                }
                var indent = left + (number == 0 ? firstIndent : 0)
                if rightToLeft {
                    indent = max(settings.leftEdge, rightEdge - (number == 0 ? firstIndent : 0) - lineWidth)
                    if number == 0, let markerRun {
                        // The marker hangs in the list's indent on the right, `.9` and `.10` lined up.
                        runs.append(markerRun)
                        lineWidth += min(markerWidth, settings.leftEdge + settings.textWidth - rightEdge)
                    }
                } else if number == 0, let markerRun {
                    // The marker hangs in the list's indent, right-aligned so `9.` and `10.` line up.
                    indent = max(settings.leftEdge, left - markerWidth)
                    runs.insert(markerRun, at: 0)
                    lineWidth += min(markerWidth, left - indent)
                }
                let lower =
                    line.start < breaker.clusters.count
                    ? base + breaker.clusters[line.start].offset : block.range.upperBound
                let upper =
                    line.end > line.start
                    ? base + breaker.clusters[line.end - 1].offset + breaker.clusters[line.end - 1].length : lower
                lines.append(
                    LayoutLine(role: role, indent: indent, runs: runs, sourceRange: lower..<upper, width: lineWidth))
                if number < broken.count - 1 {
                    switch settings.lineSpacing {
                    case .single: break
                    case .oneAndHalf: if number % 2 == 1 { appendBlank(at: upper) }
                    case .double: appendBlank(at: upper)
                    }
                }
            }
        }

        private func runs(for line: LineBreaker.Line, breaker: LineBreaker, block: Block) -> [LineRun] {
            var runs: [LineRun] = []
            var index = line.start
            while index < line.end {
                let run = breaker.clusters[index].run
                var end = index
                while end < line.end, breaker.clusters[end].run == run { end += 1 }
                // Slice the run's text rather than rebuilding it character by character.
                let source = block.runs[run]
                runs.append(
                    LineRun(
                        text: String(breaker.text(index, through: end - 1, in: source.text)), style: source.style,
                        link: source.link,
                        sourceOffset: block.range.lowerBound + breaker.clusters[index].offset))
                index = end
            }
            if line.hyphen {
                if runs.isEmpty {
                    runs.append(LineRun(text: "-", style: [], link: nil))
                } else {
                    runs[runs.count - 1].text += "-"
                }
            }
            return runs
        }

        /// A line's runs in display order (``BidiParagraph``): clusters next to each other on
        /// screen and in the text, the same way round, from the same run, make one run; a run
        /// read right to left has its text backwards, its brackets mirrored, and `sourceOffset`
        /// where its (logically first, rightmost) text starts.
        private func displayRuns(
            for line: LineBreaker.Line, bidi: BidiParagraph, breaker: LineBreaker, block: Block
        ) -> [LineRun] {
            let clusters = breaker.clusters
            func clusterText(_ index: Int, mirrored: Bool) -> String {
                if let shaped = bidi.shapedText(index) { return shaped }
                let slice = breaker.text(index, through: index, in: block.runs[clusters[index].run].text)
                guard mirrored, let character = slice.first, slice.count == 1 else { return String(slice) }
                return BidiParagraph.mirroredCluster(character)
            }
            var runs: [LineRun] = []
            // The run being built: its clusters' lowest and highest index and which way it reads.
            var low = 0
            var high = 0
            var backwards = false
            var open = false
            var text = ""
            func close() {
                guard open else { return }
                let source = block.runs[clusters[low].run]
                var run = LineRun(
                    text: text, style: source.style, link: source.link,
                    sourceOffset: block.range.lowerBound + clusters[low].offset)
                run.isReversed = backwards
                runs.append(run)
                open = false
                text = ""
            }
            for (index, rightToLeft) in bidi.displayOrder(line.start..<line.end) {
                if open, clusters[index].run == clusters[low].run {
                    if index == high + 1, !backwards || low == high {
                        backwards = false
                        high = index
                        text += clusterText(index, mirrored: rightToLeft)
                        continue
                    }
                    if index == low - 1, backwards || low == high {
                        backwards = true
                        low = index
                        text += clusterText(index, mirrored: rightToLeft)
                        continue
                    }
                }
                close()
                (low, high, backwards, open) = (index, index, false, true)
                text = clusterText(index, mirrored: rightToLeft)
            }
            close()
            if line.hyphen {
                // The hyphen follows the line's last letter: on its left when that reads right to left.
                let last = line.end - 1
                if let at = runs.firstIndex(where: { run in
                    guard let offset = run.sourceOffset else { return false }
                    let start = offset - block.range.lowerBound
                    let end = start + run.text.utf16.count
                    return clusters[last].offset >= start && clusters[last].offset < end
                }) {
                    if runs[at].isReversed { runs[at].text = "-" + runs[at].text } else { runs[at].text += "-" }
                } else if bidi.isRightToLeft {
                    runs.insert(LineRun(text: "-", style: [], link: nil), at: 0)
                } else {
                    runs.append(LineRun(text: "-", style: [], link: nil))
                }
            }
            return runs
        }

        /// Widens the spaces between words by `extra` cells in all, spread evenly; the odd cells
        /// go to the start or end of the line, alternating, so no river forms down one side.
        private static func justified(_ runs: [LineRun], extra: Int, towardsEnd: Bool) -> [LineRun] {
            let gaps = runs.reduce(0) { $0 + $1.text.reduce(0) { $0 + ($1 == " " ? 1 : 0) } }
            guard gaps > 0, extra > 0 else { return runs }
            let each = extra / gaps
            let remainder = extra % gaps
            var gap = 0
            return runs.map { run in
                guard run.text.contains(" ") else { return run }
                var text = ""
                for character in run.text {
                    text.append(character)
                    guard character == " " else { continue }
                    let bonus = towardsEnd ? (gap >= gaps - remainder ? 1 : 0) : (gap < remainder ? 1 : 0)
                    text += String(repeating: " ", count: each + bonus)
                    gap += 1
                }
                var widened = run
                widened.text = text
                return widened
            }
        }
    }
}
