import Markup
import TextSafety

/// Turns a content document (XHTML, or HTML that is not well-formed) into a `ChapterDocument`.
///
/// One pass over the tokens with a stack of open elements: block elements end the current block,
/// inline elements add styles, white space collapses as in HTML except inside `pre`, soft hyphens
/// become break opportunities, and `script`, `head` and hidden elements are skipped. A `<style>`
/// adds its rules to the book's; an `<iframe>` of another document of the book shows it in place.
struct ContentConverter {
    private struct Frame {
        let name: String
        let style: InlineStyle
        let link: LinkDestination?
        let hidden: Bool
        /// Where a passage in another language than its surroundings began (`xml:lang`), if this element starts one.
        var languageStart: (offset: Int, language: String)?
        /// For an inline element floated or positioned out of the text (a verse's line number):
        /// the block's state when it opened, to take its text out again if it is only a number.
        var margin: MarginStart?
    }

    private struct MarginStart {
        let blocks: Int
        let runs: Int
        let lastRunLength: Int?
        let blockLength: Int
        let pendingSpace: Bool
    }

    private var path: String
    /// The book's stylesheets, and then the rules of the chapter's own `<style>` elements.
    private var styles: BookStyles
    /// The other content documents of the book an `<iframe>` shows.
    private var documents: EmbeddedDocuments
    private var inStyle = false

    // Output so far.
    private var blocks: [Block] = []
    private var plainText = ""
    private var committed = 0
    private var anchors: [String: Int] = [:]
    private var languageSpans: [LanguageSpan] = []
    private var firstHeading: String?
    private var titleText: String?

    // The block being filled.
    private var runs: [TextRun] = []
    private var blockLength = 0
    private var softHyphens: [Int] = []
    /// Whether the last character written is a collapsible space (or a line break), so more white space adds nothing.
    private var pendingSpace = false
    private var blockKind: Block.Kind = .paragraph
    /// The direction the innermost open block element declares (`dir`), for the blocks it holds.
    private var blockDirection: TextDirection?

    // Context.
    private var frames: [Frame] = []
    private var quoteDepth = 0
    private var lists = ListNumbering()
    private var extraIndent = 0
    private var noteDepth = 0
    private var preDepth = 0
    private var cellDepth = 0
    private var cellsInRow = 0
    /// Open `nav` elements: their ordered lists show no numbers.
    private var navDepth = 0
    private var inHead = false
    private var inTitle = false
    private var skipDepth = 0

    init(
        path: String, styles: BookStyles = BookStyles(),
        embeddedDocument: (@Sendable (String) -> [UInt8]?)? = nil
    ) {
        self.path = path
        self.styles = styles
        documents = EmbeddedDocuments(source: embeddedDocument)
    }

    /// Converts the document's bytes.
    ///
    /// - Parameter embeddedDocument: the bytes of a content document an `<iframe>` shows, by its path.
    static func convert(
        _ bytes: [UInt8], path: String, styles: BookStyles = BookStyles(),
        embeddedDocument: (@Sendable (String) -> [UInt8]?)? = nil
    ) -> ChapterDocument {
        var converter = ContentConverter(path: path, styles: styles, embeddedDocument: embeddedDocument)
        var tokenizer = MarkupTokenizer(bytes: bytes)
        tokenizer.returnsStyleText = true
        while let token = tokenizer.next() { converter.handle(token) }
        return converter.finish()
    }

    private var currentStyle: InlineStyle { frames.last?.style ?? [] }
    private var currentLink: LinkDestination? { frames.last?.link }

    // MARK: - Tokens

    mutating func handle(_ token: MarkupToken) {
        if gatherer.isGathering {
            if gatherer.take(token) { finishMath() }
            return
        }
        if case .start(let name, let attributes, let selfClosing) = token, skipDepth == 0, !inHead,
            ElementGatherer.gathers(name, attributes)
        {
            // MathML is gathered whole and shown as text (MathLinearizer); SVG as its picture or
            // its title; an object that is a picture as the picture, its fallback as its words.
            gatherer.begin(name, attributes)
            if selfClosing { finishMath() }
            return
        }
        switch token {
        case .text(let text):
            if skipDepth > 0 { return }
            if inStyle {
                // The chapter's own stylesheet: its rules apply from here on, as the book's do.
                styles.add(css: text)
                return
            }
            if inHead {
                if inTitle, documents.depth == 0 { titleText = (titleText ?? "") + text }
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
                // A script or style opened inside skipped content was not counted.
                if name == "script" || name == "style" { return }
                skipDepth -= 1
                if skipDepth == 0 { _ = popFrame(named: name) }
                return
            }
            close(name)
        }
    }

    /// A `<style>` for print or another medium than a screen, whose rules a reader does not use.
    private func isStylesheetForOtherMedia(_ media: String?) -> Bool {
        guard let media = media?.lowercased().trimmed, !media.isEmpty else { return false }
        return !(media.contains("screen") || media.contains("all"))
    }

    private mutating func open(_ name: String, _ attributes: [MarkupAttribute], isVoid: Bool) {
        func attribute(_ wanted: String) -> String? {
            attributes.first(where: { $0.name == wanted })?.value
        }
        let kind = ElementKind(name: name)
        if language == nil, documents.depth == 0, name == "html" || name == "body",
            let lang = attribute("xml:lang") ?? attribute("lang"),
            !lang.isEmpty
        {
            language = lang
        }

        switch kind {
        case .head:
            if !isVoid { inHead = true }
            return
        case .title where inHead:
            inTitle = true
            return
        case .raw:
            // The tokenizer skips raw text, except a `<style>`'s, which is read (in `handle`).
            if name == "style", !isVoid, !isStylesheetForOtherMedia(attribute("media")) { inStyle = true }
            return
        case .svg:
            // Only an embedded raster image is worth showing; the rest of SVG is drawing.
            if !isVoid {
                pushFrame(name, style: currentStyle, link: currentLink, hidden: true)
                skipDepth = 1
            }
            return
        default:
            break
        }
        if inHead { return }

        // Most tags have no attributes; only look at classes, styles and types when there are some.
        var classes: [Substring] = []
        var inlineStyle: [String: String] = [:]
        var types: [Substring] = []
        var hidden = false
        if !attributes.isEmpty {
            classes = attribute("class")?.split(separator: " ") ?? []
            inlineStyle = attribute("style").map { BookStyles.declarations(Substring($0)) } ?? [:]
            types =
                (attribute("epub:type") ?? "").split(separator: " ") + (attribute("role") ?? "").split(separator: " ")
            hidden =
                attributes.contains(where: { $0.name == "hidden" }) || BookStyles.hides(inlineStyle)
                || classes.contains(where: { styles.hiddenClasses.contains(String($0)) })
                || types.contains(where: { $0.hasSuffix("pagebreak") })
        }
        if !hidden, kind == .notShown { hidden = true }
        if !hidden, !styles.hiddenIDs.isEmpty, let id = attribute("id"), styles.hiddenIDs.contains(id) { hidden = true }
        if hidden {
            recordAnchor(attributes)
            if !isVoid {
                pushFrame(name, style: currentStyle, link: currentLink, hidden: true)
                skipDepth = 1
            }
            return
        }
        let isNoteContainer = types.contains {
            $0.hasSuffix("footnote") || $0.hasSuffix("endnote") || $0.hasSuffix("rearnote")
        }

        var style = currentStyle
        var link = currentLink
        switch kind {
        case .emphasis: style.insert(.emphasis)
        case .strong: style.insert(.strong)
        case .code: style.insert(.code)
        case .superscript:
            style.insert(.superscript)
            if case .internal = link { style.insert(.noteReference) }
        case .subscript: style.insert(.subscript)
        case .anchor:
            if let href = attribute("href") {
                if let resolved = BookPath.resolve(href, relativeTo: path) {
                    link = .internal(LinkTarget(path: resolved.path, fragment: resolved.fragment))
                } else {
                    link = .external(href)
                }
                style.insert(.link)
                if types.contains(where: { $0.hasSuffix("noteref") }) || style.contains(.superscript) {
                    if case .internal = link { style.insert(.noteReference) }
                }
            }
        default: break
        }
        if !attributes.isEmpty {
            if inlineStyle["font-style"] == "italic"
                || classes.contains(where: { styles.italicClasses.contains(String($0)) })
            {
                style.insert(.emphasis)
            }
            if let weight = inlineStyle["font-weight"], weight == "bold" || (Int(weight) ?? 0) >= 600 {
                style.insert(.strong)
            }
            if classes.contains(where: { styles.boldClasses.contains(String($0)) }) { style.insert(.strong) }
            if inlineStyle["font-variant"] == "small-caps" || BookStyles.upperCases(inlineStyle)
                || classes.contains(where: {
                    styles.smallCapsClasses.contains(String($0)) || $0 == "smallcaps" || $0 == "small-caps"
                        || $0 == "sc"
                })
            {
                style.insert(.smallCaps)
            }
            if let dir = attribute("dir")?.lowercased() {
                if dir == "rtl" {
                    style.insert(.rightToLeft)
                    style.remove(.leftToRight)
                } else if dir == "ltr" {
                    style.insert(.leftToRight)
                    style.remove(.rightToLeft)
                }
                // `<bdo>` sets its letters in its direction, whatever theirs (HTML's bidi-override);
                // `dir` on an element inside it starts an ordinary passage again.
                if name == "bdo", dir == "rtl" || dir == "ltr" {
                    style.insert(.directionOverride)
                } else {
                    style.remove(.directionOverride)
                }
            }
        }

        if name == "bdi", TextDirection(dir: attribute("dir")) == nil {
            // A `<bdi>` without `dir` is isolated from its sentence, its direction its own (dir=auto).
            style.insert(.isolate)
            style.remove([.rightToLeft, .leftToRight, .directionOverride])
        }
        if name == "nav", !isVoid { navDepth += 1 }
        // Blocks.
        switch kind {
        case .block, .tableGroup:
            breakBlock()
        case .aside:
            breakBlock()
            noteDepth += 1
        case .blockquote:
            breakBlock()
            quoteDepth += 1
        case .heading(let level):
            breakBlock()
            blockKind = .heading(level: level)
            style.insert(.heading)
        case .pre:
            breakBlock()
            blockKind = .preformatted
            preDepth += 1
        case .list(let ordered):
            breakBlock()
            lists.openList(ordered: ordered, attributes)
        case .listItem:
            breakBlock()
            // A navigation document's lists are not numbered (EPUB: list-style none in nav).
            lists.openItem(value: attribute("value").flatMap { Int($0.trimmed) }, shown: navDepth == 0)
        case .definition:
            breakBlock()
            extraIndent += 1
        case .tableRow:
            breakBlock()
            blockKind = .tableRow
            cellsInRow = 0
        case .tableCell(let header):
            if cellsInRow > 0 { appendLiteral(" | ", style: []) }
            cellsInRow += 1
            cellDepth += 1
            if header { style.insert(.strong) }
        case .lineBreak:
            if blockLength > 0 {
                if pendingSpace { trimTrailingSpace() }
                appendLiteral("\n", style: style)
                pendingSpace = true  // white space after a line break collapses into it
            }
        case .rule:
            breakBlock()
            appendSpecialBlock(.horizontalRule)
        case .frame:
            breakBlock()
            recordAnchor(attributes)
            showFrame(source: attribute("src"), title: attribute("title"))
            // What an iframe holds is the fallback of browsers without frames, not content.
            if !isVoid {
                pushFrame(name, style: currentStyle, link: currentLink, hidden: true)
                skipDepth = 1
            }
            return
        case .image:
            let source = attribute("src") ?? attribute("xlink:href") ?? attribute("href")
            let resolved = source.flatMap(resolveImage)
            breakBlock()
            appendSpecialBlock(
                .image(ImageReference(path: resolved, alt: (attribute("alt") ?? attribute("title") ?? "").trimmed)))
        default:
            break
        }
        let countsAsNote = isNoteContainer && name != "aside"
        if countsAsNote {
            breakBlock()
            noteDepth += 1
        }
        // A paragraph reads the way its block element (or the nearest one around it) says.
        if kind.holdsBlocks { blockDirection = style.declaredDirection }
        if !attributes.isEmpty { recordAnchor(attributes) }
        if case .rubyText = kind, !isVoid {
            // A ruby's reading (furigana, pinyin) follows its base in parentheses rather than
            // glued to it, as HTML shows ruby where it cannot be drawn above the line.
            if pendingSpace { trimTrailingSpace() }
            appendLiteral("(", style: style)
            pendingSpace = false
        }
        if case .quotation = kind, !isVoid {
            // `<q>` is shown with the quotation marks of its language (HTML's rendering rules).
            let marks = Self.quotationMarks(
                attribute("xml:lang") ?? attribute("lang") ?? currentLanguage ?? language,
                nested: quotationDepth > 0)
            appendLiteral(marks.open, style: style)
            pendingSpace = false
            quotationClosers.append(marks.close)
        }
        let floated =
            !attributes.isEmpty
            && (BookStyles.outOfFlow(inlineStyle) || classes.contains { styles.marginClasses.contains(String($0)) })
        if !isVoid {
            pushFrame(name, style: style, link: link, hidden: false, note: countsAsNote)
            if floated, case .other = kind {
                frames[frames.count - 1].margin = MarginStart(
                    blocks: blocks.count, runs: runs.count, lastRunLength: runs.last?.text.utf16.count,
                    blockLength: blockLength, pendingSpace: pendingSpace)
            }
            // A passage in another language (a quotation, a foreign phrase) is spoken in its own voice.
            if name != "html", name != "body", let lang = attribute("xml:lang") ?? attribute("lang"), !lang.isEmpty,
                lang.lowercased() != (currentLanguage ?? language)?.lowercased()
            {
                frames[frames.count - 1].languageStart = (committed + blockLength, lang)
            }
        }
    }

    /// The language of the innermost open passage that declares one.
    private var currentLanguage: String? {
        frames.last(where: { $0.languageStart != nil })?.languageStart?.language
    }

    private mutating func close(_ name: String) {
        let kind = ElementKind(name: name)
        switch kind {
        case .raw:
            // Raw text elements open no frame (see `open`).
            inStyle = false
            return
        case .head:
            inHead = false
            inTitle = false
            return
        case .title where inHead:
            inTitle = false
            return
        default: break
        }
        if inHead { return }
        // Ending an element while another is open inside it (`<p><em>…</p>`) is recovered from
        // as HTML would, but it is not well-formed XML.
        if let innermost = frames.last, innermost.name != name, frames.contains(where: { $0.name == name }) {
            wellFormed = false
        }
        if let margin = frames.last(where: { $0.name == name })?.margin { dropIfLineNumber(since: margin) }
        guard popFrame(named: name) != nil else {
            // An end tag with nothing open to end: not well-formed XML (`</br>` after `<br>` is fine).
            if !MarkupElement.voidElements.contains(name) { wellFormed = false }
            return
        }
        if name == "nav" { navDepth = max(0, navDepth - 1) }
        defer {
            // Text after the element, directly in its parent, reads the parent's way.
            if kind.holdsBlocks { blockDirection = currentStyle.declaredDirection }
        }
        switch kind {
        case .block, .listItem, .tableGroup:
            breakBlock()
        case .heading:
            if firstHeading == nil, documents.depth == 0 {
                let text = currentText.trimmed
                if !text.isEmpty { firstHeading = text.replacingNewlines }
            }
            breakBlock()
        case .aside:
            breakBlock()
            noteDepth = max(0, noteDepth - 1)
        case .blockquote:
            breakBlock()
            quoteDepth = max(0, quoteDepth - 1)
        case .pre:
            breakBlock()
            preDepth = max(0, preDepth - 1)
        case .list:
            breakBlock()
            if let list = lists.closeList(), list.countsItems {
                for (block, value) in list.numbered {
                    blocks[block].listMarker = list.marker(value + list.items, depth: lists.depth + 1)
                }
            }
        case .definition:
            breakBlock()
            extraIndent = max(0, extraIndent - 1)
        case .tableRow:
            breakBlock()
            cellsInRow = 0
        case .tableCell:
            cellDepth = max(0, cellDepth - 1)
        case .rubyText:
            if pendingSpace { trimTrailingSpace() }
            appendLiteral(")", style: currentStyle)
            pendingSpace = false
        case .quotation:
            if let close = quotationClosers.popLast() {
                if pendingSpace { trimTrailingSpace() }
                appendLiteral(close, style: currentStyle)
                pendingSpace = false
            }
        default:
            break
        }
    }

    /// Writes the gathered `math` as text: a block of its own when `display="block"`, and a line
    /// a row for tables.
    /// Elements gathered whole: MathML, SVG, an object that is a picture.
    private var gatherer = ElementGatherer()

    private mutating func finishMath() {
        guard let root = gatherer.finish() else { return }
        if root.localName == "svg" {
            finishSVG(root)
            return
        }
        if root.localName == "object" {
            let words = root.text
            breakBlock()
            appendSpecialBlock(
                .image(
                    ImageReference(
                        path: root.attribute("data").flatMap(resolveImage),
                        alt: words.isEmpty ? (root.attribute("title") ?? "").trimmed : words)))
            return
        }
        let display = root.attribute("display")?.lowercased() == "block"
        let text = MathLinearizer.text(of: root)
        guard !text.isEmpty else { return }
        if display { breakBlock() }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0, blockLength > 0 {
                if pendingSpace { trimTrailingSpace() }
                appendLiteral("\n", style: currentStyle)
                pendingSpace = true
            }
            // Literal: the spaces between a table's cells are kept.
            if !line.isEmpty { appendLiteral(String(line), style: currentStyle) }
        }
        if display { breakBlock() }
    }

    /// Takes a floated inline element's text out again when it is only a line or verse number
    /// ("city directors;180"): in a terminal it would be glued to the verse. A drop cap or a
    /// floated word stays.
    private mutating func dropIfLineNumber(since start: MarginStart) {
        guard start.blocks == blocks.count, start.runs <= runs.count, start.runs > 0 || start.lastRunLength == nil
        else { return }
        var added = ""
        if let length = start.lastRunLength, start.runs > 0 {
            let text = runs[start.runs - 1].text.utf16
            added = String(decoding: text.dropFirst(length), as: UTF16.self)
        }
        added += runs[start.runs...].map(\.text).joined()
        let number = added.trimmed
        guard !number.isEmpty, number.count <= 6,
            number.allSatisfy({ $0.isNumber }) || number.lowercased().allSatisfy({ "ivxlcdm".contains($0) })
        else { return }
        runs.removeSubrange(start.runs...)
        if let length = start.lastRunLength, start.runs > 0 {
            let text = runs[start.runs - 1].text
            runs[start.runs - 1].text = String(decoding: text.utf16.prefix(length), as: UTF16.self)
        }
        softHyphens.removeAll { $0 >= start.blockLength }
        blockLength = start.blockLength
        pendingSpace = start.pendingSpace
    }

    /// An `<iframe>`: the content document of the book it shows, in place, as EPUB reading systems
    /// render it (once: a frame inside it is not followed); a page outside the book as a link.
    private mutating func showFrame(source: String?, title: String?) {
        guard let source = source?.trimmed, !source.isEmpty else { return }
        guard let target = BookPath.resolve(source, relativeTo: path) else {
            // A web page is a link to it; other schemes (a data: URL, javascript:) show nothing.
            let lower = source.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return }
            let label = title?.trimmed ?? ""
            appendRun(
                label.isEmpty ? source : label, length: (label.isEmpty ? source : label).utf16.count,
                style: currentStyle.union(.link), link: .external(source))
            breakBlock()
            return
        }
        guard let bytes = documents.bytes(of: target.path, inside: path) else { return }
        let outer = (
            path: path, frames: frames.count, quoteDepth: quoteDepth, lists: lists.open, extraIndent: extraIndent,
            noteDepth: noteDepth, preDepth: preDepth, cellDepth: cellDepth, navDepth: navDepth,
            quotationClosers: quotationClosers
        )
        path = target.path
        documents.depth += 1
        var tokenizer = MarkupTokenizer(bytes: bytes)
        tokenizer.returnsStyleText = true
        while let token = tokenizer.next() { handle(token) }
        if gatherer.isGathering { finishMath() }
        breakBlock()
        // Whatever the embedded document left open ends with it.
        while frames.count > outer.frames, let innermost = frames.last { _ = popFrame(named: innermost.name) }
        documents.depth -= 1
        path = outer.path
        quoteDepth = outer.quoteDepth
        lists.open = outer.lists
        extraIndent = outer.extraIndent
        noteDepth = outer.noteDepth
        preDepth = outer.preDepth
        cellDepth = outer.cellDepth
        navDepth = outer.navDepth
        quotationClosers = outer.quotationClosers
        skipDepth = 0
        inHead = false
        inTitle = false
        inStyle = false
    }

    /// An SVG drawing as a picture: the raster image it embeds (a cover wrapped in SVG), labelled
    /// by its `<title>`; else a labelled placeholder with its title, description or text, so the
    /// reader learns what the drawing is rather than seeing `[image]`.
    private mutating func finishSVG(_ root: MarkupElement) {
        let image = root.descendants("image").first ?? root.descendants("img").first
        let href = image.flatMap { $0.attribute("xlink:href") ?? $0.attribute("href") ?? $0.attribute("src") }
        let resolved = href.flatMap(resolveImage)
        let words = root.descendants("title").first?.text ?? root.descendants("desc").first?.text ?? root.text
        let label = words.count > 120 ? SafeText.line(words, limit: 120) : words
        breakBlock()
        appendSpecialBlock(.image(ImageReference(path: resolved, alt: label)))
    }

    /// A picture's source as the path of a resource in the book, or the `data:` URL itself
    /// (the picture is inline; see ``DataURL``).
    private func resolveImage(_ source: String) -> String? {
        let trimmed = source.trimmed
        if DataURL.isDataURL(trimmed) { return trimmed }
        return BookPath.resolve(source, relativeTo: path)?.path
    }

    /// Whether every end tag matched an open element and every element was closed (XHTML is XML).
    private var wellFormed = true

    /// The closing marks of the `<q>` elements open now, innermost last.
    private var quotationClosers: [String] = []
    private var quotationDepth: Int { quotationClosers.count }

    // MARK: - Frames

    private var noteFrames: [Bool] = []

    private mutating func pushFrame(
        _ name: String, style: InlineStyle, link: LinkDestination?, hidden: Bool, note: Bool = false
    ) {
        frames.append(Frame(name: name, style: style, link: link, hidden: hidden))
        noteFrames.append(note)
    }

    /// Closes the nearest open element with this name, and any left open inside it.
    private mutating func popFrame(named name: String) -> Frame? {
        guard let index = frames.lastIndex(where: { $0.name == name }) else { return nil }
        let frame = frames[index]
        var closingNotes = 0
        for isNote in noteFrames[index...] where isNote { closingNotes += 1 }
        if closingNotes > 0 {
            breakBlock()
            noteDepth = max(0, noteDepth - closingNotes)
        }
        let end = committed + blockLength
        for closing in frames[index...].reversed() {
            if let start = closing.languageStart, end > start.offset {
                languageSpans.append(LanguageSpan(range: start.offset..<end, language: start.language))
            }
        }
        frames.removeSubrange(index...)
        noteFrames.removeSubrange(index...)
        return frame
    }

    // MARK: - Text

    private var currentText: String { runs.map(\.text).joined() }

    private mutating func recordAnchor(_ attributes: [MarkupAttribute]) {
        for attribute in attributes
        where attribute.name == "id" || attribute.name == "name" || attribute.name == "xml:id" {
            let id = attribute.value
            guard !id.isEmpty, anchors[id] == nil else { continue }
            anchors[id] = committed + blockLength
        }
    }

    /// Appends character data, collapsing white space (except in `pre`) and setting soft hyphens
    /// aside. Works on UTF-8 bytes: this runs for every character of the book, so stretches with
    /// neither white space nor a soft hyphen are copied whole.
    private mutating func append(_ raw: String) {
        let style = currentStyle
        let link = currentLink
        var text = style.contains(.smallCaps) ? raw.uppercased() : raw
        var out: [UInt8] = []
        var length = 0  // UTF-16 units in `out`
        let preserve = preDepth > 0
        text.withUTF8 { bytes in
            out.reserveCapacity(bytes.count)
            let count = bytes.count
            var index = 0
            while index < count {
                // Bytes kept as they are, up to white space, a control or U+00AD's first byte;
                // outside `pre`, a single space after a word is kept as it is too.
                let start = index
                var units = 0
                while index < count {
                    let byte = bytes[index]
                    if byte <= 0x20 || byte == 0xC2 {
                        guard byte == 0x20, !preserve, index > start, bytes[index - 1] != 0x20 else { break }
                    }
                    if byte < 0x80 || byte >= 0xC0 { units += byte >= 0xF0 ? 2 : 1 }
                    index += 1
                }
                if index > start {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    length += units
                    pendingSpace = bytes[index - 1] == 0x20
                    sawPreContent = true
                }
                guard index < count else { break }
                index = appendByte(at: index, of: bytes, to: &out, length: &length)
            }
        }
        if !out.isEmpty { appendRun(String(decoding: out, as: UTF8.self), length: length, style: style, link: link) }
    }

    /// ``append(_:)``'s work on one byte that may be white space or a soft hyphen; returns the
    /// index of the byte after what it took.
    private mutating func appendByte(
        at index: Int, of bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], length: inout Int
    ) -> Int {
        let byte = bytes[index]
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xAD {  // U+00AD soft hyphen
            softHyphens.append(blockLength + length)
            return index + 2
        }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
            if preDepth > 0 {
                if byte == 0x0D { return index + 1 }
                if byte == 0x0A, blockLength + length == 0, !sawPreContent {
                    // HTML drops a newline right after `<pre>`.
                    sawPreContent = true
                    return index + 1
                }
                if byte == 0x09 {
                    out.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                    length += 4
                } else {
                    out.append(byte == 0x0C ? 0x20 : byte)
                    length += 1
                }
                sawPreContent = true
            } else if blockLength + length > 0, !pendingSpace {
                // The collapsed space goes where the white space began, in that run's style.
                out.append(0x20)
                length += 1
                pendingSpace = true
            }
            return index + 1
        }
        pendingSpace = false
        sawPreContent = true
        out.append(byte)
        if byte < 0x80 { length += 1 } else if byte >= 0xF0 { length += 2 } else if byte >= 0xC0 { length += 1 }
        return index + 1
    }

    private var sawPreContent = false
    /// The document's language, from its `html` or `body` element.
    private var language: String?

    private mutating func appendLiteral(_ text: String, style: InlineStyle) {
        let literal = pendingSpace && text.hasPrefix(" ") ? String(text.dropFirst()) : text
        pendingSpace = literal.hasSuffix(" ")
        appendRun(literal, length: literal.utf16.count, style: style, link: nil)
    }

    private mutating func appendRun(_ text: String, length: Int, style: InlineStyle, link: LinkDestination?) {
        if let last = runs.last, last.style == style, last.link == link {
            // In place: a copy of the run would copy its text on every append.
            runs[runs.count - 1].text += text
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
        guard let last = runs.last, last.text.unicodeScalars.last == " " else { return }
        runs[runs.count - 1].text.unicodeScalars.removeLast()
        blockLength -= 1
        if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
    }

    private mutating func flush() {
        defer {
            runs = []
            blockLength = 0
            softHyphens = []
            pendingSpace = false
            sawPreContent = false
            blockKind = preDepth > 0 ? .preformatted : .paragraph
        }
        // Trailing spaces and line breaks carry nothing.
        while let last = runs.last, let trailing = last.text.unicodeScalars.last, trailing == "\n" || trailing == " " {
            runs[runs.count - 1].text.unicodeScalars.removeLast()
            blockLength -= 1
            if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
        }
        if blockKind != .preformatted {
            let visible = runs.contains { run in
                run.text.unicodeScalars.contains { $0 != " " && $0 != "\u{A0}" && $0 != "\n" }
            }
            if !visible { return }
        } else if runs.isEmpty {
            return
        }
        softHyphens.removeAll { $0 <= 0 || $0 >= blockLength }
        let marker = lists.takeMarker(forBlock: blocks.count, startingWith: runs)
        let block = Block(
            kind: blockKind, runs: runs, range: committed..<committed + blockLength,
            quoteDepth: quoteDepth, listDepth: lists.depth + extraIndent, listMarker: marker,
            isNote: noteDepth > 0, declaredDirection: blockDirection, softHyphens: softHyphens)
        blocks.append(block)
        for run in runs { plainText += run.text }
        plainText += "\n"
        committed += blockLength + 1
    }

    private mutating func appendSpecialBlock(_ kind: Block.Kind) {
        blocks.append(
            Block(
                kind: kind, runs: [], range: committed..<committed, quoteDepth: quoteDepth,
                listDepth: lists.depth + extraIndent, listMarker: nil, isNote: noteDepth > 0,
                declaredDirection: nil, softHyphens: []))
    }

    mutating func finish() -> ChapterDocument {
        if gatherer.isGathering {
            wellFormed = false
            finishMath()
        }
        cellDepth = 0
        flush()
        if frames.contains(where: { !$0.hidden }) { wellFormed = false }
        while let outermost = frames.first { _ = popFrame(named: outermost.name) }
        let title = firstHeading ?? titleText.map { $0.trimmed.replacingNewlines }.flatMap { $0.isEmpty ? nil : $0 }
        return ChapterDocument(
            path: path, title: title, blocks: blocks, plainText: plainText, anchors: anchors,
            prefersIndentedParagraphs: styles.indentsParagraphs, language: language, isWellFormed: wellFormed,
            languageSpans: languageSpans.map { span in
                LanguageSpan(
                    range: min(span.range.lowerBound, committed)..<min(span.range.upperBound, committed),
                    language: span.language)
            }.filter { !$0.range.isEmpty }, length: committed)
    }
}
