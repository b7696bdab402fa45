/// Places as KOReader's XPointers, the currency of its progress sync (kosync):
/// `/body/DocFragment[12]/body/div/p[3]/text().120` names the 12th spine item (KOReader's
/// engine, crengine, makes each a `DocFragment` of one document), the `body` of that item, then
/// elements by name and their rank among same-named siblings (`[3]`, written only when there are
/// several), the text in the last one (`text()`, `text()[2]` when the element holds several) and
/// a character offset in it.
extension BookContent {
    /// The XPointer of a place: the character it starts at. `nil` when the spine has no such item.
    public func xpointer(for locator: Locator) -> String? {
        guard book.spine.indices.contains(locator.spineIndex) else { return nil }
        let fragment = "/body/DocFragment[\(locator.spineIndex + 1)]"
        guard let tree = tree(at: locator.spineIndex), let path = tree.xpointerPath(atPlain: locator.offset) else {
            return fragment + ".0"
        }
        return fragment + path
    }

    /// The place an XPointer names, or the nearest one bok shows: a path that leaves the document
    /// where its elements are not those of bok's copy lands at the last element that matched.
    /// `nil` when it is not an XPointer into an EPUB's `DocFragment` (a PDF's page number) or
    /// names no spine item of this book.
    public func locator(forXPointer text: String) -> Locator? {
        guard let pointer = XPointer(text), book.spine.indices.contains(pointer.fragment - 1) else { return nil }
        let spineIndex = pointer.fragment - 1
        let plain = tree(at: spineIndex)?.plainOffset(of: pointer) ?? 0
        return locator(spineIndex: spineIndex, offset: min(plain, length(at: spineIndex)))
    }

    /// How far into the book (0–1) a place is, counting characters in reading order: the inverse
    /// of ``locator(atFraction:)``, for a place that comes without a percentage.
    public func fraction(of place: Locator) -> Double {
        let order = book.readingOrder.isEmpty ? Array(book.spine.indices) : book.readingOrder
        var before = 0
        var total = 0
        for spine in order {
            let length = length(at: spine)
            if spine == place.spineIndex { before = total + min(place.offset, length) }
            total += length
        }
        return total == 0 ? 0 : Double(before) / Double(total)
    }

    /// The place a fraction of the book in (0–1) reaches, counting characters in reading order.
    public func locator(atFraction fraction: Double) -> Locator {
        let order = book.readingOrder.isEmpty ? Array(book.spine.indices) : book.readingOrder
        let lengths = order.map { length(at: $0) }
        var target = Int(Double(lengths.reduce(0, +)) * max(0, min(1, fraction.isFinite ? fraction : 0)))
        for (index, spine) in order.enumerated() {
            if target < lengths[index] || index == order.count - 1 {
                return locator(spineIndex: spine, offset: min(target, lengths[index]))
            }
            target -= lengths[index]
        }
        return Locator(spineIndex: 0, offset: 0)
    }
}

/// An XPointer as KOReader writes one for an EPUB, read into its parts.
struct XPointer: Equatable {
    /// One element step: its name and its rank among same-named siblings (from 1).
    struct Step: Equatable {
        var name: String
        var rank: Int
    }

    /// The `DocFragment`'s number (from 1: the spine item's index + 1).
    var fragment: Int
    /// The elements from the fragment's `body` down (the `body` included).
    var steps: [Step]
    /// The rank of the text in the last element (`text()[2]`), when the pointer names one.
    var text: Int?
    /// The character offset.
    var offset: Int

    /// The longest pointer read: a real one is well under a kilobyte.
    static let maxLength = 4096

    init?(_ string: String) {
        guard string.utf8.count <= Self.maxLength, string.hasPrefix("/body/DocFragment[") else { return nil }
        var parts = string.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        guard !parts.isEmpty, parts.count <= 256 else { return nil }
        // The offset after the last part's dot: `text().120`, `p[3].0`; none is the start.
        var last = parts.removeLast()
        offset = 0
        if let dot = last.lastIndex(of: "."), last[last.index(after: dot)...].allSatisfy(\.isNumber) {
            offset = Int(last[last.index(after: dot)...].prefix(9)) ?? 0
            last = String(last[..<dot])
        }
        parts.append(last)
        guard let first = Self.step(parts[0]), first.name == "DocFragment", first.rank > 0 else { return nil }
        fragment = first.rank
        steps = []
        text = nil
        for (number, part) in parts.enumerated().dropFirst() {
            guard let step = Self.step(part) else { return nil }
            if step.name == "text()" {
                guard number == parts.count - 1 else { return nil }
                text = step.rank
            } else {
                steps.append(step)
            }
        }
    }

    /// `p[3]` → (`p`, 3); `p` → (`p`, 1).
    private static func step(_ part: String) -> Step? {
        guard !part.isEmpty else { return nil }
        guard let open = part.firstIndex(of: "[") else { return Step(name: part, rank: 1) }
        guard part.hasSuffix("]"), let rank = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]),
            rank > 0
        else { return nil }
        return Step(name: String(part[..<open]), rank: rank)
    }
}

extension ContentTree {
    /// The XPointer path (from the `body`, after the `DocFragment`) of the character at `plain`
    /// in the chapter's text, or of the first shown one after it.
    func xpointerPath(atPlain plain: Int) -> String? {
        guard let (text, offset) = textPlace(atPlain: plain), let root else { return nil }
        var names: [String] = []
        var element = texts[text].parent
        while element != root {
            guard element > 0 else { return nil }
            let (rank, count) = rank(ofElement: element)
            names.append(elements[element].name + (count > 1 ? "[\(rank)]" : ""))
            element = elements[element].parent
        }
        let siblings = elements[texts[text].parent].children.compactMap { child -> Int? in
            if case .text(let index) = child { return index }
            return nil
        }
        let textRank = (siblings.firstIndex(of: text) ?? 0) + 1
        let textStep = "text()" + (siblings.count > 1 ? "[\(textRank)]" : "")
        return "/" + (names.reversed() + [textStep]).joined(separator: "/") + ".\(offset)"
    }

    /// An element's rank among its parent's children of the same name (from 1), and how many there are.
    private func rank(ofElement index: Int) -> (rank: Int, count: Int) {
        var rank = 0
        var count = 0
        for case .element(let sibling) in elements[elements[index].parent].children
        where elements[sibling].name == elements[index].name {
            count += 1
            if sibling == index { rank = count }
        }
        return (rank, count)
    }

    /// The offset in the chapter's text an XPointer names, or the nearest place there is: where
    /// its path leaves this document, the last element it reached (a rank past the last sibling
    /// of that name goes to the last one).
    func plainOffset(of pointer: XPointer) -> Int? {
        guard let root else { return nil }
        var element = root
        var whole = true
        for step in pointer.steps {
            let named = elements[element].children.compactMap { child -> Int? in
                guard case .element(let index) = child, elements[index].name.lowercased() == step.name.lowercased()
                else { return nil }
                return index
            }
            guard !named.isEmpty else {
                whole = false
                break
            }
            whole = whole && step.rank <= named.count
            element = named[min(step.rank, named.count) - 1]
        }
        if whole, let rank = pointer.text {
            let texts = elements[element].children.compactMap { child -> Int? in
                if case .text(let index) = child { return index }
                return nil
            }
            if rank <= texts.count { return plainOffset(inText: texts[rank - 1], offset: pointer.offset) }
        }
        return startOfTexts(from: elements[element].firstText)
    }
}
