import Markup

/// A content document's element tree as EPUB CFI counts it, with each piece of its text tied to
/// the place that text has in the chapter bok shows (``ChapterDocument/plainText``).
///
/// bok's converter collapses white space, drops hidden content, adds quotation marks and list
/// markers; it does not keep where each character came from, because the first page must not pay
/// for that. This tree is built only when a place must travel (a CFI written or read), by reading
/// the document once more and lining its text up with the chapter's: each character that is not
/// white space is looked for a short way ahead in the chapter's text, case aside (CSS
/// `text-transform`). A piece of text the chapter does not show (a hidden element's, say) finds
/// too few of its characters and is left out, so it cannot pull the rest off course.
struct ContentTree {
    /// A node that holds others: the document itself (index 0), or an element.
    struct Element {
        let name: String
        let parent: Int
        let id: String?
        /// Its children in order: `element` indexes into ``elements``, `text` into ``texts``.
        var children: [Child] = []
        /// How many child elements it has so far.
        var elementCount = 0
        /// The first text read after its start tag: the place the element begins.
        let firstText: Int
    }

    enum Child {
        case element(Int)
        case text(Int)
    }

    /// The text between two child elements (or before the first, after the last): one odd CFI step.
    struct Text {
        let parent: Int
        /// Its CFI step: `2 * (elements before it) + 1`.
        let step: Int
        /// Its length in UTF-16 units, as a DOM counts it.
        var length = 0
        /// Offsets into this text, and the offset in the chapter's text each lines up with, rising.
        var rawOffsets: [Int32] = []
        var plainOffsets: [Int32] = []
    }

    private(set) var elements = [Element(name: "#document", parent: -1, id: nil, firstText: 0)]
    private(set) var texts: [Text] = []
    private(set) var ids: [String: Int] = [:]

    /// How far ahead in the chapter's text a character is looked for.
    fileprivate static let window = 48
    /// Reads a document and lines its text up with the chapter made from it.
    ///
    /// - Parameter styles: the book's stylesheets, which hide elements the converter skipped.
    init(document bytes: [UInt8], plainText: String, styles: BookStyles = BookStyles()) {
        var aligner = Aligner(plain: Array(plainText.utf16))
        var open = [0]
        // The open elements whose text the chapter does not show, as the converter decides.
        var unshown: Set<Int> = []
        var tokenizer = MarkupTokenizer(bytes: bytes)
        while let token = tokenizer.next() {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                let parent = open[open.count - 1]
                let index = elements.count
                let id = attributes.first(where: { $0.name == "id" || $0.name == "xml:id" })?.value
                elements.append(Element(name: name, parent: parent, id: id, firstText: texts.count))
                elements[parent].children.append(.element(index))
                elements[parent].elementCount += 1
                if let id, !id.isEmpty, ids[id] == nil { ids[id] = index }
                // As `MarkupElement.parse`: the tokenizer skips a script's or style's content.
                if selfClosing || MarkupElement.voidElements.contains(name) || name == "script" || name == "style" {
                    continue
                }
                open.append(index)
                if unshown.isEmpty, Self.hides(name, attributes, styles) { unshown.insert(index) }
            case .end(let name):
                guard let depth = open.lastIndex(where: { $0 > 0 && elements[$0].name == name }) else { continue }
                for closing in open[depth...] { unshown.remove(closing) }
                open.removeSubrange(depth...)
            case .text(let text):
                let index = textIndex(in: open[open.count - 1])
                let units = Array(text.utf16)
                if unshown.isEmpty { aligner.align(units, at: texts[index].length, into: &texts[index]) }
                texts[index].length += units.count
            }
        }
    }

    /// Whether the converter skips what an element holds: the head, SVG, an iframe's fallback, an
    /// element hidden by its attributes or the book's stylesheets (``ContentConverter/open``).
    private static func hides(_ name: String, _ attributes: [MarkupAttribute], _ styles: BookStyles) -> Bool {
        switch ElementKind(name: name) {
        case .head, .raw, .svg, .notShown, .frame: return true
        default: return ElementAttributes(attributes).hides(by: styles)
        }
    }

    /// The text child the parent's next text goes into: its last child if that is text, or a new one.
    private mutating func textIndex(in parent: Int) -> Int {
        if case .text(let index) = elements[parent].children.last { return index }
        let index = texts.count
        texts.append(Text(parent: parent, step: 2 * elements[parent].elementCount + 1))
        elements[parent].children.append(.text(index))
        return index
    }

    /// The element a `/N` step leads to from `parent`, or the text an odd step leads to.
    func child(of parent: Int, step: Int) -> Child? {
        guard step > 0 else { return nil }
        for child in elements[parent].children {
            switch child {
            case .element(let index):
                if step % 2 == 0, position(ofElement: index) == step { return child }
            case .text(let index):
                if step % 2 == 1, texts[index].step == step { return child }
            }
        }
        return nil
    }

    /// An element's even step among its parent's children.
    func position(ofElement index: Int) -> Int {
        var count = 0
        for case .element(let sibling) in elements[elements[index].parent].children {
            count += 1
            if sibling == index { return 2 * count }
        }
        return 0
    }

    /// The texts in document order whose characters are shown, first to last.
    func shownTexts(from start: Int = 0) -> some Sequence<Int> {
        (start..<texts.count).lazy.filter { !texts[$0].rawOffsets.isEmpty }
    }
}

/// Lines up a document's text with the chapter's, one piece at a time, moving forward only.
///
/// A piece starts where its first few letters stand together a short way ahead (the chapter may
/// have added a list marker or a quotation mark before it); from there each letter must follow
/// closely. A piece that does not start, or loses more than a fifth of its letters, is not what
/// the chapter shows here (hidden text, a line number taken out) and leaves no trace.
private struct Aligner {
    let plain: [UInt16]
    var cursor = 0

    /// How many other characters the chapter may have between two letters of a piece.
    private static let gap = 3

    mutating func align(_ units: [UInt16], at base: Int, into text: inout ContentTree.Text) {
        let letters = units.indices.filter { !Self.isSpace(units[$0]) }
        if letters.isEmpty {
            alignSpace(units.count, at: base, into: &text)
            return
        }
        guard let start = start(of: letters.prefix(4).map { units[$0] }) else { return }
        var probe = start
        var raw: [Int32] = []
        var shown: [Int32] = []
        for index in letters {
            guard let found = next(units[index], from: probe) else { continue }
            raw.append(Int32(base + index))
            shown.append(Int32(found))
            probe = found + 1
        }
        guard raw.count * 5 >= letters.count * 4 else { return }
        cursor = probe
        text.rawOffsets += raw
        text.plainOffsets += shown
    }

    /// A piece of white space alone (between two spans of a `pre`, say) stands for the white space
    /// at the cursor: as much of it as the chapter kept.
    private mutating func alignSpace(_ count: Int, at base: Int, into text: inout ContentTree.Text) {
        var run = 0
        while run < count, cursor + run < plain.count, Self.isSpace(plain[cursor + run]) {
            text.rawOffsets.append(Int32(base + run))
            text.plainOffsets.append(Int32(cursor + run))
            run += 1
        }
        cursor += run
    }

    /// Where the piece's first letters stand together, at most ``ContentTree/window`` ahead.
    private func start(of first: [UInt16]) -> Int? {
        let end = min(plain.count, cursor + ContentTree.window)
        var candidate = cursor
        while candidate < end {
            if Self.same(plain[candidate], first[0]) {
                var probe = candidate + 1
                var matched = 1
                while matched < first.count, probe < plain.count {
                    if Self.isSpace(plain[probe]) {
                        probe += 1
                    } else if Self.same(plain[probe], first[matched]) {
                        probe += 1
                        matched += 1
                    } else {
                        break
                    }
                }
                if matched == first.count { return candidate }
            }
            candidate += 1
        }
        return nil
    }

    /// The next place of a letter from `probe`, past white space and at most ``gap`` other characters.
    private func next(_ unit: UInt16, from probe: Int) -> Int? {
        var position = probe
        var others = 0
        while position < plain.count {
            if Self.same(plain[position], unit) { return position }
            if !Self.isSpace(plain[position]) {
                others += 1
                if others > Self.gap { return nil }
            }
            position += 1
        }
        return nil
    }

    /// White space and the invisible characters the converter drops.
    static func isSpace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0xA0, 0xAD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// The same character, letter case aside.
    static func same(_ a: UInt16, _ b: UInt16) -> Bool {
        if a == b { return true }
        if a < 0x80, b < 0x80 { return a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A }
        guard let x = Unicode.Scalar(a), let y = Unicode.Scalar(b) else { return false }
        return x.properties.lowercaseMapping == y.properties.lowercaseMapping
    }
}
