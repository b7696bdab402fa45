import Markup

extension ContentConverter {
    /// A start tag: what the element does to the text, by its kind.
    mutating func open(_ name: String, _ attributes: [MarkupAttribute], isVoid: Bool) {
        let kind = ElementKind(name: name)
        // The document's language: the `html` element's, unless the `body`, which holds all the
        // text, declares its own (xml:lang and lang are inherited from the nearest ancestor).
        if documents.depth == 0, name == "body" || (name == "html" && chapter.language == nil),
            let lang = attributes.value(of: "xml:lang") ?? attributes.value(of: "lang"), !lang.isEmpty
        {
            chapter.language = lang
        }
        if openOutsideText(kind, name, attributes, isVoid: isVoid) || routing.inHead { return }
        // Most tags have no attributes; only look at classes, styles and types when there are some.
        let element = ElementAttributes(attributes)
        if kind == .notShown || element.hides(by: styles) {
            chapter.recordAnchor(attributes)
            skipContent(of: name, isVoid: isVoid)
            return
        }
        var (style, link) = inlineStyle(kind, name, element)
        if name == "nav", !isVoid { nesting.navDepth += 1 }
        guard openBlock(kind, name, element, style: &style, isVoid: isVoid) else { return }
        let isNote = element.isNoteContainer && name != "aside"
        if isNote {
            breakBlock()
            nesting.noteDepth += 1
        }
        // A paragraph reads the way its block element (or the nearest one around it) says.
        if kind.holdsBlocks {
            chapter.blockDirection = style.declaredDirection
            chapter.blockHyphenation = style.hyphenation
        }
        if !attributes.isEmpty { chapter.recordAnchor(attributes) }
        guard !isVoid else { return }
        openMarks(kind, element, style: style)
        stack.push(ElementStack.Frame(name: name, style: style, link: link, hidden: false, isNote: isNote))
        if case .other = kind, element.isOutOfFlow(by: styles) { stack.setMargin(chapter.mark) }
        // A passage in another language (a quotation, a foreign phrase) is spoken in its own voice.
        if name != "html", name != "body", let lang = element.language, !lang.isEmpty,
            lang.lowercased() != (stack.language ?? chapter.language)?.lowercased()
        {
            stack.startLanguage(lang, at: chapter.offset)
        }
    }

    /// The elements whose text is not the chapter's: the `head` and its `title`, raw text
    /// (`script`, `style`) and SVG (only an embedded raster image is worth showing, and those are
    /// gathered whole before they reach here); whether this is one of them.
    private mutating func openOutsideText(
        _ kind: ElementKind, _ name: String, _ attributes: [MarkupAttribute], isVoid: Bool
    ) -> Bool {
        switch kind {
        case .head:
            if !isVoid { routing.inHead = true }
        case .title where routing.inHead:
            routing.inTitle = true
        case .raw:
            // The tokenizer skips raw text, except a `<style>`'s, which is read (in `handle`).
            if name == "style", !isVoid, !Self.isStylesheetForOtherMedia(attributes.value(of: "media")) {
                routing.inStyle = true
            }
        case .svg:
            skipContent(of: name, isVoid: isVoid)
        default:
            return false
        }
        return true
    }

    /// A `<style>` for print or another medium than a screen, whose rules a reader does not use.
    private static func isStylesheetForOtherMedia(_ media: String?) -> Bool {
        guard let media = media?.lowercased().trimmed, !media.isEmpty else { return false }
        return !(media.contains("screen") || media.contains("all"))
    }

    /// The style and link of the text inside an element: its parent's, with what its kind, its
    /// attributes and its stylesheets add.
    private func inlineStyle(
        _ kind: ElementKind, _ name: String, _ element: ElementAttributes
    ) -> (InlineStyle, LinkDestination?) {
        var style = stack.style
        var link = stack.link
        switch kind {
        case .emphasis: style.insert(.emphasis)
        case .strong: style.insert(.strong)
        case .code: style.insert(.code)
        case .superscript:
            style.insert(.superscript)
            if case .internal = link { style.insert(.noteReference) }
        case .subscript: style.insert(.subscript)
        case .anchor:
            if let href = element.value(of: "href") {
                if let resolved = BookPath.resolve(href, relativeTo: path) {
                    link = .internal(LinkTarget(path: resolved.path, fragment: resolved.fragment))
                } else {
                    link = .external(href)
                }
                style.insert(.link)
                if element.isNoteReference || style.contains(.superscript) {
                    if case .internal = link { style.insert(.noteReference) }
                }
            }
        default: break
        }
        style = element.styled(style, by: styles, element: name)
        let dir = element.value(of: "dir")
        if (name == "bdi" && TextDirection(dir: dir) == nil) || (!kind.holdsBlocks && Self.isAuto(dir)) {
            // A `<bdi>` without `dir`, and any inline element with `dir="auto"`, is isolated from its
            // sentence, its direction that of its own first strong letter.
            style.insert(.isolate)
            style.remove([.rightToLeft, .leftToRight, .directionOverride])
        }
        return (style, link)
    }

    /// Whether a `dir` attribute says `auto`.
    private static func isAuto(_ dir: String?) -> Bool {
        dir?.filter { !$0.isWhitespace }.lowercased() == "auto"
    }

    /// What an element does to the blocks: ends the one being filled, starts a heading, a list
    /// item or a table row, adds a line break, a rule or a picture. False when the element was
    /// dealt with whole (an `<iframe>`).
    private mutating func openBlock(
        _ kind: ElementKind, _ name: String, _ element: ElementAttributes, style: inout InlineStyle, isVoid: Bool
    ) -> Bool {
        switch kind {
        case .block, .tableGroup:
            breakBlock()
        case .aside:
            breakBlock()
            nesting.noteDepth += 1
        case .blockquote:
            breakBlock()
            nesting.quoteDepth += 1
        case .heading(let level):
            breakBlock()
            chapter.blockKind = .heading(level: level)
            style.insert(.heading)
        case .pre:
            breakBlock()
            chapter.blockKind = .preformatted
            nesting.preDepth += 1
        case .list(let ordered):
            breakBlock()
            lists.openList(ordered: ordered, element.all)
        case .listItem:
            breakBlock()
            lists.openItem(value: element.value(of: "value").flatMap { Int($0.trimmed) }, shown: nesting.navDepth == 0)
        case .definition:
            breakBlock()
            nesting.extraIndent += 1
        case .tableRow:
            breakBlock()
            chapter.blockKind = .tableRow
            cellsInRow = 0
        case .tableCell(let header):
            if cellsInRow > 0 { chapter.block.appendLiteral(" | ", style: []) }
            cellsInRow += 1
            nesting.cellDepth += 1
            if header { style.insert(.strong) }
        case .lineBreak:
            chapter.block.appendLineBreak(style: style)
        case .rule:
            appendSpecialBlock(.horizontalRule)
        case .frame:
            breakBlock()
            chapter.recordAnchor(element.all)
            showInlineFrame(source: element.value(of: "src"), title: element.value(of: "title"))
            // What an iframe holds is the fallback of browsers without frames, not content.
            skipContent(of: name, isVoid: isVoid)
            return false
        case .image:
            let source = element.value(of: "src") ?? element.value(of: "xlink:href") ?? element.value(of: "href")
            let alt = (element.value(of: "alt") ?? element.value(of: "title") ?? "").trimmed
            let language = element.language.flatMap { $0.isEmpty ? nil : $0 } ?? stack.language
            let picture = ImageReference(path: resolveImage(source), alt: alt, language: language)
            appendSpecialBlock(.image(picture))
        default:
            break
        }
        return true
    }

    /// The marks an element shows around its text: a ruby's parentheses, a quotation's marks.
    private mutating func openMarks(_ kind: ElementKind, _ element: ElementAttributes, style: InlineStyle) {
        switch kind {
        case .rubyText:
            // A ruby's reading (furigana, pinyin) follows its base in parentheses rather than
            // glued to it, as HTML shows ruby where it cannot be drawn above the line.
            chapter.block.appendClosing("(", style: style)
        case .quotation:
            // `<q>` is shown with the quotation marks of its language (HTML's rendering rules).
            let marks = Self.quotationMarks(
                element.language ?? stack.language ?? chapter.language, nested: !nesting.quotationClosers.isEmpty)
            chapter.block.appendOpening(marks.open, style: style)
            nesting.quotationClosers.append(marks.close)
        default:
            break
        }
    }
}
