internal import Terminal
internal import TextSafety

/// One screen row as styled stretches of text, so rows can be padded, cut and laid over one
/// another by cells before they are turned into escape codes.
struct StyledRow: Hashable {
    struct Segment: Hashable {
        var text: String
        var style: TextStyle
        var width: Int
    }

    private(set) var segments: [Segment] = []
    /// Cells taken so far.
    private(set) var width = 0

    init() {}

    /// A row of `width` spaces in a style.
    init(blank width: Int, style: TextStyle) {
        append(String(repeating: " ", count: max(0, width)), style: style, width: max(0, width))
    }

    mutating func append(_ text: String, style: TextStyle, width known: Int? = nil) {
        guard !text.isEmpty else { return }
        let cells = known ?? DisplayWidth.of(text)
        if let last = segments.last, last.style == style {
            segments[segments.count - 1].text += text
            segments[segments.count - 1].width += cells
        } else {
            segments.append(Segment(text: text, style: style, width: cells))
        }
        width += cells
    }

    mutating func append(_ row: StyledRow) {
        for segment in row.segments { append(segment.text, style: segment.style, width: segment.width) }
    }

    /// Pads with spaces (or cuts) to exactly `cells`.
    func fitted(to cells: Int, style: TextStyle) -> StyledRow {
        if width == cells { return self }
        if width > cells { return sliced(0, cells, fill: style) }
        var row = self
        row.append(String(repeating: " ", count: cells - width), style: style, width: cells - width)
        return row
    }

    /// The cells `start..<end`; a wide character cut in half becomes a space.
    func sliced(_ start: Int, _ end: Int, fill: TextStyle) -> StyledRow {
        var result = StyledRow()
        var column = 0
        for segment in segments {
            if column >= end { break }
            let segmentEnd = column + segment.width
            if segmentEnd <= start {
                column = segmentEnd
                continue
            }
            if column >= start, segmentEnd <= end {
                result.append(segment.text, style: segment.style, width: segment.width)
                column = segmentEnd
                continue
            }
            var text = ""
            var cells = 0
            for character in segment.text {
                let w = DisplayWidth.of(character)
                if column >= start, column + w <= end {
                    text.append(character)
                    cells += w
                } else if column < end, column + w > start, w > 0 {
                    // Partly inside: keep the cells as spaces so columns stay put.
                    let inside = min(end, column + w) - max(start, column)
                    text += String(repeating: " ", count: inside)
                    cells += inside
                }
                column += w
            }
            result.append(text, style: segment.style, width: cells)
        }
        return result.width < end - start ? result.fitted(to: end - start, style: fill) : result
    }

    /// This row with `overlay` laid over it from cell `column`.
    func overlaid(_ overlay: StyledRow, at column: Int, fill: TextStyle) -> StyledRow {
        var result = sliced(0, column, fill: fill)
        result.append(overlay)
        let total = max(width, column + overlay.width)
        result.append(sliced(column + overlay.width, total, fill: fill))
        return result
    }

    /// The plain text (tests compare it).
    var text: String { segments.map(\.text).joined() }

    /// The row as escape codes for a terminal of these capabilities.
    func rendered(_ capabilities: TerminalCapabilities) -> String {
        var output = ""
        // The book's text was made safe where it was read; this catches anything that slipped past
        // (a file name, an error) so that no code in a row's text reaches the terminal.
        // At a terminal without colour (NO_COLOR) attributes still mark hits, selections and the
        // spoken sentence; piped or plain capabilities get the text alone.
        let attributesOnly = capabilities.isTTY && !capabilities.usesColor
        for segment in segments {
            let text = SafeText.visibleControls(segment.text)
            output +=
                attributesOnly
                ? Ansi.paintAttributes(text, segment.style) : Ansi.paint(text, segment.style, caps: capabilities)
        }
        return output
    }
}
