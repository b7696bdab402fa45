internal import Foundation
import Localization
internal import Terminal

/// The reader's frame: the page, the status line and the panels over it.
extension ReaderView {
    /// Rows a list panel shows.
    var panelRows: Int { max(1, screenRows - 6) }

    var palette: ReaderPalette {
        ReaderPalette(theme: session.preferences.theme, brightness: session.preferences.brightness)
    }

    /// The whole screen, one row per terminal row.
    func frame() -> [StyledRow] {
        frameWithOverlays().rows
    }

    /// The screen's rows as the terminal gets them (escape codes by `capabilities`).
    public func renderedRows() -> [String] {
        frame().map { $0.rendered(capabilities) }
    }

    /// The screen's rows as plain text.
    public func textRows() -> [String] {
        frame().map(\.text)
    }

    /// The whole screen, and codes to write at cells after it (pictures on kitty; none while a
    /// panel is open, since a picture would cover it).
    func frameWithOverlays() -> (rows: [StyledRow], overlays: [FrameOverlay]) {
        let palette = palette
        if case .picture(let index, let pictures) = mode {
            return pictureFrame(pictures[index], number: index + 1, of: pictures.count, palette: palette)
        }
        var (rows, overlays): ([StyledRow], [FrameOverlay])
        if !capabilities.screenReader, case let pages = session.fixedSpread(), !pages.isEmpty,
            let fixed = fixedPageFrame(pages, palette: palette)
        {
            (rows, overlays) = fixed
        } else {
            let renderer = PageRenderer(
                palette: palette, capabilities: capabilities, night: session.preferences.theme == .night,
                images: session.preferences.showImages ? images : nil)
            (rows, overlays) = renderer.rows(for: session, columns: screenColumns, rows: screenRows - 1)
        }
        if let panel = panel(palette: palette) {
            let width = panel.first?.width ?? 0
            let left = max(0, (screenColumns - width) / 2)
            let top = max(0, (screenRows - 1 - panel.count) / 2)
            for (index, row) in panel.enumerated() where top + index < rows.count {
                rows[top + index] = rows[top + index].overlaid(row, at: left, fill: palette.text)
            }
            overlays = []
        }
        // A message longer than the status line is wrapped into rows above it, until the next key.
        if let area = messageArea(palette: palette) {
            let first = max(0, rows.count - area.count)
            for (index, row) in area.enumerated() where first + index < rows.count { rows[first + index] = row }
            overlays = []
        }
        rows.append(statusLine(palette: palette))
        return (rows, overlays)
    }

    /// The question before a web link is opened, with its address whole.
    func openQuestion(_ address: String) -> String {
        tr("Open {address} outside bok? y opens it, any other key does not", ["address": address])
    }

    /// What the status line cannot hold whole, wrapped to the window: a message longer than the
    /// room beside the page numbers (`:stats`, "no sound device", the colours' legend), or the
    /// question before opening a link (never a cut address). Nil when it fits.
    func messageArea(palette: ReaderPalette) -> [StyledRow]? {
        let text: String
        switch mode {
        case .prompt: return nil
        case .confirmOpen(let address):
            text = openQuestion(address)
            guard DisplayWidth.of(text) + 2 > screenColumns else { return nil }
        default:
            guard let message = session.message, !messageFits(message) else { return nil }
            text = message
        }
        let lines = DisplayWidth.wrap(text, width: max(10, screenColumns - 2))
        return lines.prefix(max(1, (screenRows - 1) / 2)).map { line in
            var row = StyledRow()
            row.append(" " + line, style: palette.status.merging(.bold))
            return row.fitted(to: screenColumns, style: palette.status)
        }
    }

    /// True when `message` fits the status line beside its shortest right-hand side.
    func messageFits(_ message: String) -> Bool {
        let right = statusVariants().last?.joined(separator: statusSeparator) ?? ""
        return DisplayWidth.of(message) + 2 + DisplayWidth.of(right) + 1 + 2 <= screenColumns
    }

    private var statusSeparator: String { capabilities.unicode ? " · " : " | " }

    // MARK: Status line

    func statusLine(palette: ReaderPalette) -> StyledRow {
        let width = screenColumns
        if case .confirmOpen(let address) = mode, messageArea(palette: palette) == nil {
            var row = StyledRow()
            row.append(" " + openQuestion(address), style: palette.status.merging(.bold))
            return row.fitted(to: width, style: palette.status)
        }
        if case .prompt(let prompt) = mode {
            var row = StyledRow()
            row.append(" " + prompt.label, style: palette.status.merging(.bold))
            let room = max(1, width - row.width - 2)
            var text = prompt.text
            while DisplayWidth.of(text) > room { text.removeFirst() }
            row.append(text, style: palette.status)
            row.append(" ", style: capabilities.usesColor ? palette.selection : .inverse)
            return row.fitted(to: width, style: palette.status)
        }
        let variants = statusVariants()
        let separator = statusSeparator
        // A Hebrew or Arabic title is put in display order on its own, as an isolate would be:
        // nothing of it moves past the dash or into the numbers beside it.
        let language = session.book.metadata.language
        let title = BidiParagraph.displayLine(
            session.book.metadata.title, direction: session.book.metadata.titleDirection, language: language)
        let chapter = session.currentChapterTitle(waitingForContents: waitsForContents).map {
            BidiParagraph.displayLine($0, language: language)
        }
        let heading = [title, chapter].compactMap { $0 }.filter { !$0.isEmpty }.joined(
            separator: capabilities.unicode ? " — " : " - ")
        // A message too long for the line is in the rows above it (`messageArea`): the line shows the heading.
        let message = session.message.flatMap { messageFits($0) ? $0 : nil }
        var chosen = variants.last!.joined(separator: separator)
        for variant in variants {
            let text = variant.joined(separator: separator)
            if DisplayWidth.of(text) + 2 + min(24, DisplayWidth.of(message ?? heading)) + 2 <= width {
                chosen = text
                break
            }
        }
        let rightText = chosen + " "
        let room = max(0, width - DisplayWidth.of(rightText) - 2)
        var row = StyledRow()
        row.append(" ", style: palette.status)
        if let message {
            row.append(DisplayWidth.truncate(message, to: room), style: palette.status.merging(.bold))
        } else {
            row.append(DisplayWidth.truncate(heading, to: room), style: palette.status)
        }
        row = row.fitted(to: max(0, width - DisplayWidth.of(rightText)), style: palette.status)
        row.append(rightText, style: palette.status)
        return row.fitted(to: width, style: palette.status)
    }

    /// The right-hand side of the status line from the longest to the shortest: pages, percent,
    /// time left in as many words as fit, the loan's badge.
    func statusVariants() -> [[String]] {
        var right: [String] = []
        let chapterPage = session.pageInChapter
        // An estimated count (a long chapter not yet laid out to its end) is marked as one.
        let count = (chapterPage.isEstimate ? "~" : "") + "\(chapterPage.count)"
        var pageText =
            session.showsTwoPages && chapterPage.page < chapterPage.count
            ? "\(chapterPage.page)–\(chapterPage.page + 1)/\(count)"
            : "\(chapterPage.page)/\(count)"
        // A picture book's pages are the book's own, counted through it.
        let order = session.book.readingOrder
        let fixed = session.fixedSpread().compactMap { order.firstIndex(of: $0.spineIndex).map { $0 + 1 } }
        if let first = fixed.first, let last = fixed.last {
            pageText = (first == last ? "\(first)" : "\(first)–\(last)") + "/\(order.count)"
        }
        // The print edition's page, where the book marks them, after bok's own page.
        let printPage = session.printPage(waitingForContents: waitsForContents)
        right.append(pageText + (printPage.map { " (" + tr("p. {page}", ["page": $0]) + ")" } ?? ""))
        right.append("\(Int((session.fractionRead * 100).rounded(.down)))%")
        let left = session.timeLeft
        let chapterLeft = Self.duration(left.chapter)
        let bookLeft = Self.duration(left.book)
        if let badge, !badge.isEmpty { right.append(badge) }
        return [
            right.prefix(2)
                + [tr("{time} left in chapter", ["time": chapterLeft]), tr("{time} in book", ["time": bookLeft])]
                + right.dropFirst(2),
            right.prefix(2) + [tr("{chapter} · {book} left", ["chapter": chapterLeft, "book": bookLeft])]
                + right.dropFirst(2),
            right.prefix(2) + [tr("{time} left", ["time": bookLeft])] + right.dropFirst(2),
            right,
            Array(right.prefix(2)),
        ]
    }

    /// `<1 min`, `12 min`, `3 h 05 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return tr("<1 min") }
        if minutes < 60 { return tr("{minutes} min", ["minutes": minutes]) }
        let remainder = minutes % 60
        if remainder == 0 { return tr("{hours} h", ["hours": minutes / 60]) }
        let padded = (remainder < 10 ? "0" : "") + String(remainder)
        return tr("{hours} h {minutes} min", ["hours": minutes / 60, "minutes": padded])
    }

    // MARK: Panels

    /// The `?` panel's keys and what they do, in the interface language.
    var helpLines: [(String, String)] { ReaderKeys.helpLines.map { ($0.keys, tr($0.description)) } }

    /// The width of a panel over the page.
    var panelWidth: Int { min(screenColumns - 2, 76) }

    /// The `?` panel's rows: each key with its description wrapped beside it, nothing cut; a key
    /// too long for the key column has a row of its own with the description beneath.
    var helpRows: [String] {
        let inner = max(10, panelWidth - 4)
        let keyWidth = min(inner * 2 / 5, helpLines.map { DisplayWidth.of($0.0) }.max() ?? 10)
        let besideWidth = max(8, inner - keyWidth - 2)
        var rows: [String] = []
        for (key, description) in helpLines {
            if DisplayWidth.of(key) <= keyWidth {
                let wrapped = DisplayWidth.wrap(description, width: besideWidth)
                rows.append(DisplayWidth.pad(key, to: keyWidth) + "  " + (wrapped.first ?? ""))
                rows += wrapped.dropFirst().map { String(repeating: " ", count: keyWidth + 2) + $0 }
            } else {
                rows += DisplayWidth.wrap(key, width: inner)
                rows += DisplayWidth.wrap(description, width: inner, indent: min(keyWidth + 2, inner / 2))
            }
        }
        return rows
    }

    /// The open panel as a box over the page.
    func panel(palette: ReaderPalette) -> [StyledRow]? {
        guard let content = panelContent() else { return nil }
        return box(content, palette: palette)
    }

    /// What the open panel holds, whichever way it is written: nil on the page.
    func panelContent() -> PanelContent? {
        switch mode {
        case .reading, .prompt, .confirmOpen, .picture:
            return nil
        case .note(let list, let lines, _):
            return PanelContent(
                kind: .note, title: tr("Note"), rows: lines.map { (displayOrder($0), "") }, list: list,
                selects: false, footer: tr("↑↓ scroll · Enter go to the note · Esc close"))
        case .definition(let list, let lines, let definition):
            return PanelContent(
                kind: .definition, title: definition.title, rows: lines.map { ($0, "") }, list: list, selects: false,
                footer: tr("↑↓ scroll · r read aloud · Esc close"))
        case .help(let list):
            return PanelContent(
                kind: .help, title: tr("Keys"), rows: helpRows.map { ($0, "") }, list: list, selects: false,
                footer: tr("↑↓ scroll · Esc close"))
        case .contents(let list, let items):
            let rows = items.map { item -> (String, String) in
                (
                    String(repeating: "  ", count: min(item.depth, 4)) + displayOrder(item.title)
                        + (item.isCurrent ? "  ◂" : ""),
                    item.page.map(String.init) ?? ""
                )
            }
            // Said while the count runs, not while no entry has a page: an entry that leads outside
            // the reading order never gets one.
            let counting = !session.pagesAreCounted
            return PanelContent(
                kind: .contents, title: tr("Contents"), rows: rows, list: list, selects: true,
                footer: tr("↑↓ choose · Enter go · Esc close") + (counting ? " · " + tr("counting pages…") : ""))
        case .bookmarks(let list):
            let rows = session.bookmarks.map { mark -> (String, String) in
                (
                    mark.locator.snippet.map { "“" + displayOrder($0) + "…”" } ?? tr("Bookmark"),
                    chapterName(mark.locator.spineIndex)
                )
            }
            return PanelContent(
                kind: .bookmarks, title: tr("Bookmarks"), rows: rows, list: list, selects: true,
                footer: tr("↑↓ choose · Enter go · d delete · Esc close"))
        case .links(let list, let links):
            let rows = links.map { link -> (String, String) in
                if case .external(let address) = link.destination {
                    return ("↗ " + link.text, URL(string: address)?.host ?? address)
                }
                return (link.isNoteReference ? tr("Note") + " " + link.text : link.text, "")
            }
            return PanelContent(
                kind: .links, title: tr("Links on this page"), rows: rows, list: list, selects: true,
                footer: tr("↑↓ choose · Enter follow · Esc close"))
        case .highlight(let list, let targets):
            let rows = targets.map { target -> (String, String) in
                let existing = session.highlight(covering: target)
                return (
                    (target.isSearchHit ? tr("Match:") + " " : "")
                        + displayOrder(target.text.replacingOccurrences(of: "\n", with: " ")),
                    existing.map { $0.color.name } ?? ""
                )
            }
            let colors = HighlightColor.allCases.map { "\($0.key) \($0.name)" }.joined(separator: "  ")
            return PanelContent(
                kind: .highlight, title: tr("Highlight"), rows: rows, list: list, selects: true,
                footer: colors + " · " + tr("x remove · r aloud · Esc"))
        }
    }

    /// The book's text for one row of a panel, in display order (a Hebrew chapter title reads
    /// right to left), on its own so that it does not move bok's words around it.
    func displayOrder(_ text: String) -> String {
        BidiParagraph.displayLine(text, language: session.book.metadata.language)
    }

    func chapterName(_ spineIndex: Int) -> String {
        let title = session.book.tableOfContents.flatMap { $0.flattened() }.first {
            $0.entry.spineIndex == spineIndex
        }?.entry.title
        return displayOrder(title ?? "")
    }

    /// A framed panel: a title row, rows of text with an optional right-hand column, a footer.
    func box(_ content: PanelContent, palette: ReaderPalette) -> [StyledRow] {
        let (title, pairs, top, footer) = (content.title, content.rows, content.list.top, content.footer)
        let selected = content.selects ? content.list.selected : nil
        let width = panelWidth
        let inner = max(10, width - 4)
        let visible = min(panelRows, max(1, pairs.count))
        var rows: [StyledRow] = []
        var head = StyledRow(blank: 2, style: palette.panel)
        head.append(DisplayWidth.truncate(title, to: inner), style: palette.panel.merging(.bold))
        rows.append(head.fitted(to: width, style: palette.panel))
        rows.append(StyledRow(blank: width, style: palette.panel))
        for index in top..<min(pairs.count, top + visible) {
            let (text, side) = pairs[index]
            let sideWidth = DisplayWidth.of(side)
            let main = DisplayWidth.pad(
                DisplayWidth.truncate(text, to: max(4, inner - sideWidth - (sideWidth > 0 ? 2 : 0))),
                to: max(4, inner - sideWidth))
            let style = index == selected ? (capabilities.usesColor ? palette.selection : .inverse) : palette.panel
            var row = StyledRow(blank: 2, style: palette.panel)
            row.append(main + side, style: style)
            rows.append(row.fitted(to: width, style: palette.panel))
        }
        if pairs.isEmpty { rows.append(StyledRow(blank: width, style: palette.panel)) }
        rows.append(StyledRow(blank: width, style: palette.panel))
        var foot = StyledRow(blank: 2, style: palette.panel)
        let more = top + visible < pairs.count ? tr("more below · ") : ""
        foot.append(DisplayWidth.truncate(more + footer, to: inner), style: palette.panel.merging(.dim))
        rows.append(foot.fitted(to: width, style: palette.panel))
        return rows
    }
}
