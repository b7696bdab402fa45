internal import Foundation
import Localization
internal import Terminal

/// The reader in words, for a screen reader or braille display: what ``LinearReaderOutput``
/// writes instead of drawing frames. The view decides what is said; the output, how.
extension ReaderView {
    /// The page, the panel, the message and the prompt as lines of words.
    func transcript() -> ReaderTranscript {
        let panel = panelContent()
        var message = session.message
        if case .confirmOpen(let address) = mode { message = openQuestion(address) }
        // A hit is marked on the page by colour alone: it is said with the words around it.
        if let said = message, let hit = session.currentHit,
            [false, true].contains(where: { session.hitMessage(wrapped: $0) == said })
        {
            message = said + ": " + Self.wholeWords(hit.context)
        }
        var prompt: String?
        if case .prompt(let typing) = mode { prompt = typing.label + typing.text }
        return ReaderTranscript(
            page: spokenPage(), place: spokenPlace(), panel: panel,
            panelLines: panel.map(spokenRows) ?? [], panelHelp: panel.map(spokenPanelHelp), message: message,
            prompt: prompt)
    }

    /// `Chapter 3 — The Ferry. Page 2 of 14.`
    func spokenPlace() -> String {
        let page = session.pageInChapter
        let count = (page.isEstimate ? "~" : "") + "\(page.count)"
        let pageWords = tr("Page {page} of {count}.", ["page": page.page, "count": count])
        guard let chapter = session.currentChapterTitle(waitingForContents: waitsForContents), !chapter.isEmpty
        else { return pageWords }
        return chapter + ". " + pageWords
    }

    /// The page's lines in words: `Heading: Chapter 3`, `List item 2: …`, `Link 1: …`,
    /// `Footnote: …`, `Image: a map of the harbour`; blank lines between blocks kept once.
    func spokenPage() -> [String] {
        var numbers = LinkNumbers(links: linksToFollow())
        var lines: [String] = []
        var previousRole: LayoutLine.Role?
        for visible in session.visiblePages().joined() {
            let line = visible.line
            defer { previousRole = line.role }
            switch line.role {
            case .blank, .horizontalRule, .imageSpace:
                if lines.last?.isEmpty == false { lines.append("") }
            case .image(let image):
                lines.append(
                    image.alt.isEmpty
                        ? tr("Image without a description.") : tr("Image: {description}", ["description": image.alt]))
            case .heading:
                let text = spokenText(line, numbers: &numbers)
                if case .heading = previousRole, lines.last?.isEmpty == false {
                    lines.append(text)
                } else {
                    lines.append(tr("Heading: {text}", ["text": text]))
                }
            case .note:
                let text = spokenText(line, numbers: &numbers)
                lines.append(previousRole == .note ? text : tr("Footnote: {text}", ["text": text]))
            case .text, .tableRow, .preformatted:
                lines.append(spokenText(line, numbers: &numbers))
            }
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines
    }

    /// The words of a line: a list marker said as `List item 3:`, links with their numbers,
    /// spaces added to justify it taken out again.
    private func spokenText(_ line: LayoutLine, numbers: inout LinkNumbers) -> String {
        var text = ""
        var marker: String?
        for run in line.runs {
            // Text the layout added to a line of text is a list item's marker (`•`, `3.`).
            if run.sourceOffset == nil, run.link == nil, line.role != .preformatted,
                !run.text.allSatisfy(\.isWhitespace)
            {
                marker = run.text.trimmingCharacters(in: .whitespaces)
                continue
            }
            if let destination = run.link {
                if let number = numbers.next(destination) {
                    let words =
                        run.style.contains(.noteReference)
                        ? tr("Footnote link {n}:", ["n": number]) : tr("Link {n}:", ["n": number])
                    text += (text.isEmpty || text.hasSuffix(" ") ? "" : " ") + words + " "
                }
            } else if !run.text.allSatisfy(\.isWhitespace) {
                numbers.leftLink()
            }
            text += run.text
        }
        if line.role != .preformatted { text = Self.collapsingSpaces(text) }
        guard let marker else { return text }
        let label = marker.trimmingCharacters(in: CharacterSet(charactersIn: ".)"))
        return label.contains(where: \.isLetter) || label.contains(where: \.isNumber)
            ? tr("List item {marker}: {text}", ["marker": label, "text": text])
            : tr("List item: {text}", ["text": text])
    }

    /// A search hit's context without the pieces of words cut at its ends: `…a lamp burning…`.
    static func wholeWords(_ context: String) -> String {
        var words = collapsingSpaces(context).split(separator: " ")
        let cutBefore = words.first?.hasPrefix("…") == true && words.count > 3
        let cutAfter = words.last?.hasSuffix("…") == true && words.count > 3
        if cutBefore { words.removeFirst() }
        if cutAfter { words.removeLast() }
        return (cutBefore ? "…" : "") + words.joined(separator: " ") + (cutAfter ? "…" : "")
    }

    /// The text with runs of spaces as one and none at its ends.
    static func collapsingSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// A panel's rows as a screen reader reads them: `3. Chapter 3, page 41`.
    func spokenRows(_ panel: PanelContent) -> [String] {
        // The keys a line each, not in the box's columns: a voice reads no columns.
        if panel.kind == .help { return helpLines.map { $0.0 + ": " + $0.1 } }
        return panel.rows.enumerated().map { index, row in
            let text = Self.collapsingSpaces(row.0.replacingOccurrences(of: "◂", with: ""))
            let current = row.0.contains("◂") ? " (" + tr("you are here") + ")" : ""
            let side =
                row.1.isEmpty ? "" : ", " + (panel.kind == .contents ? tr("page {page}", ["page": row.1]) : row.1)
            return (panel.selects ? "\(index + 1). " : "") + text + side + current
        }
    }

    /// How to use a panel, in words: a number and Enter, or the arrows; Esc closes.
    func spokenPanelHelp(_ panel: PanelContent) -> String {
        let count = trn("{n} entry", "{n} entries", panel.rows.count)
        switch panel.kind {
        case .contents, .bookmarks, .links:
            return panel.title + ", " + count + ". "
                + tr("Type a number and Enter to go there, or move with the arrow keys; Esc closes.")
        case .highlight:
            return panel.title + ", " + count + ". "
                + tr("Move with the arrow keys; 1 to 5 gives a colour, x removes it, r reads aloud; Esc closes.")
        case .note:
            return panel.title + ". " + tr("Enter goes to the note; any other key closes it.")
        case .help:
            return panel.title + ". " + tr("Esc closes.")
        case .definition:
            return tr("Dictionary: {word}.", ["word": panel.title]) + " " + tr("Esc closes.")
        }
    }
}

/// The numbers links are said by on a page: the numbers Enter's list of links gives them, a
/// link broken over two lines said once.
struct LinkNumbers {
    private let links: [VisibleLink]
    private var next = 0
    private var current: LinkDestination?

    init(links: [VisibleLink]) {
        self.links = links
    }

    /// The number of a run's link when it starts a link (nil when it goes on the one before, or
    /// is not in the list).
    mutating func next(_ destination: LinkDestination) -> Int? {
        guard destination != current else { return nil }
        current = destination
        guard next < links.count, links[next].destination == destination else { return nil }
        next += 1
        return next
    }

    /// Text that is not a link came: the next run of a link starts a new one.
    mutating func leftLink() { current = nil }
}
