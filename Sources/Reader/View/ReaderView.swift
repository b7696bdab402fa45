internal import Foundation
public import Terminal

/// The full-screen reading view without the terminal: it takes keys and gives frames.
///
/// The terminal loop (``ReaderApp``) reads keys, hands them to ``handle(_:)`` and writes what
/// ``frame()`` draws; tests drive the same view with keys and read its frames as text.
///
/// Keys (also listed by `?`): space, PgDn, →, l, j next page; b, PgUp, ←, h, k previous page (in
/// scroll flow j/k and ↓/↑ move one line); g/Home start, G/End end; n/p next/previous chapter —
/// while a search is active n/N go to the next/previous hit instead and Esc ends the search;
/// t contents; / search; m bookmark; ' bookmarks; v highlight; Enter/f follow a link; Backspace/u
/// back; : command; +/- brightness; ? help; q quit.
public struct ReaderView {
    /// What has the keyboard.
    enum Mode {
        case reading
        case help(ListState)
        case contents(ListState, [TOCItem])
        case bookmarks(ListState)
        case links(ListState, [VisibleLink])
        case highlight(ListState, [HighlightTarget])
        case prompt(Prompt)
        /// A link out of the book, waiting for y to open it.
        case confirmOpen(String)
        /// A footnote shown over the page: its text's lines, the first shown, and where it is.
        case note(ListState, [String], LinkDestination)
    }

    /// A line being typed in the status row.
    struct Prompt {
        enum Kind {
            case search
            case command
            case note(HighlightTarget, HighlightColor)
        }
        var kind: Kind
        var text = ""

        var label: String {
            switch kind {
            case .search: "/"
            case .command: ":"
            case .note: "Note (Enter to save, empty for none): "
            }
        }
    }

    /// The selected row of a list panel and the first row shown.
    struct ListState {
        var selected = 0
        var top = 0
    }

    /// The reading session the view shows.
    public private(set) var session: ReaderSession
    let capabilities: TerminalCapabilities
    let badge: String?
    private(set) var mode: Mode = .reading
    private(set) var screenColumns: Int
    private(set) var screenRows: Int
    var images: (any ImageRows)?
    /// Opens a link out of the book; tests put their own here.
    var openLink: (String) -> Bool = LinkOpener.open

    /// Creates a view of a session on a screen of `columns × rows` cells (the last row is the status line).
    public init(session: ReaderSession, capabilities: TerminalCapabilities, badge: String?, columns: Int, rows: Int) {
        self.session = session
        self.capabilities = capabilities
        self.badge = badge
        self.screenColumns = max(20, columns)
        self.screenRows = max(3, rows)
        self.session.resize(columns: self.screenColumns, rows: self.screenRows - 1)
    }

    /// Takes a new window size.
    public mutating func resize(columns: Int, rows: Int) {
        screenColumns = max(20, columns)
        screenRows = max(3, rows)
        session.resize(columns: screenColumns, rows: screenRows - 1)
    }

    /// Shows page numbers that were counted since an open panel was made.
    public mutating func pageCountsChanged() {
        if case .contents(let list, _) = mode { mode = .contents(list, session.tableOfContents()) }
    }

    /// Saves the position; called on the way out (reading aloud stops at once).
    public mutating func close() {
        if session.isReadingAloud { session.stopReadingAloud() }
        session.savePosition()
    }

    /// While reading aloud: the page follows the voice. Returns whether the frame changed.
    mutating func followReadingAloud() -> Bool {
        session.followReadingAloud()
    }

    // MARK: - Keys

    /// Acts on a key. Returns `false` when the reader asked to quit.
    public mutating func handle(_ key: Key) -> Bool {
        switch mode {
        case .reading:
            session.message = nil
            return handleReading(key)
        case .note(var list, let lines, let destination):
            switch key {
            case .enter, .character("f"):
                mode = .reading
                session.follow(destination)
            case .down, .character("j"), .wheelDown:
                list.top = min(max(0, lines.count - panelRows), list.top + 1)
                mode = .note(list, lines, destination)
            case .up, .character("k"), .wheelUp:
                list.top = max(0, list.top - 1)
                mode = .note(list, lines, destination)
            default:
                mode = .reading
            }
            return true
        case .confirmOpen(let address):
            mode = .reading
            if key == .character("y") || key == .character("Y") {
                session.message = openLink(address) ? "Opened \(address) in your browser."
                    : "No browser to open it here; the address is \(address)"
            } else {
                session.message = "Not opened."
            }
            return true
        case .prompt(var prompt):
            return handlePrompt(key, &prompt)
        case .help(var list):
            if key == .character("q") || key == .escape || key == .character("?") || key == .enter { mode = .reading; return true }
            // Help has no selection: the keys scroll it.
            let limit = max(0, helpLines.count - panelRows)
            switch key {
            case .down, .character("j"), .wheelDown: list.top += 1
            case .up, .character("k"), .wheelUp: list.top -= 1
            case .pageDown, .character(" "): list.top += panelRows
            case .pageUp, .character("b"): list.top -= panelRows
            default: break
            }
            list.top = max(0, min(limit, list.top))
            mode = .help(list)
        case .contents(var list, let items):
            if key == .enter, items.indices.contains(list.selected) {
                mode = .reading
                if let locator = session.locator(of: items[list.selected]) { session.jump(to: locator) }
            } else if isCancel(key) || key == .character("t") {
                mode = .reading
            } else {
                moveSelection(&list, key: key, count: items.count, visible: panelRows)
                mode = .contents(list, items)
            }
        case .bookmarks(var list):
            let marks = session.bookmarks
            if key == .enter, marks.indices.contains(list.selected) {
                mode = .reading
                session.goTo(marks[list.selected])
            } else if key == .character("d") || key == .delete, marks.indices.contains(list.selected) {
                session.removeBookmark(marks[list.selected])
                list.selected = min(list.selected, max(0, session.bookmarks.count - 1))
                mode = session.bookmarks.isEmpty ? .reading : .bookmarks(list)
            } else if isCancel(key) || key == .character("'") {
                mode = .reading
            } else {
                moveSelection(&list, key: key, count: marks.count, visible: panelRows)
                mode = .bookmarks(list)
            }
        case .links(var list, let links):
            if key == .enter || key == .character("f"), links.indices.contains(list.selected) {
                mode = .reading
                follow(links[list.selected])
            } else if isCancel(key) {
                mode = .reading
            } else {
                moveSelection(&list, key: key, count: links.count, visible: panelRows)
                mode = .links(list, links)
            }
        case .highlight(var list, let targets):
            if case .character(let character) = key, let color = HighlightColor.allCases.first(where: { $0.key == character }),
               targets.indices.contains(list.selected) {
                mode = .prompt(Prompt(kind: .note(targets[list.selected], color), text: session.highlight(covering: targets[list.selected])?.note ?? ""))
            } else if key == .character("x") || key == .delete, targets.indices.contains(list.selected),
                      let existing = session.highlight(covering: targets[list.selected]) {
                session.removeHighlight(existing)
                session.message = "Highlight removed."
                mode = .reading
            } else if key == .character("r"), targets.indices.contains(list.selected) {
                mode = .reading
                session.readAloud(from: targets[list.selected])
            } else if isCancel(key) || key == .character("v") {
                mode = .reading
            } else {
                moveSelection(&list, key: key, count: targets.count, visible: panelRows)
                mode = .highlight(list, targets)
            }
        }
        return true
    }

    /// Follows a link: a footnote reference shows the note over the page; inside the book at
    /// once; out of it only after asking.
    private mutating func follow(_ link: VisibleLink) {
        switch link.destination {
        case .external(let address):
            mode = .confirmOpen(address)
        case .internal(let target):
            if link.isNoteReference, let text = session.noteText(at: target) {
                let width = max(10, min(screenColumns - 2, 76) - 4)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .flatMap { DisplayWidth.wrap(String($0), width: width) }
                mode = .note(ListState(), lines, link.destination)
            } else {
                session.follow(link.destination)
            }
        }
    }

    private func isCancel(_ key: Key) -> Bool {
        key == .escape || key == .character("q") || key == .ctrl("c") || key == .ctrl("g")
    }

    private mutating func handleReading(_ key: Key) -> Bool {
        let scrolling = session.preferences.flow == .scroll
        // In a book whose pages turn right to left, the left-hand keys go forward.
        var key = key
        if session.book.pagesTurnRightToLeft {
            switch key {
            case .left: key = .right
            case .right: key = .left
            case .character("h"): key = .character("l")
            case .character("l"): key = .character("h")
            default: break
            }
        }
        switch key {
        case .character(" "), .pageDown, .right, .character("l"), .ctrl("f"):
            session.nextPage()
        case .character("b"), .pageUp, .left, .character("h"), .ctrl("b"):
            session.previousPage()
        case .character("j"), .down:
            if scrolling { session.scroll(lines: 1) } else { session.nextPage() }
        case .character("k"), .up:
            if scrolling { session.scroll(lines: -1) } else { session.previousPage() }
        case .wheelDown:
            if scrolling { session.scroll(lines: 3) } else { session.nextPage() }
        case .wheelUp:
            if scrolling { session.scroll(lines: -3) } else { session.previousPage() }
        case .character("g"), .home:
            session.goToStart()
        case .character("G"), .end:
            session.goToEnd()
        case .character("n"):
            if session.search != nil { session.nextHit() } else { session.nextChapter() }
        case .character("N"):
            if session.search != nil { session.previousHit() } else { session.previousChapter() }
        case .character("p"):
            session.previousChapter()
        case .character("r"):
            session.toggleReadingAloud()
        case .escape where session.isReadingAloud:
            session.stopReadingAloud()
        case .escape:
            if session.search != nil {
                session.clearSearch()
                session.message = "Search ended; n and p turn chapters again."
            }
        case .character("t"):
            let items = session.tableOfContents()
            guard !items.isEmpty else {
                session.message = "This book has no table of contents."
                return true
            }
            var list = ListState(selected: items.lastIndex(where: \.isCurrent) ?? 0)
            list.top = max(0, list.selected - panelRows / 2)
            mode = .contents(list, items)
        case .character("/"):
            mode = .prompt(Prompt(kind: .search))
        case .character(":"):
            mode = .prompt(Prompt(kind: .command))
        case .character("m"):
            session.toggleBookmark()
        case .character("'"):
            if session.bookmarks.isEmpty {
                session.message = "No bookmarks yet; m adds one here."
            } else {
                let here = session.topLocator
                mode = .bookmarks(ListState(selected: session.bookmarks.lastIndex { $0.locator <= here } ?? 0))
            }
        case .character("v"):
            let targets = session.highlightTargets()
            guard !targets.isEmpty else {
                session.message = "Nothing on this page to highlight."
                return true
            }
            mode = .highlight(ListState(), targets)
        case .enter, .character("f"):
            let links = session.visibleLinks().filter { link in
                if case .external(let address) = link.destination { return LinkOpener.canOpen(address) }
                return true
            }
            switch links.count {
            case 0: session.message = "No links on this page."
            case 1: follow(links[0])
            default: mode = .links(ListState(), links)
            }
        case .backspace, .character("u"):
            session.goBack()
        case .character("+"), .character("="):
            session.updatePreferences { $0.brightness += 1 }
            session.message = "Brightness \(session.preferences.brightness)."
        case .character("-"):
            session.updatePreferences { $0.brightness -= 1 }
            session.message = "Brightness \(session.preferences.brightness)."
        case .character("?"), .function(1):
            mode = .help(ListState())
        case .character("q"), .ctrl("c"), .ctrl("d"):
            return false
        default:
            break
        }
        return true
    }

    private mutating func handlePrompt(_ key: Key, _ prompt: inout Prompt) -> Bool {
        switch key {
        case .character(let character):
            prompt.text.append(character)
        case .backspace:
            if prompt.text.isEmpty { mode = .reading; return true }
            prompt.text.removeLast()
        case .ctrl("u"):
            prompt.text = ""
        case .escape, .ctrl("c"), .ctrl("g"):
            mode = .reading
            return true
        case .enter:
            mode = .reading
            return submit(prompt)
        default:
            break
        }
        mode = .prompt(prompt)
        return true
    }

    private mutating func submit(_ prompt: Prompt) -> Bool {
        let text = prompt.text
        switch prompt.kind {
        case .search:
            guard !text.isEmpty else {
                if let pattern = session.search?.pattern { session.message = "Searching for \"\(pattern)\"; n and N move." }
                return true
            }
            do { try session.search(text) } catch { session.message = error.message }
        case .command:
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
            switch ReaderCommand.parse(text) {
            case .success(let command): return session.perform(command)
            case .failure(let error): session.message = error.message
            }
        case .note(let target, let color):
            if var existing = session.highlight(covering: target) {
                existing.color = color
                existing.note = text.isEmpty ? nil : text
                session.saveHighlight(existing)
                session.message = "Highlight changed."
            } else {
                session.addHighlight(target, color: color, note: text)
            }
        }
        return true
    }

    private func moveSelection(_ list: inout ListState, key: Key, count: Int, visible: Int) {
        guard count > 0 else { return }
        switch key {
        case .down, .character("j"), .tab, .wheelDown: list.selected += 1
        case .up, .character("k"), .backTab, .wheelUp: list.selected -= 1
        case .pageDown, .character(" "): list.selected += max(1, visible - 1)
        case .pageUp, .character("b"): list.selected -= max(1, visible - 1)
        case .home, .character("g"): list.selected = 0
        case .end, .character("G"): list.selected = count - 1
        default: break
        }
        list.selected = max(0, min(count - 1, list.selected))
        if list.selected < list.top { list.top = list.selected }
        if list.selected >= list.top + visible { list.top = list.selected - visible + 1 }
        list.top = max(0, min(list.top, max(0, count - visible)))
    }

    // MARK: - Drawing

    /// Rows a list panel shows.
    var panelRows: Int { max(1, screenRows - 6) }

    var palette: ReaderPalette { ReaderPalette(theme: session.preferences.theme, brightness: session.preferences.brightness) }

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
        let renderer = PageRenderer(palette: palette, capabilities: capabilities, night: session.preferences.theme == .night,
                                    images: session.preferences.showImages ? images : nil)
        var (rows, overlays) = renderer.rows(for: session, columns: screenColumns, rows: screenRows - 1)
        if let panel = panel(palette: palette) {
            let width = panel.first?.width ?? 0
            let left = max(0, (screenColumns - width) / 2)
            let top = max(0, (screenRows - 1 - panel.count) / 2)
            for (index, row) in panel.enumerated() where top + index < rows.count {
                rows[top + index] = rows[top + index].overlaid(row, at: left, fill: palette.text)
            }
            overlays = []
        }
        rows.append(statusLine(palette: palette))
        return (rows, overlays)
    }

    // MARK: Status line

    private func statusLine(palette: ReaderPalette) -> StyledRow {
        let width = screenColumns
        if case .confirmOpen(let address) = mode {
            var row = StyledRow()
            row.append(" Open \(address) outside bok? y opens it, any other key does not", style: palette.status.merging(.bold))
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
        var right: [String] = []
        let chapterPage = session.pageInChapter
        let pageText = session.showsTwoPages && chapterPage.page < chapterPage.count
            ? "\(chapterPage.page)–\(chapterPage.page + 1)/\(chapterPage.count)" : "\(chapterPage.page)/\(chapterPage.count)"
        // The print edition's page, where the book marks them, after bok's own page.
        right.append(pageText + (session.printPage().map { " (p. \($0))" } ?? ""))
        right.append("\(Int((session.fractionRead * 100).rounded(.down)))%")
        let left = session.timeLeft
        let chapterLeft = Self.duration(left.chapter)
        let bookLeft = Self.duration(left.book)
        if let badge, !badge.isEmpty { right.append(badge) }
        let variants: [[String]] = [
            right.prefix(2) + ["\(chapterLeft) left in chapter", "\(bookLeft) in book"] + right.dropFirst(2),
            right.prefix(2) + ["\(chapterLeft) · \(bookLeft) left"] + right.dropFirst(2),
            right.prefix(2) + ["\(bookLeft) left"] + right.dropFirst(2),
            right,
            Array(right.prefix(2)),
        ]
        let separator = capabilities.unicode ? " · " : " | "
        let title = session.book.metadata.title
        let chapter = session.currentChapterTitle()
        let heading = [title, chapter].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: capabilities.unicode ? " — " : " - ")
        let message = session.message
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

    /// `<1 min`, `12 min`, `3 h 05 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return "<1 min" }
        if minutes < 60 { return "\(minutes) min" }
        let remainder = minutes % 60
        return "\(minutes / 60) h" + (remainder == 0 ? "" : " \(remainder < 10 ? "0" : "")\(remainder) min")
    }

    // MARK: Panels

    private var helpLines: [(String, String)] {
        [
            ("space PgDn → l j", "next page (j: next line when scrolling)"),
            ("b PgUp ← h k", "previous page (k: previous line when scrolling)"),
            ("g Home / G End", "start / end of the book"),
            ("n / p", "next / previous chapter"),
            ("n / N", "next / previous hit while a search is active"),
            ("Esc", "end the search"),
            ("t", "contents, with page numbers once counted"),
            ("/", "search (regular expression, any case)"),
            ("m", "bookmark this page (again: remove)"),
            ("'", "bookmarks: Enter to go, d to delete"),
            ("v", "choose a paragraph: colour 1–5 and note, or r to read it aloud"),
            ("Enter f", "follow a link (a footnote opens over the page; a web link asks first)"),
            ("Backspace u", "go back after a link or jump"),
            ("+ / -", "brighter / dimmer"),
            ("r", "read aloud from this page (again: pause); Esc stops"),
            (":", "command line:"),
        ] + ReaderCommand.summary.map { (":" + $0.0, $0.1) } + [
            ("?", "this help"),
            ("q", "close the book"),
        ]
    }

    private func panel(palette: ReaderPalette) -> [StyledRow]? {
        let width = min(screenColumns - 2, 76)
        switch mode {
        case .reading, .prompt, .confirmOpen:
            return nil
        case .note(let list, let lines, _):
            return box(title: "Note", lines: lines, selected: nil, top: list.top, width: width,
                       footer: "↑↓ scroll · Enter go to the note · Esc close", palette: palette)
        case .help(let list):
            let keyWidth = min(34, helpLines.map { DisplayWidth.of($0.0) }.max() ?? 10)
            let lines = helpLines.map { DisplayWidth.pad(DisplayWidth.truncate($0.0, to: keyWidth), to: keyWidth) + "  " + $0.1 }
            return box(title: "Keys", lines: lines, selected: nil, top: list.top, width: width,
                       footer: "↑↓ scroll · Esc close", palette: palette)
        case .contents(let list, let items):
            let lines = items.map { item -> (String, String) in
                (String(repeating: "  ", count: min(item.depth, 4)) + item.title + (item.isCurrent ? "  ◂" : ""), item.page.map(String.init) ?? "")
            }
            let counted = items.contains { $0.page != nil }
            return box(title: "Contents", pairs: lines, selected: list.selected, top: list.top, width: width,
                       footer: "↑↓ choose · Enter go · Esc close" + (counted ? "" : " · counting pages…"), palette: palette)
        case .bookmarks(let list):
            let lines = session.bookmarks.map { mark -> (String, String) in
                (mark.locator.snippet.map { "“\($0)…”" } ?? "Bookmark", chapterName(mark.locator.spineIndex))
            }
            return box(title: "Bookmarks", pairs: lines, selected: list.selected, top: list.top, width: width,
                       footer: "↑↓ choose · Enter go · d delete · Esc close", palette: palette)
        case .links(let list, let links):
            let lines = links.map { link -> (String, String) in
                if case .external(let address) = link.destination {
                    return ("↗ " + link.text, URL(string: address)?.host ?? address)
                }
                return (link.isNoteReference ? "Note " + link.text : link.text, "")
            }
            return box(title: "Links on this page", pairs: lines, selected: list.selected, top: list.top, width: width,
                       footer: "↑↓ choose · Enter follow · Esc close", palette: palette)
        case .highlight(let list, let targets):
            let lines = targets.map { target -> (String, String) in
                let existing = session.highlight(covering: target)
                return ((target.isSearchHit ? "Match: " : "") + target.text.replacingOccurrences(of: "\n", with: " "),
                        existing.map { $0.color.rawValue } ?? "")
            }
            let colors = HighlightColor.allCases.map { "\($0.key) \($0.rawValue)" }.joined(separator: "  ")
            return box(title: "Highlight", pairs: lines, selected: list.selected, top: list.top, width: width,
                       footer: colors + " · x remove · r aloud · Esc", palette: palette)
        }
    }

    private func chapterName(_ spineIndex: Int) -> String {
        session.book.tableOfContents.flatMap { $0.flattened() }.first { $0.entry.spineIndex == spineIndex }?.entry.title ?? ""
    }

    private func box(title: String, lines: [String], selected: Int?, top: Int, width: Int, footer: String, palette: ReaderPalette) -> [StyledRow] {
        box(title: title, pairs: lines.map { ($0, "") }, selected: selected, top: top, width: width, footer: footer, palette: palette)
    }

    /// A framed panel: a title row, rows of text with an optional right-hand column, a footer.
    private func box(title: String, pairs: [(String, String)], selected: Int?, top: Int, width: Int, footer: String,
                     palette: ReaderPalette) -> [StyledRow] {
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
            let main = DisplayWidth.pad(DisplayWidth.truncate(text, to: max(4, inner - sideWidth - (sideWidth > 0 ? 2 : 0))),
                                        to: max(4, inner - sideWidth))
            let style = index == selected ? (capabilities.usesColor ? palette.selection : .inverse) : palette.panel
            var row = StyledRow(blank: 2, style: palette.panel)
            row.append(main + side, style: style)
            rows.append(row.fitted(to: width, style: palette.panel))
        }
        if pairs.isEmpty { rows.append(StyledRow(blank: width, style: palette.panel)) }
        rows.append(StyledRow(blank: width, style: palette.panel))
        var foot = StyledRow(blank: 2, style: palette.panel)
        let more = top + visible < pairs.count ? "more below · " : ""
        foot.append(DisplayWidth.truncate(more + footer, to: inner), style: palette.panel.merging(.dim))
        rows.append(foot.fitted(to: width, style: palette.panel))
        return rows
    }
}
