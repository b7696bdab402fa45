import Markup

/// Turns a content document (XHTML, or HTML that is not well-formed) into a `ChapterDocument`.
///
/// One pass over the tokens with a stack of open elements: block elements end the current block,
/// inline elements add styles, white space collapses as in HTML except inside `pre`, soft hyphens
/// become break opportunities, and `script`, `head` and hidden elements are skipped. A `<style>`
/// adds its rules to the book's; an `<iframe>` of another document of the book shows it in place.
///
/// The converter dispatches each tag by its ``ElementKind`` (`+Opening`, `+Closing`) to the parts
/// it is made of: the ``ChapterBuilder`` that holds the chapter being built, the
/// ``ElementStack`` of open elements, the ``ListNumbering`` of open lists, and the
/// ``ElementGatherer`` and ``EmbeddedDocuments`` for what is shown whole (`+Embedding`).
struct ContentConverter {
    /// The path of the document being read (another one's inside an `<iframe>`).
    var path: String
    /// The book's stylesheets, and then the rules of the chapter's own `<style>` elements.
    var styles: BookStyles
    /// The output: blocks so far and the block being filled.
    var chapter = ChapterBuilder()
    var stack = ElementStack()
    var lists = ListNumbering()
    var nesting = Nesting()
    var routing = TextRouting()
    /// How many cells of the table row being read have begun. Not part of `nesting`: the end of
    /// a document an `<iframe>` shows leaves it as that document left it.
    var cellsInRow = 0
    var gatherer = ElementGatherer()
    var documents: EmbeddedDocuments

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
        converter.read(bytes)
        return converter.finish()
    }

    /// Reads a whole document's tokens.
    mutating func read(_ bytes: [UInt8]) {
        var tokenizer = MarkupTokenizer(bytes: bytes)
        tokenizer.returnsStyleText = true
        while let token = tokenizer.next() { handle(token) }
        // A tag whose name XML does not allow (`<p::p>`) is damage the tags' nesting cannot show.
        if tokenizer.hasMalformedName { chapter.isWellFormed = false }
    }

    /// One token: gathered, skipped, or an element's start or end, or text.
    mutating func handle(_ token: MarkupToken) {
        if gatherer.isGathering {
            if gatherer.take(token) { showGathered() }
            return
        }
        if case .start(let name, let attributes, let selfClosing) = token, routing.skipDepth == 0, !routing.inHead,
            ElementGatherer.gathers(name, attributes)
        {
            // MathML is gathered whole and shown as text (MathLinearizer); SVG as its picture or
            // its title; an object that is a picture as the picture, its fallback as its words.
            gatherer.begin(name, attributes)
            if selfClosing { showGathered() }
            return
        }
        switch token {
        case .text(let text):
            readText(text)
        case .start(let name, let attributes, let selfClosing):
            let isVoid = selfClosing || MarkupElement.voidElements.contains(name)
            if routing.skipDepth > 0 {
                if !isVoid, name != "script", name != "style" { routing.skipDepth += 1 }
                return
            }
            open(name, attributes, isVoid: isVoid)
        case .end(let name):
            if routing.skipDepth > 0 {
                // A script or style opened inside skipped content was not counted.
                if name == "script" || name == "style" { return }
                routing.skipDepth -= 1
                if routing.skipDepth == 0 { popFrame(named: name) }
                return
            }
            close(name)
        }
    }

    /// Character data, where the routing sends it.
    private mutating func readText(_ text: String) {
        if routing.skipDepth > 0 { return }
        if routing.inStyle {
            // The chapter's own stylesheet: its rules apply from here on, as the book's do.
            styles.add(css: text)
            return
        }
        if routing.inHead {
            if routing.inTitle, documents.depth == 0 { chapter.titleText = (chapter.titleText ?? "") + text }
            return
        }
        chapter.block.append(text, style: stack.style, link: stack.link, preserve: nesting.preDepth > 0)
    }

    /// Ends what the document left open and returns the chapter.
    mutating func finish() -> ChapterDocument {
        if gatherer.isGathering {
            chapter.isWellFormed = false
            showGathered()
        }
        nesting.cellDepth = 0
        flush()
        if stack.frames.contains(where: { !$0.hidden }) { chapter.isWellFormed = false }
        while let outermost = stack.frames.first { popFrame(named: outermost.name) }
        return chapter.document(path: path, prefersIndentedParagraphs: styles.indentsParagraphs)
    }

    // MARK: - Blocks and frames

    /// Where a block made now stands.
    var placement: ChapterBuilder.Placement {
        ChapterBuilder.Placement(
            quoteDepth: nesting.quoteDepth, listDepth: lists.depth + nesting.extraIndent,
            isNote: nesting.noteDepth > 0)
    }

    /// Ends the current block, unless inside a table cell, where blocks only separate words.
    mutating func breakBlock() {
        if nesting.cellDepth > 0 {
            chapter.block.appendWordSeparator()
            return
        }
        flush()
    }

    /// Commits the block being filled, with its list marker, and starts the next.
    private mutating func flush() {
        if chapter.trimBlock() {
            let marker = lists.takeMarker(forBlock: chapter.blocks.count, startingWith: chapter.block.runs)
            chapter.commitBlock(placement, listMarker: marker)
        }
        chapter.startBlock(nesting.preDepth > 0 ? .preformatted : .paragraph)
    }

    /// Adds a block with no text of its own (a rule, a picture), after the current one.
    mutating func appendSpecialBlock(_ kind: Block.Kind) {
        breakBlock()
        chapter.appendSpecialBlock(kind, placement)
    }

    /// Opens a frame whose content is skipped (a void element opens none).
    mutating func skipContent(of name: String, isVoid: Bool) {
        guard !isVoid else { return }
        stack.push(ElementStack.Frame(name: name, style: stack.style, link: stack.link, hidden: true, isNote: false))
        routing.skipDepth = 1
    }

    /// Closes the nearest open element with this name, and any left open inside it.
    @discardableResult
    mutating func popFrame(named name: String) -> Bool {
        guard let index = stack.lastIndex(named: name) else { return false }
        popFrames(from: index)
        return true
    }

    /// Closes the open element at `index`, and any left open inside it.
    mutating func popFrames(from index: Int) {
        let closingNotes = stack.notes(from: index)
        if closingNotes > 0 {
            breakBlock()
            nesting.noteDepth = max(0, nesting.noteDepth - closingNotes)
        }
        chapter.endLanguages(of: stack.frames[index...])
        stack.removeFrames(from: index)
    }
}
