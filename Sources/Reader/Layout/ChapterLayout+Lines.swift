extension ChapterLayout {
    /// The page a line is on (the last page starting at or before it).
    public func page(atLine line: Int) -> Int {
        var low = 0
        var high = pageStarts.count - 1
        var found = 0
        while low <= high {
            let middle = (low + high) / 2
            if pageStarts[middle] <= line {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found
    }

    /// The line showing a plain-text offset: the last line that starts at or before it, not
    /// counting blank rows (whose ranges sit where the next text begins).
    public func line(containing offset: Int) -> Int {
        var low = 0
        var high = lines.count - 1
        var found = 0
        while low <= high {
            let middle = (low + high) / 2
            if lines[middle].sourceRange.lowerBound <= offset {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        // An image or rule row sits at the offset of the text after it: show it too, but not
        // the blank rows above it.
        while found > 0, lines[found - 1].sourceRange.lowerBound == lines[found].sourceRange.lowerBound,
            lines[found - 1].role != .blank
        {
            found -= 1
        }
        return found
    }

    /// The first line of a page.
    public func firstLine(ofPage page: Int) -> Int {
        pageStarts[max(0, min(page, pageStarts.count - 1))]
    }
}
