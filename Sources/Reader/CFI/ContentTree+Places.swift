/// Places in the chapter's text as CFI paths, and CFI paths as places in the chapter's text.
extension ContentTree {
    /// The root element (`html`): the first element of the document.
    var root: Int? {
        for case .element(let index) in elements[0].children { return index }
        return nil
    }

    // MARK: - From the chapter's text to a path

    /// The path (from the root element) and offset of the character at `plain` in the chapter's
    /// text, or of the first shown character after it; `nil` when the chapter shows no text.
    func path(atPlain plain: Int) -> (steps: [EPUBCFI.Step], offset: Int)? {
        guard let (text, offset) = textPlace(atPlain: plain), let root else { return nil }
        var steps = [EPUBCFI.Step(index: texts[text].step)]
        var element = texts[text].parent
        while element != root {
            guard element > 0 else { return nil }
            steps.append(EPUBCFI.Step(index: position(ofElement: element), assertion: elements[element].id))
            element = elements[element].parent
        }
        return (steps.reversed(), offset)
    }

    /// The text and the offset in it of the character at `plain`, or of the next one shown.
    func textPlace(atPlain plain: Int) -> (text: Int, offset: Int)? {
        var candidate: Int?
        for index in shownTexts() {
            if Int(texts[index].plainOffsets[0]) > plain {
                if let candidate, let offset = offset(in: candidate, atPlain: plain) { return (candidate, offset) }
                return (index, Int(texts[index].rawOffsets[0]))
            }
            candidate = index
        }
        guard let last = candidate else { return nil }
        return (last, offset(in: last, atPlain: plain) ?? Int(texts[last].rawOffsets.last!) + 1)
    }

    /// The offset in a text of the character at `plain` in the chapter, or of its first character
    /// after it, if any.
    private func offset(in index: Int, atPlain plain: Int) -> Int? {
        let text = texts[index]
        guard let pair = text.plainOffsets.partitioningIndex(where: { Int($0) >= plain }) else { return nil }
        return Self.spaceBefore(pair, distance: Int(text.plainOffsets[pair]) - plain, to: text.rawOffsets)
            ?? Int(text.rawOffsets[pair])
    }

    /// White space before a letter lined up with the other side's, when the other side has as
    /// much of it there (a `pre` block keeps every space; elsewhere one stands for several): the
    /// offset `distance` before the letter of `pair` in `offsets`, or `nil`.
    private static func spaceBefore(_ pair: Int, distance: Int, to offsets: [Int32]) -> Int? {
        guard distance > 0 else { return nil }
        let letter = Int(offsets[pair])
        let previous = pair > 0 ? Int(offsets[pair - 1]) : -1
        return letter - previous - 1 >= distance ? letter - distance : nil
    }

    // MARK: - From a path to the chapter's text

    /// The offset in the chapter's text that a path (from the root element) and offset name, or
    /// the nearest place there is; `nil` when not even the path's first step is in the document.
    func plainOffset(of steps: [EPUBCFI.Step], offset: Int?) -> Int? {
        guard let root else { return nil }
        var target = Child.element(root)
        for (number, step) in steps.enumerated() {
            if let id = step.assertion, let element = ids[id], step.index % 2 == 0 {
                target = .element(element)
                continue
            }
            guard case .element(let parent) = target else { break }
            if let child = child(of: parent, step: step.index) {
                target = child
                continue
            }
            if number == 0 { return nil }
            // A step past what the document holds: the nearest child there is.
            target = nearestChild(of: parent, step: step.index) ?? target
            break
        }
        switch target {
        case .element(let element):
            return startOfTexts(from: elements[element].firstText)
        case .text(let text):
            return plainOffset(inText: text, offset: offset ?? 0)
        }
    }

    /// The child at the step after `step`, or the last child element, when `step` names nothing.
    private func nearestChild(of parent: Int, step: Int) -> Child? {
        if let next = child(of: parent, step: step + 1) { return next }
        for case .element(let index) in elements[parent].children.reversed() { return .element(index) }
        return elements[parent].children.last
    }

    /// The chapter offset of a character of a text, or of the first shown one after it.
    func plainOffset(inText index: Int, offset: Int) -> Int? {
        let text = texts[index]
        if let pair = text.rawOffsets.partitioningIndex(where: { Int($0) >= offset }) {
            return Self.spaceBefore(pair, distance: Int(text.rawOffsets[pair]) - offset, to: text.plainOffsets)
                ?? Int(text.plainOffsets[pair])
        }
        return startOfTexts(from: index + 1)
    }

    /// The chapter offset of the first shown text from `index` on, or the end of the last shown.
    func startOfTexts(from index: Int) -> Int? {
        for text in shownTexts(from: index) { return Int(texts[text].plainOffsets[0]) }
        for text in texts.indices.reversed() where !texts[text].plainOffsets.isEmpty {
            return Int(texts[text].plainOffsets[texts[text].plainOffsets.count - 1]) + 1
        }
        return nil
    }
}

extension Array {
    /// The first index whose element satisfies a predicate that is false and then true along the
    /// array (a binary search), or `nil` when no element does.
    fileprivate func partitioningIndex(where predicate: (Element) -> Bool) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low < count ? low : nil
    }
}
