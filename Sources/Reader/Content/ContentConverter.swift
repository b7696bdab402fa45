/// Turns a content document (XHTML, or HTML that is not well-formed) into a `ChapterDocument`.
///
/// One pass over the tokens with a stack of open elements: block elements end the current block,
/// inline elements add styles, white space collapses as in HTML except inside `pre`, soft hyphens
/// become break opportunities, and `script`, `style`, `head` and hidden elements are skipped.
struct ContentConverter {
    private struct Frame {
        let name: String
        let style: InlineStyle
        let link: LinkDestination?
        let hidden: Bool
    }

    private struct ListState {
        let ordered: Bool
        let type: String
        var counter: Int
    }

    private let path: String
    private let styles: BookStyles

    // Output so far.
    private var blocks: [Block] = []
    private var plainText = ""
    private var committed = 0
    private var anchors: [String: Int] = [:]
    private var firstHeading: String?
    private var titleText: String?

    // The block being filled.
    private var runs: [TextRun] = []
    private var blockLength = 0
    private var softHyphens: [Int] = []
    /// Whether the last character written is a collapsible space (or a line break), so more white space adds nothing.
    private var pendingSpace = false
    private var blockKind: Block.Kind = .paragraph
    private var blockRightToLeft = false

    // Context.
    private var frames: [Frame] = []
    private var quoteDepth = 0
    private var lists: [ListState] = []
    private var extraIndent = 0
    private var pendingMarker: String?
    private var noteDepth = 0
    private var preDepth = 0
    private var cellDepth = 0
    private var cellsInRow = 0
    private var inHead = false
    private var inTitle = false
    private var skipDepth = 0

    init(path: String, styles: BookStyles = BookStyles()) {
        self.path = path
        self.styles = styles
    }

    /// Converts the document's bytes.
    static func convert(_ bytes: [UInt8], path: String, styles: BookStyles = BookStyles()) -> ChapterDocument {
        var converter = ContentConverter(path: path, styles: styles)
        var tokenizer = MarkupTokenizer(bytes: bytes)
        while let token = tokenizer.next() { converter.handle(token) }
        return converter.finish()
    }

    private var currentStyle: InlineStyle { frames.last?.style ?? [] }
    private var currentLink: LinkDestination? { frames.last?.link }

    // MARK: - Tokens

    mutating func handle(_ token: MarkupToken) {
        switch token {
        case .text(let text):
            if skipDepth > 0 { return }
            if inHead {
                if inTitle { titleText = (titleText ?? "") + text }
                return
            }
            append(text)
        case .start(let name, let attributes, let selfClosing):
            let isVoid = selfClosing || MarkupElement.voidElements.contains(name)
            if skipDepth > 0 {
                if !isVoid, name != "script", name != "style" { skipDepth += 1 }
                return
            }
            open(name, attributes, isVoid: isVoid)
        case .end(let name):
            if skipDepth > 0 {
                skipDepth -= 1
                if skipDepth == 0 { _ = popFrame(named: name) }
                return
            }
            close(name)
        }
    }

    private mutating func open(_ name: String, _ attributes: [MarkupAttribute], isVoid: Bool) {
        func attribute(_ wanted: String) -> String? {
            attributes.first(where: { $0.name == wanted })?.value
        }
        let classes = attribute("class")?.split(separator: " ").map(String.init) ?? []
        let inlineStyle = attribute("style").map { BookStyles.declarations(Substring($0)) } ?? [:]
        let epubType = (attribute("epub:type") ?? "") + " " + (attribute("role") ?? "")

        switch name {
        case "head":
            if !isVoid { inHead = true }
            return
        case "title" where inHead:
            inTitle = true
            return
        case "script", "style", "template":
            // The tokenizer skips raw text; a self-closed or empty one needs nothing here.
            return
        case "svg":
            // Only an embedded raster image is worth showing; the rest of SVG is drawing.
            if !isVoid { pushFrame(name, style: currentStyle, link: currentLink, hidden: true); skipDepth = 1 }
            return
        default:
            break
        }
        if inHead {
            if name == "link", attribute("rel")?.lowercased().contains("stylesheet") == true { /* read by the book */ }
            return
        }

        let hidden = attributes.contains(where: { $0.name == "hidden" }) || inlineStyle["display"] == "none"
            || classes.contains(where: styles.hiddenClasses.contains)
            || epubType.contains("pagebreak")
        if hidden && !isVoid {
            recordAnchor(attributes)
            pushFrame(name, style: currentStyle, link: currentLink, hidden: true)
            skipDepth = 1
            return
        }
        if hidden { return }

        var style = currentStyle
        var link = currentLink
        switch name {
        case "em", "i", "cite", "dfn", "var": style.insert(.emphasis)
        case "strong", "b": style.insert(.strong)
        case "code", "kbd", "samp", "tt": style.insert(.code)
        case "sup":
            style.insert(.superscript)
            if case .internal = link { style.insert(.noteReference) }
        case "sub": style.insert(.subscript)
        case "a":
            if let href = attribute("href") {
                if let resolved = BookPath.resolve(href, relativeTo: path) {
                    link = .internal(LinkTarget(path: resolved.path, fragment: resolved.fragment))
                } else {
                    link = .external(href)
                }
                style.insert(.link)
                if epubType.contains("noteref") || style.contains(.superscript) {
                    if case .internal = link { style.insert(.noteReference) }
                }
            }
        default: break
        }
        if inlineStyle["font-style"] == "italic" || classes.contains(where: styles.italicClasses.contains) { style.insert(.emphasis) }
        if let weight = inlineStyle["font-weight"], weight == "bold" || (Int(weight) ?? 0) >= 600 { style.insert(.strong) }
        if classes.contains(where: styles.boldClasses.contains) { style.insert(.strong) }
        if inlineStyle["font-variant"] == "small-caps" || classes.contains(where: styles.smallCapsClasses.contains)
            || classes.contains(where: { $0.lowercased() == "smallcaps" || $0.lowercased() == "small-caps" || $0 == "sc" }) {
            style.insert(.smallCaps)
        }
        if let dir = attribute("dir")?.lowercased() {
            if dir == "rtl" { style.insert(.rightToLeft) } else if dir == "ltr" { style.remove(.rightToLeft) }
        }

        // Blocks.
        switch name {
        case "p", "div", "section", "article", "main", "header", "footer", "nav", "figure", "figcaption",
             "address", "center", "hgroup", "details", "summary", "fieldset", "legend", "body", "html",
             "caption", "dt", "noscript", "form":
            breakBlock()
        case "aside":
            breakBlock()
            noteDepth += 1
        case "blockquote":
            breakBlock()
            quoteDepth += 1
        case "h1", "h2", "h3", "h4", "h5", "h6":
            breakBlock()
            blockKind = .heading(level: Int(String(name.dropFirst())) ?? 1)
            style.insert(.heading)
        case "pre":
            breakBlock()
            blockKind = .preformatted
            preDepth += 1
        case "ul", "ol", "menu", "dir":
            breakBlock()
            let start = attribute("start").flatMap { Int($0.trimmed) } ?? 1
            lists.append(ListState(ordered: name == "ol", type: attribute("type") ?? "1", counter: start))
        case "li":
            breakBlock()
            if lists.isEmpty { lists.append(ListState(ordered: false, type: "", counter: 1)) }
            if let value = attribute("value").flatMap({ Int($0.trimmed) }) { lists[lists.count - 1].counter = value }
            pendingMarker = marker(for: lists[lists.count - 1], depth: lists.count)
            lists[lists.count - 1].counter += 1
        case "dd":
            breakBlock()
            extraIndent += 1
        case "tr":
            breakBlock()
            blockKind = .tableRow
            cellsInRow = 0
        case "td", "th":
            if cellsInRow > 0 { appendLiteral(" | ", style: []) }
            cellsInRow += 1
            cellDepth += 1
            if name == "th" { style.insert(.strong) }
        case "table", "thead", "tbody", "tfoot":
            breakBlock()
        case "br":
            if blockLength > 0 {
                if pendingSpace { trimTrailingSpace() }
                appendLiteral("\n", style: style)
                pendingSpace = true // white space after a line break collapses into it
            }
        case "hr":
            breakBlock()
            appendSpecialBlock(.horizontalRule)
        case "img", "image":
            let source = attribute("src") ?? attribute("xlink:href") ?? attribute("href")
            let resolved = source.flatMap { BookPath.resolve($0, relativeTo: path)?.path }
            breakBlock()
            appendSpecialBlock(.image(ImageReference(path: resolved, alt: (attribute("alt") ?? attribute("title") ?? "").trimmed)))
        default:
            break
        }
        if epubType.contains("footnote") || epubType.contains("endnote") || epubType.contains("rearnote") {
            if name != "aside" { breakBlock(); noteDepth += 1 }
        }
        if style.contains(.rightToLeft), blockLength == 0, runs.isEmpty { blockRightToLeft = true }
        recordAnchor(attributes)
        if !isVoid {
            pushFrame(name, style: style, link: link, hidden: false, note: (epubType.contains("footnote") || epubType.contains("endnote") || epubType.contains("rearnote")) && name != "aside")
        }
    }

    private mutating func close(_ name: String) {
        switch name {
        case "head":
            inHead = false
            inTitle = false
            return
        case "title" where inHead:
            inTitle = false
            return
        default: break
        }
        if inHead { return }
        guard popFrame(named: name) != nil else { return }
        switch name {
        case "p", "div", "section", "article", "main", "header", "footer", "nav", "figure", "figcaption",
             "address", "center", "hgroup", "details", "summary", "fieldset", "legend", "body", "html",
             "caption", "dt", "noscript", "form", "li", "table", "thead", "tbody", "tfoot":
            breakBlock()
        case "h1", "h2", "h3", "h4", "h5", "h6":
            if firstHeading == nil {
                let text = currentText.trimmed
                if !text.isEmpty { firstHeading = text.replacingNewlines }
            }
            breakBlock()
        case "aside":
            breakBlock()
            noteDepth = max(0, noteDepth - 1)
        case "blockquote":
            breakBlock()
            quoteDepth = max(0, quoteDepth - 1)
        case "pre":
            breakBlock()
            preDepth = max(0, preDepth - 1)
        case "ul", "ol", "menu", "dir":
            breakBlock()
            if !lists.isEmpty { lists.removeLast() }
            pendingMarker = nil
        case "dd":
            breakBlock()
            extraIndent = max(0, extraIndent - 1)
        case "tr":
            breakBlock()
            cellsInRow = 0
        case "td", "th":
            cellDepth = max(0, cellDepth - 1)
        default:
            break
        }
    }

    // MARK: - Frames

    private var noteFrames: [Bool] = []

    private mutating func pushFrame(_ name: String, style: InlineStyle, link: LinkDestination?, hidden: Bool, note: Bool = false) {
        frames.append(Frame(name: name, style: style, link: link, hidden: hidden))
        noteFrames.append(note)
    }

    /// Closes the nearest open element with this name, and any left open inside it.
    private mutating func popFrame(named name: String) -> Frame? {
        guard let index = frames.lastIndex(where: { $0.name == name }) else { return nil }
        let frame = frames[index]
        let closingNotes = noteFrames[index...].filter { $0 }.count
        if closingNotes > 0 {
            breakBlock()
            noteDepth = max(0, noteDepth - closingNotes)
        }
        frames.removeSubrange(index...)
        noteFrames.removeSubrange(index...)
        return frame
    }

    // MARK: - Text

    private var currentText: String { runs.map(\.text).joined() }

    private mutating func recordAnchor(_ attributes: [MarkupAttribute]) {
        for attribute in attributes where attribute.name == "id" || attribute.name == "name" || attribute.name == "xml:id" {
            let id = attribute.value
            guard !id.isEmpty, anchors[id] == nil else { continue }
            anchors[id] = committed + blockLength
        }
    }

    private mutating func append(_ raw: String) {
        let style = currentStyle
        let link = currentLink
        let text = style.contains(.smallCaps) ? raw.uppercased() : raw
        var chunk = ""
        var chunkLength = 0
        let preserve = preDepth > 0
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{AD}":
                softHyphens.append(blockLength + chunkLength)
                continue
            case " ", "\t", "\n", "\r", "\u{C}":
                if preserve {
                    if scalar == "\r" { continue }
                    if scalar == "\n", blockLength + chunkLength == 0, !sawPreContent {
                        // HTML drops a newline right after `<pre>`.
                        sawPreContent = true
                        continue
                    }
                    if scalar == "\t" {
                        chunk += "    "
                        chunkLength += 4
                    } else {
                        chunk.unicodeScalars.append(scalar == "\u{C}" ? " " : scalar)
                        chunkLength += 1
                    }
                    sawPreContent = true
                    continue
                }
                // The collapsed space goes where the white space began, in that run's style.
                if blockLength + chunkLength > 0, !pendingSpace {
                    chunk += " "
                    chunkLength += 1
                    pendingSpace = true
                }
                continue
            default:
                pendingSpace = false
                chunk.unicodeScalars.append(scalar)
                chunkLength += scalar.value > 0xFFFF ? 2 : 1
                sawPreContent = true
            }
        }
        if !chunk.isEmpty { appendRun(chunk, length: chunkLength, style: style, link: link) }
    }

    private var sawPreContent = false

    private mutating func appendLiteral(_ text: String, style: InlineStyle) {
        let literal = pendingSpace && text.hasPrefix(" ") ? String(text.dropFirst()) : text
        pendingSpace = literal.hasSuffix(" ")
        appendRun(literal, length: literal.utf16.count, style: style, link: nil)
    }

    private mutating func appendRun(_ text: String, length: Int, style: InlineStyle, link: LinkDestination?) {
        if var last = runs.last, last.style == style, last.link == link {
            last.text += text
            runs[runs.count - 1] = last
        } else {
            runs.append(TextRun(text: text, style: style, link: link))
        }
        blockLength += length
    }

    /// Ends the current block, unless inside a table cell, where blocks only separate words.
    private mutating func breakBlock() {
        if cellDepth > 0 {
            if blockLength > 0, !pendingSpace { appendLiteral(" ", style: []) }
            return
        }
        flush()
    }

    private mutating func trimTrailingSpace() {
        guard var last = runs.last, last.text.unicodeScalars.last == " " else { return }
        last.text.unicodeScalars.removeLast()
        blockLength -= 1
        if last.text.isEmpty { runs.removeLast() } else { runs[runs.count - 1] = last }
    }

    private mutating func flush() {
        defer {
            runs = []
            blockLength = 0
            softHyphens = []
            pendingSpace = false
            blockRightToLeft = false
            sawPreContent = false
            blockKind = preDepth > 0 ? .preformatted : .paragraph
        }
        // Trailing spaces and line breaks carry nothing.
        while let last = runs.last, let trailing = last.text.unicodeScalars.last, trailing == "\n" || trailing == " " {
            var text = last.text
            text.unicodeScalars.removeLast()
            blockLength -= 1
            if text.isEmpty { runs.removeLast() } else { runs[runs.count - 1].text = text }
        }
        if blockKind != .preformatted {
            let visible = runs.contains { run in run.text.unicodeScalars.contains { $0 != " " && $0 != "\u{A0}" && $0 != "\n" } }
            if !visible { return }
        } else if runs.isEmpty {
            return
        }
        softHyphens.removeAll { $0 <= 0 || $0 >= blockLength }
        let block = Block(kind: blockKind, runs: runs, range: committed..<committed + blockLength,
                          quoteDepth: quoteDepth, listDepth: lists.count + extraIndent, listMarker: pendingMarker,
                          isNote: noteDepth > 0, isRightToLeft: blockRightToLeft, softHyphens: softHyphens)
        pendingMarker = nil
        blocks.append(block)
        for run in runs { plainText += run.text }
        plainText += "\n"
        committed += blockLength + 1
    }

    private mutating func appendSpecialBlock(_ kind: Block.Kind) {
        blocks.append(Block(kind: kind, runs: [], range: committed..<committed, quoteDepth: quoteDepth,
                            listDepth: lists.count + extraIndent, listMarker: nil, isNote: noteDepth > 0,
                            isRightToLeft: false, softHyphens: []))
    }

    private func marker(for list: ListState, depth: Int) -> String {
        guard list.ordered else { return ["•", "◦", "▪"][(depth - 1) % 3] }
        let n = list.counter
        switch list.type {
        case "a": return Self.letters(n, base: "a") + "."
        case "A": return Self.letters(n, base: "A") + "."
        case "i": return Self.roman(n).lowercased() + "."
        case "I": return Self.roman(n) + "."
        default: return "\(n)."
        }
    }

    private static func letters(_ n: Int, base: Character) -> String {
        guard n > 0, let start = base.asciiValue else { return "\(n)" }
        var value = n
        var out = ""
        while value > 0 {
            value -= 1
            out = String(UnicodeScalar(start + UInt8(value % 26))) + out
            value /= 26
        }
        return out
    }

    private static func roman(_ n: Int) -> String {
        guard n > 0, n < 4000 else { return "\(n)" }
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var value = n
        var out = ""
        for (number, letters) in table { while value >= number { out += letters; value -= number } }
        return out
    }

    mutating func finish() -> ChapterDocument {
        cellDepth = 0
        flush()
        let title = firstHeading ?? titleText.map { $0.trimmed.replacingNewlines }.flatMap { $0.isEmpty ? nil : $0 }
        return ChapterDocument(path: path, title: title, blocks: blocks, plainText: plainText, anchors: anchors,
                               prefersIndentedParagraphs: styles.indentsParagraphs)
    }
}

extension String {
    /// Line breaks and runs of spaces turned into single spaces (for titles).
    var replacingNewlines: String {
        split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
