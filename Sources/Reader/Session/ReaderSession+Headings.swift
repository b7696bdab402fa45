import Localization

/// `]` and `[`: the next and the previous heading, across chapters — navigation by headings, as a
/// screen reader's heading keys move through a web page (DAISY Reading Apps 4.2).
extension ReaderSession {
    /// Goes to the first heading after the top of the page; false (with a message) after the last.
    @discardableResult
    public mutating func nextHeading() -> Bool {
        let here = place
        guard let start = book.readingOrder.firstIndex(of: here.spineIndex) else { return false }
        for spine in book.readingOrder[start...] {
            let after = spine == here.spineIndex ? here.offset : -1
            if let heading = headingOffsets(spine).first(where: { $0 > after }) {
                go(toHeadingAt: Locator(spineIndex: spine, offset: heading))
                return true
            }
        }
        message = tr("No heading after this one.")
        return false
    }

    /// Goes to the last heading before the top of the page; false (with a message) before the first.
    @discardableResult
    public mutating func previousHeading() -> Bool {
        let here = place
        guard let start = book.readingOrder.firstIndex(of: here.spineIndex) else { return false }
        for spine in book.readingOrder[...start].reversed() {
            let before = spine == here.spineIndex ? here.offset : Int.max
            if let heading = headingOffsets(spine).last(where: { $0 < before }) {
                go(toHeadingAt: Locator(spineIndex: spine, offset: heading))
                return true
            }
        }
        message = tr("No heading before this one.")
        return false
    }

    /// Where the reader is: the heading last gone to while it is on the page, else the page's top,
    /// so that `]` again goes on from a heading lower on the same page.
    private var place: Locator {
        let top = topLocator
        return anchor >= top && anchor <= bottomLocator ? anchor : top
    }

    /// Where the headings of a chapter start, outside its notes.
    private func headingOffsets(_ spine: Int) -> [Int] {
        content.document(at: spine).blocks.compactMap { block in
            if case .heading = block.kind, !block.isNote { return block.range.lowerBound }
            return nil
        }
    }

    /// The page with the heading at its top, as a jump (Backspace returns), saying which.
    private mutating func go(toHeadingAt locator: Locator) {
        pushBack()
        show(locator)
        let document = content.document(at: locator.spineIndex)
        if let block = document.blocks.first(where: { $0.range.lowerBound == locator.offset }) {
            message = tr("Heading: {heading}", ["heading": block.text.split(separator: "\n").joined(separator: " ")])
        }
    }
}
