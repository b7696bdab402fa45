import Markup

/// The chapter being built: the blocks so far, their plain text, anchors and passages in other
/// languages, its title, and the block being filled.
struct ChapterBuilder {
    /// Where a block stands in the quotations, lists and notes around it.
    struct Placement {
        let quoteDepth: Int
        let listDepth: Int
        let isNote: Bool
    }

    /// The chapter at one moment, to take the text added since out again.
    struct Mark {
        let blocks: Int
        let text: BlockText.Mark
    }

    // Output so far.
    private(set) var blocks: [Block] = []
    private var plainText = ""
    /// The length of the committed blocks' plain text, in UTF-16 units (a newline after each).
    private var committed = 0
    private var anchors: [String: Int] = [:]
    private var languageSpans: [LanguageSpan] = []
    private var firstHeading: String?
    /// The text of the `head`'s `title`.
    var titleText: String?
    /// The document's language, from its `html` or `body` element.
    var language: String?
    /// Whether every end tag matched an open element and every element was closed (XHTML is XML).
    var isWellFormed = true

    // The block being filled.
    var block = BlockText()
    var blockKind: Block.Kind = .paragraph
    /// The direction the innermost open block element declares (`dir`), for the blocks it holds.
    var blockDirection: TextDirection?
    /// Where the words of the block being filled may break with a hyphen.
    var blockHyphenation = Hyphenation.auto

    /// Where the next character goes in the chapter's plain text.
    var offset: Int { committed + block.length }

    /// The chapter as it is now.
    var mark: Mark { Mark(blocks: blocks.count, text: block.mark) }

    /// Records the element's `id`, `name` or `xml:id` as an anchor here, unless already known.
    mutating func recordAnchor(_ attributes: [MarkupAttribute]) {
        for attribute in attributes
        where attribute.name == "id" || attribute.name == "name" || attribute.name == "xml:id" {
            let id = attribute.value
            guard !id.isEmpty, anchors[id] == nil else { continue }
            anchors[id] = offset
        }
    }

    /// Takes the block's text as the chapter's title, if it is the first heading with words.
    mutating func noteHeading() {
        guard firstHeading == nil else { return }
        let text = block.text.trimmed
        if !text.isEmpty { firstHeading = text.replacingNewlines }
    }

    /// Ends here the passages in other languages that the closing frames began.
    mutating func endLanguages(of closing: ArraySlice<ElementStack.Frame>) {
        let end = offset
        for frame in closing.reversed() {
            if let start = frame.languageStart, end > start.offset {
                languageSpans.append(LanguageSpan(range: start.offset..<end, language: start.language))
            }
        }
    }

    /// Takes a floated element's text, added since `start`, out again when it is only a line or
    /// verse number (see ``BlockText/dropIfLineNumber(since:)``).
    mutating func dropIfLineNumber(since start: Mark) {
        guard start.blocks == blocks.count else { return }
        block.dropIfLineNumber(since: start.text)
    }

    /// Trims the block being filled; whether anything is left worth a block.
    mutating func trimBlock() -> Bool {
        block.trim(preformatted: blockKind == .preformatted)
    }

    /// Commits the block being filled, once ``trimBlock()`` has found it worth one.
    mutating func commitBlock(_ placement: Placement, listMarker: String?) {
        block.keepInnerSoftHyphens()
        blocks.append(
            Block(
                kind: blockKind, runs: block.runs, range: committed..<committed + block.length,
                quoteDepth: placement.quoteDepth, listDepth: placement.listDepth, listMarker: listMarker,
                isNote: placement.isNote, declaredDirection: blockDirection, softHyphens: block.softHyphens,
                hyphenation: blockHyphenation))
        for run in block.runs { plainText += run.text }
        plainText += "\n"
        committed += block.length + 1
    }

    /// Empties the block being filled for the next, of `kind`.
    mutating func startBlock(_ kind: Block.Kind) {
        block = BlockText()
        blockKind = kind
    }

    /// Adds a block with no text of its own: a rule or a picture.
    mutating func appendSpecialBlock(_ kind: Block.Kind, _ placement: Placement) {
        blocks.append(
            Block(
                kind: kind, runs: [], range: committed..<committed, quoteDepth: placement.quoteDepth,
                listDepth: placement.listDepth, listMarker: nil, isNote: placement.isNote,
                declaredDirection: nil, softHyphens: []))
    }

    /// Gives a committed block another list marker.
    mutating func setListMarker(_ marker: String, ofBlock index: Int) {
        blocks[index].listMarker = marker
    }

    /// The finished chapter.
    func document(path: String, prefersIndentedParagraphs: Bool?) -> ChapterDocument {
        let title = firstHeading ?? titleText.map { $0.trimmed.replacingNewlines }.flatMap { $0.isEmpty ? nil : $0 }
        return ChapterDocument(
            path: path, title: title, blocks: blocks, plainText: plainText, anchors: anchors,
            prefersIndentedParagraphs: prefersIndentedParagraphs, language: language, isWellFormed: isWellFormed,
            languageSpans: languageSpans.map { span in
                LanguageSpan(
                    range: min(span.range.lowerBound, committed)..<min(span.range.upperBound, committed),
                    language: span.language)
            }.filter { !$0.range.isEmpty }, length: committed)
    }
}
