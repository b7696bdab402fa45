internal import Foundation
import Localization
internal import Speech
public import Terminal

/// The reader's keys: what each does in each mode.
extension ReaderView {
    /// Acts on a key. Returns `false` when the reader asked to quit.
    public mutating func handle(_ key: Key) -> Bool {
        switch mode {
        case .reading:
            session.message = nil
            return handleReading(key)
        case .definition(var list, let lines, let definition):
            // Like a footnote: the arrows scroll it, r reads it aloud, any other key closes it.
            let action = ReaderKeys.panel.action(for: key)
            if let action, [.down, .up, .pageDown, .pageUp].contains(action), scroll(&list, action, count: lines.count)
            {
                mode = .definition(list, lines, definition)
            } else if action == .readAloud {
                session.speak(definition)
            } else {
                session.stopSpeakingLines()
                mode = .reading
            }
        case .note(var list, let lines, let destination):
            // A footnote closes on any key that does not scroll it a line or follow it: space reads on.
            switch ReaderKeys.panel.action(for: key) {
            case .choose?:
                mode = .reading
                session.follow(destination)
            case let action? where [.down, .up].contains(action) && scroll(&list, action, count: lines.count):
                mode = .note(list, lines, destination)
            default:
                mode = .reading
            }
        case .picture(let index, let pictures):
            // z, space and the arrows go through the page's pictures; any other key returns to the page.
            switch key {
            case .character("z"), .character(" "), .right, .tab, .character("l"):
                mode = index + 1 < pictures.count ? .picture(index + 1, pictures) : .reading
            case .left, .backTab, .character("h"), .character("b"):
                mode = .picture(max(0, index - 1), pictures)
            default:
                mode = .reading
            }
        case .confirmOpen(let address):
            mode = .reading
            if [.character("y"), .character("Y"), .character("j"), .character("J")].contains(key) {
                session.message =
                    openLink(address)
                    ? tr("Opened {address} in your browser.", ["address": address])
                    : tr("No browser to open it here; the address is {address}", ["address": address])
            } else {
                session.message = tr("Not opened.")
            }
        case .prompt(var prompt):
            return handlePrompt(key, &prompt)
        case .help(var list):
            // Help has no selection: the keys scroll it; Enter and ? close it too.
            let action = ReaderKeys.panel.action(for: key)
            if action == .close || action == .choose || key == .character("?") {
                mode = .reading
            } else if let action, scroll(&list, action, count: helpRows.count) {
                mode = .help(list)
            }
        case .contents(var list, let items):
            let action = ReaderKeys.panel.action(for: key)
            if typeNumber(key, &list, count: items.count) {
                mode = .contents(list, items)
            } else if action == .choose, items.indices.contains(list.selected) {
                mode = .reading
                if let locator = session.locator(of: items[list.selected]) { session.jump(to: locator) }
            } else if action == .close || key == .character("t") {
                mode = .reading
            } else {
                moveSelection(&list, action, count: items.count, visible: panelRows)
                mode = .contents(list, items)
            }
        case .bookmarks(var list):
            let marks = session.bookmarks
            let action = ReaderKeys.panel.action(for: key)
            if typeNumber(key, &list, count: marks.count) {
                mode = .bookmarks(list)
            } else if action == .choose, marks.indices.contains(list.selected) {
                mode = .reading
                session.goTo(marks[list.selected])
            } else if action == .delete, marks.indices.contains(list.selected) {
                session.removeBookmark(marks[list.selected])
                list.selected = min(list.selected, max(0, session.bookmarks.count - 1))
                mode = session.bookmarks.isEmpty ? .reading : .bookmarks(list)
            } else if action == .close || key == .character("'") {
                mode = .reading
            } else {
                moveSelection(&list, action, count: marks.count, visible: panelRows)
                mode = .bookmarks(list)
            }
        case .links(var list, let links):
            let action = ReaderKeys.panel.action(for: key)
            if typeNumber(key, &list, count: links.count) {
                mode = .links(list, links)
            } else if action == .choose, links.indices.contains(list.selected) {
                mode = .reading
                follow(links[list.selected])
            } else if action == .close {
                mode = .reading
            } else {
                moveSelection(&list, action, count: links.count, visible: panelRows)
                mode = .links(list, links)
            }
        case .highlight(var list, let targets):
            handleHighlight(key, &list, targets)
        }
        return true
    }

    /// A key in the panel that chooses a paragraph: a colour key (1–5) asks for a note, `x`
    /// removes its highlight, `r` reads it aloud.
    private mutating func handleHighlight(_ key: Key, _ list: inout ListState, _ targets: [HighlightTarget]) {
        let action = ReaderKeys.panel.action(for: key)
        let chosen = targets.indices.contains(list.selected) ? targets[list.selected] : nil
        if case .character(let character) = key, let chosen,
            let color = HighlightColor.allCases.first(where: { $0.key == character })
        {
            mode = .prompt(Prompt(kind: .note(chosen, color), text: session.highlight(covering: chosen)?.note ?? ""))
        } else if action == .delete, let chosen, let existing = session.highlight(covering: chosen) {
            session.removeHighlight(existing)
            session.message = tr("Highlight removed.")
            mode = .reading
        } else if action == .readAloud, let chosen {
            mode = .reading
            session.readAloud(from: chosen)
        } else if action == .close || key == .character("v") {
            mode = .reading
        } else {
            moveSelection(&list, action, count: targets.count, visible: panelRows)
            mode = .highlight(list, targets)
        }
    }

    /// Follows a link: a footnote reference shows the note over the page; inside the book at
    /// once; out of it only after asking.
    mutating func follow(_ link: VisibleLink) {
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

    mutating func handleReading(_ key: Key) -> Bool {
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
        guard let action = ReaderKeys.page.action(for: key) else { return true }
        return perform(action)
    }

    /// Does what a key on the page does (``ReaderKeys/page`` binds the keys). Returns `false` to quit.
    mutating func perform(_ action: ReaderKeys.PageAction) -> Bool {
        let scrolling = session.preferences.flow == .scroll
        switch action {
        case .nextPage: session.nextPage()
        case .previousPage: session.previousPage()
        case .lineDown: if scrolling { session.scroll(lines: 1) } else { session.nextPage() }
        case .lineUp: if scrolling { session.scroll(lines: -1) } else { session.previousPage() }
        case .wheelDown: if scrolling { session.scroll(lines: 3) } else { session.nextPage() }
        case .wheelUp: if scrolling { session.scroll(lines: -3) } else { session.previousPage() }
        case .start: session.goToStart()
        case .end: session.goToEnd()
        case .nextChapterOrHit: if session.search != nil { session.nextHit() } else { session.nextChapter() }
        case .previousHitOrChapter:
            if session.search != nil { session.previousHit() } else { session.previousChapter() }
        case .previousChapter: session.previousChapter()
        case .readAloud: session.toggleReadingAloud()
        case .escape:
            if session.isReadingAloud {
                session.stopReadingAloud()
            } else if session.search != nil {
                session.clearSearch()
                session.message = tr("Search ended; n and p turn chapters again.")
            }
        case .contents: showContents()
        case .search: mode = .prompt(Prompt(kind: .search))
        case .command: mode = .prompt(Prompt(kind: .command))
        case .define: mode = .prompt(Prompt(kind: .command, text: "define "))
        case .faster, .slower:
            let step = action == .faster ? 25 : -25
            // eSpeak NG's range and its own rate when none is chosen; speech-dispatcher's is mapped from it.
            let current = session.preferences.speechRate ?? SpeechOptions(voice: "").rate
            let rate = min(SpeechOptions.rates.upperBound, max(SpeechOptions.rates.lowerBound, current + step))
            session.setSpeech { $0.speechRate = rate }
        case .nextHeading: session.nextHeading()
        case .previousHeading: session.previousHeading()
        case .bookmark: session.toggleBookmark()
        case .bookmarks:
            if session.bookmarks.isEmpty {
                session.message = tr("No bookmarks yet; m adds one here.")
            } else {
                let here = session.topLocator
                mode = .bookmarks(ListState(selected: session.bookmarks.lastIndex { $0.locator <= here } ?? 0))
            }
        case .highlight:
            let targets = session.highlightTargets()
            guard !targets.isEmpty else {
                session.message = tr("Nothing on this page to highlight.")
                return true
            }
            mode = .highlight(ListState(), targets)
        case .followLink: followLinkOnPage()
        case .back: session.goBack()
        case .brighter, .dimmer:
            session.updatePreferences { $0.brightness += action == .brighter ? 1 : -1 }
            session.message = tr("Brightness {level}.", ["level": session.preferences.brightness])
        case .help: mode = .help(ListState())
        case .zoomPicture:
            let pictures = session.visiblePages().joined().compactMap { visible -> PagePicture? in
                guard case .image(let image) = visible.line.role else { return nil }
                return PagePicture(image: image, spineIndex: visible.spineIndex)
            }
            if pictures.isEmpty {
                session.message = tr("No picture on this page.")
            } else if capabilities.screenReader {
                // Nothing to see: the pictures' descriptions, said in a line.
                let labels = pictures.map(\.image.alt)
                session.message = tr(
                    "Pictures: {labels}", ["labels": labels.map { $0.isEmpty ? "–" : $0 }.joined(separator: "; ")])
            } else {
                mode = .picture(0, pictures)
            }
        case .popOutWords:
            if session.fixedSpread().isEmpty {
                session.message = tr("Only a picture book's pages have words to show beside the picture.")
            } else {
                session.popsOutWords.toggle()
                if session.popsOutWords, session.fixedSpread().allSatisfy(\.words.isEmpty) {
                    session.message = tr("This page has no words besides its picture.")
                }
            }
        case .quit: return false
        }
        return true
    }

    /// `t`: the contents, with the current chapter chosen.
    private mutating func showContents() {
        let items = session.tableOfContents()
        guard !items.isEmpty else {
            session.message = tr("This book has no table of contents.")
            return
        }
        var list = ListState(selected: items.lastIndex(where: \.isCurrent) ?? 0)
        list.top = max(0, list.selected - panelRows / 2)
        mode = .contents(list, items)
    }

    /// Enter or f: the one link on the page followed, or a list of them to choose from.
    private mutating func followLinkOnPage() {
        let links = linksToFollow()
        switch links.count {
        case 0: session.message = tr("No links on this page.")
        case 1: follow(links[0])
        default: mode = .links(ListState(), links)
        }
    }

    /// The links on the page that Enter can follow, in order: the list it offers, and the
    /// numbers a screen reader hears them by (``transcript()``).
    func linksToFollow() -> [VisibleLink] {
        session.visibleLinks().filter { link in
            if case .external(let address) = link.destination { return LinkOpener.canOpen(address) }
            return true
        }
    }

    mutating func handlePrompt(_ key: Key, _ prompt: inout Prompt) -> Bool {
        switch key {
        case .character(let character):
            completionStem = nil
            prompt.text.append(character)
        case .backspace:
            completionStem = nil
            if prompt.text.isEmpty {
                mode = .reading
                return true
            }
            prompt.text.removeLast()
        case .ctrl("u"):
            prompt.text = ""
        case .escape, .ctrl("c"), .ctrl("g"):
            mode = .reading
            return true
        case .enter:
            mode = .reading
            return submit(prompt)
        case .tab:
            completeWordOnPage(&prompt)
        default:
            break
        }
        mode = .prompt(prompt)
        return true
    }

    /// Tab after `:define`: the page's next word that begins with what is typed — the words on the
    /// screen are the ones looked up, and Tab again goes on to the next, in the page's order.
    mutating func completeWordOnPage(_ prompt: inout Prompt) {
        guard case .command = prompt.kind else { return }
        let parts = prompt.text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, ReaderCommandDefinition.byName[parts[0].lowercased()]?.names.first == "define"
        else { return }
        let typed = String(parts[1])
        let top = session.topLocator
        let bottom = session.bottomLocator
        let document = session.content.document(at: top.spineIndex)
        let end = bottom.spineIndex == top.spineIndex ? bottom.offset : document.length
        var words: [String] = []
        for word in document.text(in: top.offset..<max(top.offset, end)).split(whereSeparator: { !$0.isLetter }) {
            let word = String(word)
            if word.count > 1, !words.contains(word) { words.append(word) }
        }
        // Completing a word already completed goes on to the next one with the same start.
        let stem = completionStem ?? typed
        let matching = words.filter { $0.lowercased().hasPrefix(stem.lowercased()) }
        guard !matching.isEmpty else { return }
        let next = matching.firstIndex(of: typed).map { matching[($0 + 1) % matching.count] } ?? matching[0]
        prompt.text = String(parts[0]) + " " + next
        completionStem = stem
    }

    mutating func submit(_ prompt: Prompt) -> Bool {
        let text = prompt.text
        switch prompt.kind {
        case .search:
            guard !text.isEmpty else {
                if let pattern = session.search?.pattern {
                    session.message = tr("Searching for \"{pattern}\"; n and N move.", ["pattern": pattern])
                }
                return true
            }
            do { try session.search(text) } catch { session.message = error.message }
        case .command:
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return true }
            switch ReaderCommand.parse(text) {
            case .success(.pictures(let setting)):
                _ = session.perform(.pictures(setting))
                session.message = usePictures(setting)
            case .success(let command):
                let going = session.perform(command)
                if let definition = session.definition {
                    session.definition = nil
                    let width = max(10, min(screenColumns - 2, 76) - 4)
                    let lines = definition.lines.flatMap { DisplayWidth.wrap($0, width: width) }
                    mode = .definition(ListState(), lines, definition)
                }
                return going
            case .failure(let error): session.message = error.message
            }
        case .note(let target, let color):
            if var existing = session.highlight(covering: target) {
                existing.color = color
                existing.note = text.isEmpty ? nil : text
                session.saveHighlight(existing)
                session.message = tr("Highlight changed.")
            } else {
                session.addHighlight(target, color: color, note: text)
            }
        }
        return true
    }

    /// A digit typed in a list to choose from (contents, bookmarks, links): the row of the number
    /// typed so far is chosen (`1`, then `12`), and Enter goes there, so that every row is
    /// reached by its number as well as by the arrows. Returns whether `key` was a digit; any
    /// other key starts the number afresh.
    func typeNumber(_ key: Key, _ list: inout ListState, count: Int) -> Bool {
        guard ReaderKeys.panel.action(for: key) == .number, case .character(let character) = key,
            let digit = character.wholeNumberValue
        else {
            list.typed = ""
            return false
        }
        list.typed += String(digit)
        if let number = Int(list.typed), !(1...max(1, count)).contains(number) { list.typed = String(digit) }
        if let number = Int(list.typed), (1...max(1, count)).contains(number), number <= count {
            list.selected = number - 1
            moveSelection(&list, nil, count: count, visible: panelRows)
        }
        return true
    }

    /// Moves the selection of a list of `count` lines, `visible` of them on screen.
    func moveSelection(_ list: inout ListState, _ action: ReaderKeys.PanelAction?, count: Int, visible: Int) {
        guard count > 0 else { return }
        switch action {
        case .down?: list.selected += 1
        case .up?: list.selected -= 1
        case .pageDown?: list.selected += max(1, visible - 1)
        case .pageUp?: list.selected -= max(1, visible - 1)
        case .first?: list.selected = 0
        case .last?: list.selected = count - 1
        default: break
        }
        list.selected = max(0, min(count - 1, list.selected))
        if list.selected < list.top { list.top = list.selected }
        if list.selected >= list.top + visible { list.top = list.selected - visible + 1 }
        list.top = max(0, min(list.top, max(0, count - visible)))
    }

    /// Scrolls a panel without a selection (a footnote, the help) of `count` lines; false when
    /// `action` does not scroll.
    func scroll(_ list: inout ListState, _ action: ReaderKeys.PanelAction, count: Int) -> Bool {
        let limit = max(0, count - panelRows)
        switch action {
        case .down: list.top += 1
        case .up: list.top -= 1
        case .pageDown: list.top += panelRows
        case .pageUp: list.top -= panelRows
        case .first: list.top = 0
        case .last: list.top = limit
        default: return false
        }
        list.top = max(0, min(limit, list.top))
        return true
    }
}
