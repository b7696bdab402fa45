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

    private struct ListState {
        let ordered: Bool
        let type: String
        var counter: Int
        /// 1, or -1 for `<ol reversed>`.
        var step = 1
        /// For `<ol reversed>` without `start`, which counts down from its number of items: the
        /// items are numbered from 0 down while the list is read, and shifted up when it ends.
        var countsItems = false
        var items = 0
        /// The blocks that carry this list's numbers and the numbers they were given.
        var numbered: [(block: Int, value: Int)] = []
    }

    private var path: String
    /// The book's stylesheets, and then the rules of the chapter's own `<style>` elements.
    private var styles: BookStyles
    /// The bytes of another content document of the book, by path, for an `<iframe>` to show;
    /// `nil` when it is not a content document the manifest lists.
    private let embeddedDocument: (@Sendable (String) -> [UInt8]?)?
    private var embedDepth = 0
    /// The bytes of the documents embedded so far: a chapter of a thousand frames of one large
    /// page would otherwise convert that page a thousand times.
    private var embeddedBytes = 0
    private static let embeddedBytesLimit = 8 << 20
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
    private var lists: [ListState] = []
    private var extraIndent = 0
    private var pendingMarker: String?
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
        self.embeddedDocument = embeddedDocument
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
        if !mathStack.isEmpty {
            collectMath(token)
            return
        }
        if case .start(let name, let attributes, let selfClosing) = token, skipDepth == 0, !inHead,
            name == "math" || name.hasSuffix(":math") || name == "svg" || name.hasSuffix(":svg")
                || (name == "object" && Self.showsPicture(attributes))
        {
            // MathML is gathered whole and shown as text (MathLinearizer); SVG as its picture or
            // its title; an object that is a picture as the picture, its fallback as its words.
            let root = MarkupElement(name: name, attributes: attributes)
            mathStack = [root]
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
                if inTitle, embedDepth == 0 { titleText = (titleText ?? "") + text }
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

    /// What an element does to the text, looked up once per tag (string switches were the
    /// converter's hottest code).
    private enum ElementKind: Equatable {
        case block, aside, blockquote
        case heading(Int)
        case pre
        case list(ordered: Bool)
        case listItem, definition, tableRow
        case
            tableCell(header: Bool)
        case tableGroup, lineBreak, rule, image, emphasis, strong, code, superscript,
            `subscript`, anchor, head, title, raw, svg, quotation, rubyText, notShown, frame, other
    }

    /// Whether an `<object>` embeds a picture (its `type`, else its file's extension says so): it
    /// is shown as one, and what it holds is the picture's description, as for `alt`.
    private static func showsPicture(_ attributes: [MarkupAttribute]) -> Bool {
        guard let data = attributes.first(where: { $0.name == "data" })?.value.trimmed, !data.isEmpty else {
            return false
        }
        if let type = attributes.first(where: { $0.name == "type" })?.value.trimmed.lowercased() {
            return type.hasPrefix("image/")
        }
        let lower = data.lowercased()
        return [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"].contains { lower.hasSuffix($0) }
            || lower.hasPrefix("data:image/")
    }

    /// A `<style>` for print or another medium than a screen, whose rules a reader does not use.
    private func isStylesheetForOtherMedia(_ media: String?) -> Bool {
        guard let media = media?.lowercased().trimmed, !media.isEmpty else { return false }
        return !(media.contains("screen") || media.contains("all"))
    }

    private static let kinds: [String: ElementKind] = {
        var kinds: [String: ElementKind] = [:]
        for name in [
            "p", "div", "section", "article", "main", "header", "footer", "nav", "figure", "figcaption",
            "address", "center", "hgroup", "details", "summary", "fieldset", "legend", "body", "html",
            "caption", "dt", "noscript", "form",
        ] { kinds[name] = .block }
        for level in 1...6 { kinds["h\(level)"] = .heading(level) }
        for name in ["em", "i", "cite", "dfn", "var"] { kinds[name] = .emphasis }
        for name in ["strong", "b"] { kinds[name] = .strong }
        for name in ["code", "kbd", "samp", "tt"] { kinds[name] = .code }
        for name in ["ul", "menu", "dir"] { kinds[name] = .list(ordered: false) }
        for name in ["table", "thead", "tbody", "tfoot"] { kinds[name] = .tableGroup }
        for name in ["script", "style", "template"] { kinds[name] = .raw }
        kinds["ol"] = .list(ordered: true)
        kinds["aside"] = .aside
        kinds["blockquote"] = .blockquote
        kinds["pre"] = .pre
        kinds["li"] = .listItem
        kinds["dd"] = .definition
        kinds["tr"] = .tableRow
        kinds["td"] = .tableCell(header: false)
        kinds["th"] = .tableCell(header: true)
        kinds["br"] = .lineBreak
        kinds["hr"] = .rule
        kinds["img"] = .image
        kinds["image"] = .image
        kinds["sup"] = .superscript
        kinds["sub"] = .subscript
        kinds["a"] = .anchor
        kinds["head"] = .head
        kinds["title"] = .title
        kinds["svg"] = .svg
        kinds["q"] = .quotation
        kinds["rt"] = .rubyText
        // A ruby's own parentheses: the reading gets bok's (see `rubyText`).
        kinds["rp"] = .notShown
        kinds["iframe"] = .frame
        // `<epub:switch>` is deprecated; its `<epub:default>` is shown and its cases are not.
        kinds["epub:switch"] = .block
        kinds["epub:default"] = .block
        kinds["epub:case"] = .notShown
        return kinds
    }()

    private mutating func open(_ name: String, _ attributes: [MarkupAttribute], isVoid: Bool) {
        func attribute(_ wanted: String) -> String? {
            attributes.first(where: { $0.name == wanted })?.value
        }
        let kind = Self.kinds[name] ?? .other
        if language == nil, embedDepth == 0, name == "html" || name == "body",
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
            let start = attribute("start").flatMap { Int($0.trimmed) }
            var list = ListState(ordered: ordered, type: attribute("type") ?? "1", counter: start ?? 1)
            if ordered, attributes.contains(where: { $0.name == "reversed" }) {
                list.step = -1
                if start == nil {
                    list.counter = 0
                    list.countsItems = true
                }
            }
            lists.append(list)
        case .listItem:
            breakBlock()
            if lists.isEmpty { lists.append(ListState(ordered: false, type: "", counter: 1)) }
            let last = lists.count - 1
            if let value = attribute("value").flatMap({ Int($0.trimmed) }) { lists[last].counter = value }
            // A navigation document's lists are not numbered (EPUB: list-style none in nav).
            pendingMarker =
                navDepth > 0 ? nil : marker(for: lists[last], value: lists[last].counter, depth: lists.count)
            pendingMarkerOwner = (list: last, value: lists[last].counter)
            lists[last].counter += lists[last].step
            lists[last].items += 1
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
        switch kind {
        case .block, .aside, .blockquote, .heading, .pre, .list, .listItem, .definition, .tableRow, .tableGroup:
            // A paragraph reads the way its block element (or the nearest one around it) says.
            blockDirection = style.declaredDirection
        default: break
        }
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
        let kind = Self.kinds[name] ?? .other
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
            switch kind {
            case .block, .aside, .blockquote, .heading, .pre, .list, .listItem, .definition, .tableRow, .tableGroup:
                // Text after the element, directly in its parent, reads the parent's way.
                blockDirection = currentStyle.declaredDirection
            default: break
            }
        }
        switch kind {
        case .block, .listItem, .tableGroup:
            breakBlock()
        case .heading:
            if firstHeading == nil, embedDepth == 0 {
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
            if let list = lists.popLast(), list.countsItems {
                for (block, value) in list.numbered {
                    blocks[block].listMarker = marker(for: list, value: value + list.items, depth: lists.count + 1)
                }
            }
            pendingMarker = nil
            pendingMarkerOwner = nil
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

    /// The `math` element being gathered and its open descendants, innermost last.
    private var mathStack: [MarkupElement] = []
    private static let mathDepthLimit = 64

    private mutating func collectMath(_ token: MarkupToken) {
        switch token {
        case .start(let name, let attributes, let selfClosing):
            let element = MarkupElement(name: name, attributes: attributes)
            mathStack[mathStack.count - 1].append(element)
            // Nesting is capped so that a hostile book cannot make the recursive linear form
            // overflow the stack; deeper elements' text joins their ancestor's.
            if !selfClosing, mathStack.count < Self.mathDepthLimit { mathStack.append(element) }
        case .end(let name):
            guard let index = mathStack.lastIndex(where: { $0.name == name }) else { return }
            if index == 0 { finishMath() } else { mathStack.removeSubrange(index...) }
        case .text(let text):
            mathStack[mathStack.count - 1].append(text: text)
        }
    }

    /// Writes the gathered `math` as text: a block of its own when `display="block"`, and a line
    /// a row for tables.
    private mutating func finishMath() {
        guard let root = mathStack.first else { return }
        mathStack = []
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
        guard embedDepth == 0, target.path != path, embeddedBytes < Self.embeddedBytesLimit,
            let bytes = embeddedDocument?(target.path), embeddedBytes + bytes.count <= Self.embeddedBytesLimit
        else { return }
        embeddedBytes += bytes.count
        let outer = (
            path: path, frames: frames.count, quoteDepth: quoteDepth, lists: lists, extraIndent: extraIndent,
            noteDepth: noteDepth, preDepth: preDepth, cellDepth: cellDepth, navDepth: navDepth,
            quotationClosers: quotationClosers
        )
        path = target.path
        embedDepth += 1
        var tokenizer = MarkupTokenizer(bytes: bytes)
        tokenizer.returnsStyleText = true
        while let token = tokenizer.next() { handle(token) }
        if !mathStack.isEmpty { finishMath() }
        breakBlock()
        // Whatever the embedded document left open ends with it.
        while frames.count > outer.frames, let innermost = frames.last { _ = popFrame(named: innermost.name) }
        embedDepth -= 1
        path = outer.path
        quoteDepth = outer.quoteDepth
        lists = outer.lists
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

    /// Quotation marks for a language (its primary subtag), the inner pair for a quotation inside another.
    static func quotationMarks(_ language: String?, nested: Bool) -> (open: String, close: String) {
        let primary =
            (language ?? "en").lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
            ?? "en"
        switch primary {
        case "sv", "fi": return nested ? ("’", "’") : ("”", "”")
        case "de", "cs", "sk", "is", "lt": return nested ? ("‚", "‘") : ("„", "“")
        case "pl", "hu", "ro", "hr": return nested ? ("«", "»") : ("„", "”")
        case "da": return nested ? ("›", "‹") : ("»", "«")
        case "fr": return nested ? ("“", "”") : ("«\u{A0}", "\u{A0}»")
        case "nb", "nn", "no", "es", "it", "pt", "ru", "uk", "el", "ca": return nested ? ("“", "”") : ("«", "»")
        case "ja", "zh": return nested ? ("『", "』") : ("「", "」")
        default: return nested ? ("‘", "’") : ("“", "”")
        }
    }

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
        // "1. Fish" in a list numbered 1. is not numbered twice.
        let countingList = pendingMarkerOwner.flatMap { lists.indices.contains($0.list) ? $0 : nil }
        let counting = countingList.map { lists[$0.list].countsItems } ?? false
        if !counting, let marker = pendingMarker, marker.hasSuffix("."),
            Self.repeatsNumber(String(marker.dropLast()), in: runs)
        {
            pendingMarker = nil
        }
        if counting, pendingMarker != nil, let owner = countingList {
            lists[owner.list].numbered.append((blocks.count, owner.value))
        }
        pendingMarkerOwner = nil
        let block = Block(
            kind: blockKind, runs: runs, range: committed..<committed + blockLength,
            quoteDepth: quoteDepth, listDepth: lists.count + extraIndent, listMarker: pendingMarker,
            isNote: noteDepth > 0, declaredDirection: blockDirection, softHyphens: softHyphens)
        pendingMarker = nil
        blocks.append(block)
        for run in runs { plainText += run.text }
        plainText += "\n"
        committed += blockLength + 1
    }

    /// Whether an item's text already starts with its list number (`1. Fish`, `1 Fish`, `1) Fish`).
    private static func repeatsNumber(_ number: String, in runs: [TextRun]) -> Bool {
        guard let first = runs.first?.text, first.hasPrefix(number) else { return false }
        let after = first.dropFirst(number.count).first
        return after == "." || after == " " || after == ")" || after == ":" || after == "\u{A0}"
    }

    private mutating func appendSpecialBlock(_ kind: Block.Kind) {
        blocks.append(
            Block(
                kind: kind, runs: [], range: committed..<committed, quoteDepth: quoteDepth,
                listDepth: lists.count + extraIndent, listMarker: nil, isNote: noteDepth > 0,
                declaredDirection: nil, softHyphens: []))
    }

    /// Which list the pending marker numbers, and the number it gave.
    private var pendingMarkerOwner: (list: Int, value: Int)?

    private func marker(for list: ListState, value n: Int, depth: Int) -> String {
        guard list.ordered else { return ["•", "◦", "▪"][(depth - 1) % 3] }
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
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var value = n
        var out = ""
        for (number, letters) in table {
            while value >= number {
                out += letters
                value -= number
            }
        }
        return out
    }

    mutating func finish() -> ChapterDocument {
        if !mathStack.isEmpty {
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

extension String {
    /// Line breaks and runs of spaces turned into single spaces (for titles).
    var replacingNewlines: String {
        split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
