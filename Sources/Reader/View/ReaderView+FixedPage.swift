import Localization
internal import Terminal

/// A fixed-layout book's screen (``ReaderSession/fixedSpread()``): its page, or two side by side,
/// fitted to the window, and the page's words popped out beside the picture where the window is
/// wide enough, else under it (`w` hides them and shows them again).
extension ReaderView {
    /// The least room, in cells, for the words beside the picture; and the most (a readable line).
    private static let wordsColumns = (least: 24, most: 60)
    /// Cells between the picture and its words.
    private static let gap = 3

    /// The page area's rows for a fixed page, or nil when its picture cannot be drawn (the page
    /// is then shown as text).
    func fixedPageFrame(
        _ pages: [ReaderSession.FixedPage], palette: ReaderPalette
    ) -> (rows: [StyledRow], overlays: [FrameOverlay])? {
        guard let images, session.preferences.showImages else { return nil }
        let shown = session.book.pagesTurnRightToLeft ? pages.reversed() : pages
        let sizes = shown.map { images.pixels(of: $0.picture) }
        guard sizes.contains(where: { $0 != nil }) else { return nil }
        let area = screenRows - 1
        let words = session.popsOutWords ? pages.flatMap(\.words) : []
        let placement = place(words, sizes: sizes, area: area)

        var rows = Array(repeating: StyledRow(blank: screenColumns, style: palette.text), count: area)
        var overlays: [FrameOverlay] = []
        // The pictures, side by side and meeting in the middle of their room, each centred on its rows.
        var column = placement.pictures.left + (placement.pictures.width - placement.widths.reduce(0, +)) / 2
        for (page, width) in zip(shown, placement.widths) {
            defer { column += width }
            guard width > 0 else { continue }
            let line = LayoutLine(role: .image(page.picture), indent: 0, runs: [], sourceRange: 0..<0, width: width)
            guard
                let drawn = images.rows(
                    for: page.picture, spineIndex: page.spineIndex, line: line, width: width,
                    background: palette.backgroundRGB, room: placement.pictures.rows)
            else { continue }
            let top = placement.pictures.top + max(0, (placement.pictures.rows - drawn.rows.count) / 2)
            for (index, row) in drawn.rows.prefix(placement.pictures.rows).enumerated() where top + index < area {
                rows[top + index] = rows[top + index].overlaid(row, at: column, fill: palette.text)
            }
            if let code = drawn.overlay {
                overlays.append(FrameOverlay(row: top, column: column, rows: drawn.rows.count, code: code))
            }
        }
        for (index, line) in placement.words.lines.enumerated() where placement.words.top + index < area {
            var row = StyledRow()
            row.append(line, style: palette.text.merging(.bold))
            let at = placement.words.top + index
            rows[at] = rows[at].overlaid(row, at: placement.words.left, fill: palette.text).fitted(
                to: screenColumns, style: palette.text)
        }
        return (rows, overlays)
    }

    /// Where the pictures and the words go.
    private struct Placement {
        var pictures: (left: Int, top: Int, width: Int, rows: Int)
        /// Each picture's width in cells (0: it cannot be drawn).
        var widths: [Int]
        var words: (left: Int, top: Int, lines: [String])
    }

    /// Beside when the words fit there in full height, else under the pictures, which then give
    /// up the rows the words need (leaving the pictures a third of the screen at least).
    private func place(_ words: [String], sizes: [(width: Int, height: Int)?], area: Int) -> Placement {
        let alone = fit(sizes, columns: screenColumns, rows: area)
        guard !words.isEmpty else {
            return Placement(
                pictures: (0, 0, screenColumns, area), widths: alone, words: (0, 0, []))
        }
        // Beside: the pictures at full height, the words in the room left (as wide as a readable
        // line, narrowing the pictures if the words need it).
        let room = screenColumns - alone.reduce(0, +) - Self.gap - 2
        if room >= Self.wordsColumns.least {
            for width in Set([min(room, Self.wordsColumns.most), Self.wordsColumns.most]).sorted() {
                let lines = wrapped(words, width: width)
                guard lines.count <= area, width + Self.gap + 2 < screenColumns else { continue }
                let pictureRoom = screenColumns - width - Self.gap - 2
                let widths = fit(sizes, columns: pictureRoom, rows: area)
                // Centred as a group, by the words' longest line rather than the room they had.
                let used = widths.reduce(0, +) + Self.gap + (lines.map(DisplayWidth.of).max() ?? width)
                let left = max(1, (screenColumns - used) / 2)
                return Placement(
                    pictures: (left, 0, widths.reduce(0, +), area), widths: widths,
                    words: (left + widths.reduce(0, +) + Self.gap, max(0, (area - lines.count) / 2), lines))
            }
        }
        // Under: the words as wide as a readable line, the pictures in the rows above them.
        let width = min(screenColumns - 4, 72)
        var lines = wrapped(words, width: width)
        let most = max(1, area - max(3, area / 3) - 1)
        if lines.count > most {
            lines = Array(lines.prefix(most))
            lines[most - 1] = DisplayWidth.truncate(lines[most - 1] + " …", to: width)
        }
        let pictureRows = max(1, area - lines.count - 1)
        let widths = fit(sizes, columns: screenColumns, rows: pictureRows)
        return Placement(
            pictures: (0, 0, screenColumns, pictureRows), widths: widths,
            words: (max(0, (screenColumns - width) / 2), pictureRows + 1, lines))
    }

    /// Each picture's width when all of them, side by side, fit `columns × rows` (a cell is about
    /// twice as tall as wide) at one height.
    private func fit(_ sizes: [(width: Int, height: Int)?], columns: Int, rows: Int) -> [Int] {
        // The widths at the full height, then scaled down together if they are too wide.
        let full = sizes.map { size in size.map { Double(rows * 2 * $0.width) / Double(max(1, $0.height)) } ?? 0 }
        let total = full.reduce(0, +)
        let scale = total > Double(columns) ? Double(columns) / total : 1
        return full.map { max(0, Int(($0 * scale).rounded(.down))) }
    }

    /// The words wrapped to `width`, a blank line between paragraphs.
    private func wrapped(_ words: [String], width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in words {
            if !lines.isEmpty { lines.append("") }
            lines += DisplayWidth.wrap(paragraph, width: max(8, width))
        }
        return lines
    }
}
