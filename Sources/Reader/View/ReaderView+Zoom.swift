import Localization
internal import Terminal

/// `z`: a picture of the page on the whole screen, as large as the window lets it be, with its
/// label under it; z again shows the page's next picture, any other key the page.
extension ReaderView {
    func pictureFrame(
        _ picture: PagePicture, number: Int, of count: Int, palette: ReaderPalette
    ) -> (rows: [StyledRow], overlays: [FrameOverlay]) {
        let reference = picture.image
        let label = reference.alt.isEmpty ? tr("(a picture without a description)") : reference.alt
        // The label under the picture, whole: a few rows of it at most, so the picture keeps its room.
        let labelRows = DisplayWidth.wrap(label, width: max(10, screenColumns - 4)).prefix(max(1, screenRows / 4))
        let room = max(1, screenRows - 1 - labelRows.count - 1)
        var rows: [StyledRow] = []
        var overlays: [FrameOverlay] = []
        if let images = session.preferences.showImages ? images : nil, let pixels = images.pixels(of: reference) {
            // As wide as the screen, or as the rows let a picture of its proportions be (a cell is twice as tall).
            let columns = max(1, min(screenColumns, room * 2 * pixels.width / max(1, pixels.height)))
            let line = LayoutLine(role: .image(reference), indent: 0, runs: [], sourceRange: 0..<0, width: columns)
            if let drawn = images.rows(
                for: reference, spineIndex: picture.spineIndex, line: line, width: screenColumns,
                background: palette.backgroundRGB, room: room)
            {
                let left = max(0, (screenColumns - columns) / 2)
                let top = max(0, (room - drawn.rows.count) / 2)
                rows = Array(repeating: StyledRow(blank: screenColumns, style: palette.text), count: top)
                for row in drawn.rows.prefix(room) {
                    var line = StyledRow(blank: left, style: palette.text)
                    line.append(row)
                    rows.append(line.fitted(to: screenColumns, style: palette.text))
                }
                if let code = drawn.overlay {
                    overlays.append(FrameOverlay(row: top, column: left, rows: drawn.rows.count, code: code))
                }
            }
        }
        if rows.isEmpty {
            // No picture to draw (no colours, pictures off, a picture that cannot be decoded): the label alone.
            var row = StyledRow()
            row.append("  " + tr("[This picture cannot be drawn here.]"), style: palette.quiet)
            rows = [row.fitted(to: screenColumns, style: palette.text)]
        }
        while rows.count < room + 1 { rows.append(StyledRow(blank: screenColumns, style: palette.text)) }
        for line in labelRows {
            var row = StyledRow(blank: 2, style: palette.text)
            row.append(line, style: palette.text.merging(.italic))
            rows.append(row.fitted(to: screenColumns, style: palette.text))
        }
        var status = StyledRow()
        let words =
            count > 1
            ? tr("Picture {number} of {count}: z the next, Esc the page", ["number": number, "count": count])
            : tr("Picture: Esc (or any key) returns to the page")
        status.append(" " + words, style: palette.status.merging(.bold))
        rows.append(status.fitted(to: screenColumns, style: palette.status))
        return (rows, overlays)
    }
}
