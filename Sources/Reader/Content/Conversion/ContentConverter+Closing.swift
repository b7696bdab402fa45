import Markup

extension ContentConverter {
    /// An end tag: closes the nearest open element of that name, and what its kind began.
    mutating func close(_ name: String) {
        let kind = ElementKind(name: name)
        if closeOutsideText(kind) || routing.inHead { return }
        guard let index = stack.lastIndex(named: name) else {
            // An end tag with nothing open to end: not well-formed XML (`</br>` after `<br>` is fine).
            if !MarkupElement.voidElements.contains(name) { chapter.isWellFormed = false }
            return
        }
        // Ending an element while another is open inside it (`<p><em>…</p>`) is recovered from
        // as HTML would, but it is not well-formed XML.
        if index != stack.count - 1 { chapter.isWellFormed = false }
        if let margin = stack.frames[index].margin { chapter.dropIfLineNumber(since: margin) }
        popFrames(from: index)
        if name == "nav" { nesting.navDepth = max(0, nesting.navDepth - 1) }
        closeBlock(kind)
        // Text after the element, directly in its parent, reads the parent's way.
        if kind.holdsBlocks {
            chapter.blockDirection = stack.style.declaredDirection
            chapter.blockHyphenation = stack.style.hyphenation
        }
    }

    /// The end of the `head`, its `title` or raw text (which open no frame); whether this is one.
    private mutating func closeOutsideText(_ kind: ElementKind) -> Bool {
        switch kind {
        case .raw:
            routing.inStyle = false
        case .head:
            routing.inHead = false
            routing.inTitle = false
        case .title where routing.inHead:
            routing.inTitle = false
        default:
            return false
        }
        return true
    }

    /// What the end of an element does to the blocks and the nesting.
    private mutating func closeBlock(_ kind: ElementKind) {
        switch kind {
        case .block, .listItem, .tableGroup:
            breakBlock()
        case .heading:
            if documents.depth == 0 { chapter.noteHeading() }
            breakBlock()
        case .aside:
            breakBlock()
            nesting.noteDepth = max(0, nesting.noteDepth - 1)
        case .blockquote:
            breakBlock()
            nesting.quoteDepth = max(0, nesting.quoteDepth - 1)
        case .pre:
            breakBlock()
            nesting.preDepth = max(0, nesting.preDepth - 1)
        case .list:
            breakBlock()
            closeList()
        case .definition:
            breakBlock()
            nesting.extraIndent = max(0, nesting.extraIndent - 1)
        case .tableRow:
            breakBlock()
            cellsInRow = 0
        case .tableCell:
            nesting.cellDepth = max(0, nesting.cellDepth - 1)
        case .rubyText:
            chapter.block.appendClosing(")", style: stack.style)
        case .quotation:
            if let close = nesting.quotationClosers.popLast() { chapter.block.appendClosing(close, style: stack.style) }
        default:
            break
        }
    }

    /// Ends the innermost list; one counted down from its number of items (`<ol reversed>`
    /// without `start`) numbers its items now that the number is known.
    private mutating func closeList() {
        guard let list = lists.closeList(), list.countsItems else { return }
        for (block, value) in list.numbered {
            chapter.setListMarker(list.marker(value + list.items, depth: lists.depth + 1), ofBlock: block)
        }
    }
}
