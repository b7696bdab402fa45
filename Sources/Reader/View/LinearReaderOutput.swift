internal import Terminal

/// The reader for a screen reader or braille display: no alternate screen, no frame, no
/// repaint. What is new is written once, as lines of words below what was written before, and
/// the cursor — the only focus a screen reader or braille display follows — is put at its
/// start: the first line of a new page, the chosen entry of a list, a message.
///
/// It writes the ``ReaderTranscript`` the view makes, comparing it with the one written last:
/// a page is written when its text changed, a panel when it opened, a moved selection only
/// moves the cursor, and a line being typed grows by the characters typed.
final class LinearReaderOutput: ReaderOutput {
    /// What was written last; nil writes everything again.
    private var said: ReaderTranscript?
    /// How many rows above the end of what was written the cursor sits.
    private var cursorUp = 0
    /// For the panel written last, each row's distance in rows from the end of what was
    /// written; nil once anything was written after it.
    private var panelRowsFromEnd: [Int]?
    /// Whether the cursor is at the end of a line being typed.
    private var promptOpen = false
    /// Whether a key was handled since the last draw: its message is said even when the key
    /// before said the same (`No links on this page.` twice).
    private var keyed = false

    func take() {}

    func giveBack() {
        var output = backToEnd()
        if promptOpen { output += "\r\n" }
        promptOpen = false
        Screen.write(output)
    }

    func forget() {
        said = nil
        panelRowsFromEnd = nil
    }

    func keyHandled() { keyed = true }

    func draw(_ view: ReaderView) {
        let now = view.transcript()
        let columns = view.screenColumns
        var output = ""
        var lines: [String] = []
        var cursorLine: Int?
        if now.prompt == nil, promptOpen {
            output += "\r\n"
            promptOpen = false
        }
        if now.page != said?.page {
            lines += [now.place] + now.page
        } else if said?.panel != nil, now.panel == nil {
            // Back on the page from a panel: where it is, not the page again (Ctrl-L says that).
            lines.append(now.place)
        }
        var panelStart: Int?
        if let panel = now.panel {
            if let before = said?.panel, before.hasSameRows(as: panel), lines.isEmpty {
                if before.list.selected != panel.list.selected, panel.selects {
                    if let moved = moveToRow(panel.list.selected, screenRows: view.screenRows) {
                        output += moved
                    } else {
                        cursorLine = lines.count
                        lines.append(now.panelLines[panel.list.selected])
                    }
                }
            } else {
                panelStart = lines.count
                lines += [now.panelHelp ?? panel.title] + now.panelLines
                if panel.selects, now.panelLines.indices.contains(panel.list.selected) {
                    cursorLine = lines.count - now.panelLines.count + panel.list.selected
                }
            }
        }
        // A message on the page is the last key's own (a key clears it there); in a panel it stays.
        let fresh = keyed && now.panel == nil && now.prompt == nil
        if let message = now.message, message != said?.message || fresh || !lines.isEmpty {
            lines.append(message)
        }
        keyed = false
        if !lines.isEmpty {
            output += backToEnd() + lines.map { $0 + "\r\n" }.joined()
            let heights = lines.map { Self.rows(of: $0, columns: columns) }
            let total = heights.reduce(0, +)
            panelRowsFromEnd = panelStart.map { start in
                (start + 1..<lines.count).map { index in heights[index...].reduce(0, +) }
            }
            // The start of what is new, or the chosen entry of a list, as far up as the window reaches.
            let line = cursorLine ?? 0
            cursorUp = min(heights[line...].reduce(0, +), max(0, view.screenRows - 1), total)
            if cursorUp > 0 { output += "\u{1B}[\(cursorUp)A" }
        }
        if let prompt = now.prompt {
            output += typing(prompt, after: promptOpen ? said?.prompt : nil)
            promptOpen = true
        }
        said = now
        if !output.isEmpty { Screen.write(output) }
    }

    /// Moves the cursor from where it is to the panel's row `index`, when that row is still in
    /// the window; nil when it is not (the row is written again instead).
    private func moveToRow(_ index: Int, screenRows: Int) -> String? {
        guard let rows = panelRowsFromEnd, rows.indices.contains(index), rows[index] <= screenRows - 1 else {
            return nil
        }
        let target = rows[index]
        defer { cursorUp = target }
        if target > cursorUp { return "\r\u{1B}[\(target - cursorUp)A" }
        if target < cursorUp { return "\r\u{1B}[\(cursorUp - target)B" }
        return ""
    }

    /// Back from where the cursor was put down to below the last line written.
    private func backToEnd() -> String {
        defer { cursorUp = 0 }
        guard cursorUp > 0 else { return "" }
        return "\u{1B}[\(cursorUp)B\r"
    }

    /// The line being typed: what was added to it, a character rubbed out with Backspace, or
    /// the whole line when it began (or changed otherwise, Ctrl-U).
    private func typing(_ prompt: String, after before: String?) -> String {
        guard let before else {
            panelRowsFromEnd = nil
            return backToEnd() + prompt
        }
        if prompt.hasPrefix(before) { return String(prompt.dropFirst(before.count)) }
        if before.hasPrefix(prompt) {
            return String(repeating: "\u{8} \u{8}", count: DisplayWidth.of(String(before.dropFirst(prompt.count))))
        }
        return "\r" + ScreenCode.clearLine + prompt
    }

    /// How many rows of a window `columns` wide a line takes.
    static func rows(of line: String, columns: Int) -> Int {
        max(1, (DisplayWidth.of(line) + max(1, columns) - 1) / max(1, columns))
    }
}
