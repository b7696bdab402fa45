internal import Terminal

/// Draws the pages on screen as rows: the text in its styles, search hits and highlights, and
/// images where the terminal can show them.
struct PageRenderer {
    let palette: ReaderPalette
    let capabilities: TerminalCapabilities
    let night: Bool
    /// Draws an image's rows, or `nil` to show its label.
    var images: (any ImageRows)?

    /// The page area: `rows` rows of `columns` cells, and codes to write at cells after them
    /// (pictures in a graphics protocol).
    func rows(for session: ReaderSession, columns: Int, rows: Int) -> (rows: [StyledRow], overlays: [FrameOverlay]) {
        // A spread of a book whose pages turn right to left has its first page on the right.
        let pages = session.book.pagesTurnRightToLeft ? session.visiblePages().reversed() : session.visiblePages()
        let marks = session.visibleMarks()
        let pageWidth = session.layout.settings.width
        var overlays: [FrameOverlay] = []
        let columnsOfPages = pages.enumerated().map { number, page in
            let column = number * (pageWidth + ReaderPreferences.gutter)
            return render(page, marks: marks, width: pageWidth, rows: rows) { row, indent, height, code in
                overlays.append(FrameOverlay(row: row, column: column + indent, rows: height, code: code))
            }
        }
        var result: [StyledRow] = []
        for row in 0..<rows {
            var line = StyledRow()
            for (index, page) in columnsOfPages.enumerated() {
                if index > 0 {
                    line.append(String(repeating: " ", count: ReaderPreferences.gutter), style: palette.text)
                }
                line.append(page[row])
            }
            result.append(line.fitted(to: columns, style: palette.text))
        }
        return (result, overlays)
    }

    private func render(
        _ lines: [VisibleLine], marks: [TextMark], width: Int, rows: Int,
        overlay: (Int, Int, Int, String) -> Void
    ) -> [StyledRow] {
        var result: [StyledRow] = []
        var index = 0
        while index < lines.count, result.count < rows {
            let visible = lines[index]
            if case .image(let reference) = visible.line.role, let images,
                let drawn = images.rows(
                    for: reference, spineIndex: visible.spineIndex, line: visible.line, width: width,
                    background: palette.backgroundRGB, room: rows - result.count)
            {
                // The layout reserved the rows below the label for the picture.
                if let code = drawn.overlay { overlay(result.count, visible.line.indent, drawn.rows.count, code) }
                for row in drawn.rows where result.count < rows {
                    var line = StyledRow(blank: visible.line.indent, style: palette.text)
                    line.append(row)
                    result.append(line.fitted(to: width, style: palette.text))
                }
                index += 1
                while index < lines.count, lines[index].line.role == .imageSpace { index += 1 }
                continue
            }
            result.append(render(visible, marks: marks, width: width))
            index += 1
        }
        while result.count < rows { result.append(StyledRow(blank: width, style: palette.text)) }
        return result
    }

    private func render(_ visible: VisibleLine, marks: [TextMark], width: Int) -> StyledRow {
        let line = visible.line
        var row = StyledRow(blank: line.indent, style: palette.text)
        let base = baseStyle(for: line.role)
        let lineMarks = marks.filter {
            $0.spineIndex == visible.spineIndex
                && $0.range.lowerBound < max(line.sourceRange.upperBound, line.sourceRange.lowerBound + 1)
                && $0.range.upperBound > line.sourceRange.lowerBound
        }
        for run in line.runs {
            let style = base.merging(style(for: run))
            guard !lineMarks.isEmpty, var offset = run.sourceOffset else {
                row.append(run.text, style: style)
                continue
            }
            // Walk the run by characters to paint the marked ones; spaces added to justify the
            // line and a break hyphen are not in the plain text, so they do not move the offset.
            // A run drawn right to left is walked backwards, in the order of its text.
            let characters = Array(run.text)
            var styles = [TextStyle](repeating: style, count: characters.count)
            var previousWasSpace = false
            for index in run.isReversed ? Array(characters.indices.reversed()) : Array(characters.indices) {
                let character = characters[index]
                let extra = character == " " && previousWasSpace && line.role != .preformatted
                if !extra, let marked = lineMarks.last(where: { $0.range.contains(offset) }) {
                    styles[index] = style.merging(markStyle(marked.kind))
                }
                if !extra { offset += character.utf16.count }
                previousWasSpace = character == " "
            }
            for (character, style) in zip(characters, styles) {
                row.append(String(character), style: style, width: DisplayWidth.of(character))
            }
        }
        return row.fitted(to: width, style: palette.text)
    }

    private func baseStyle(for role: LayoutLine.Role) -> TextStyle {
        switch role {
        case .heading: palette.text.merging(.bold)
        case .note: palette.quiet
        case .horizontalRule, .image, .imageSpace: palette.quiet
        default: palette.text
        }
    }

    private func style(for run: LineRun) -> TextStyle {
        var style = TextStyle()
        if run.style.contains(.emphasis) { style.italic = true }
        if run.style.contains(.strong) { style.bold = true }
        if run.style.contains(.link) || run.style.contains(.noteReference) {
            style.underline = true
            if case .internal = run.link { style.foreground = palette.link }
        }
        if run.style.contains(.code) { style.dim = !capabilities.usesColor }
        return style
    }

    private func markStyle(_ kind: TextMark.Kind) -> TextStyle {
        guard capabilities.usesColor else {
            switch kind {
            case .searchHit: return .inverse
            case .highlight: return .underline
            // Inverse too, so the sentence being read stands out on a page of (underlined) links.
            case .spoken: return TextStyle(bold: true, underline: true, inverse: true)
            }
        }
        switch kind {
        case .searchHit(let current):
            return current
                ? TextStyle(foreground: .rgb(0, 0, 0), background: .rgb(255, 170, 60), bold: true)
                : TextStyle(foreground: .rgb(0, 0, 0), background: .rgb(255, 220, 120))
        case .highlight(let color):
            return TextStyle(background: palette.highlight(color, night: night))
        case .spoken:
            return TextStyle(background: palette.highlight(.blue, night: night), underline: true)
        }
    }
}

/// Draws images as rows of text cells (see ``ImageCells``).
protocol ImageRows: Sendable {
    /// The rows for an image, or `nil` to show its label instead; transparent parts take `background`.
    /// A picture taller than `room`, the rows left on the page, is cut there: it is drawn in text
    /// cells, since a graphics protocol would draw it whole, over what is below the page.
    func rows(
        for image: ImageReference, spineIndex: Int, line: LayoutLine, width: Int,
        background: (UInt8, UInt8, UInt8), room: Int
    ) -> ImageDrawing?

    /// The picture's size in pixels, once decoded; nil when it cannot be drawn.
    func pixels(of image: ImageReference) -> (width: Int, height: Int)?
}

extension ImageRows {
    /// The rows for an image with all the room it wants.
    func rows(
        for image: ImageReference, spineIndex: Int, line: LayoutLine, width: Int,
        background: (UInt8, UInt8, UInt8)
    ) -> ImageDrawing? {
        rows(for: image, spineIndex: spineIndex, line: line, width: width, background: background, room: .max)
    }
}

/// An escape sequence written with the cursor at a cell, after the frame's rows: a picture.
struct FrameOverlay: Hashable {
    /// Row from 0.
    var row: Int
    /// Column from 0.
    var column: Int
    /// The rows the picture covers.
    var rows: Int = 1
    var code: String

    /// The screen rows the picture covers, from 0.
    var covered: Range<Int> { row..<(row + max(1, rows)) }
}
