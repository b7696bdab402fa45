/// A small element tree for the package's own files (container, OPF, NCX, nav, encryption).
///
/// Built forgivingly from `MarkupTokenizer`: an end tag closes the nearest open element of that
/// name, and one with no open match is ignored.
package final class MarkupElement {
    /// The lower-cased qualified name (`dc:title`).
    package let name: String
    package let attributes: [MarkupAttribute]
    package private(set) var children: [MarkupElement] = []
    /// Text and elements in document order, for text extraction.
    package private(set) var content: [Content] = []

    package enum Content {
        case text(String)
        case element(MarkupElement)
    }

    /// The name without its namespace prefix (`dc:title` → `title`). Kept, not worked out at
    /// each look: every search of the tree compares it, and a Character search for the colon in
    /// each of a 500-entry nav's elements was a visible part of opening the book.
    package let localName: Substring

    package init(name: String, attributes: [MarkupAttribute]) {
        self.name = name
        self.attributes = attributes
        localName = Self.afterPrefix(name)
    }

    /// What follows the last colon of a name, the whole name when it has none.
    private static func afterPrefix(_ name: String) -> Substring {
        guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return Substring(name) }
        return name[name.utf8.index(after: colon)...]
    }

    /// An attribute by exact (lower-cased) name, or else by local name (`role` finds `opf:role`).
    package func attribute(_ wanted: String) -> String? {
        if let exact = attributes.first(where: { $0.name == wanted }) { return exact.value }
        return attributes.first(where: {
            $0.name.utf8.contains(UInt8(ascii: ":")) && Self.afterPrefix($0.name) == wanted
        })?
        .value
    }

    /// All text inside, with runs of white space collapsed to one space and trimmed.
    package var text: String {
        var raw = ""
        appendText(to: &raw)
        // Byte by byte: these four are ASCII, never part of another character's UTF-8, and
        // splitting into Characters took half the time of reading a nav of 500 entries.
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(raw.utf8.count)
        var space = false
        for byte in raw.utf8 {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                space = !collapsed.isEmpty
            } else {
                if space { collapsed.append(0x20) }
                space = false
                collapsed.append(byte)
            }
        }
        return String(decoding: collapsed, as: UTF8.self)
    }

    private func appendText(to out: inout String) {
        for item in content {
            switch item {
            case .text(let text): out += text
            case .element(let element): element.appendText(to: &out)
            }
        }
    }

    /// Direct children with this local name.
    package func children(_ local: String) -> [MarkupElement] {
        children.filter { $0.localName == local }
    }

    /// The first direct child with this local name.
    package func child(_ local: String) -> MarkupElement? {
        children.first { $0.localName == local }
    }

    /// Every descendant (depth first, document order) with this local name.
    package func descendants(_ local: String) -> [MarkupElement] {
        var found: [MarkupElement] = []
        collect(local, into: &found)
        return found
    }

    /// The first descendant that satisfies `predicate`, depth first.
    package func first(where predicate: (MarkupElement) -> Bool) -> MarkupElement? {
        for child in children {
            if predicate(child) { return child }
            if let found = child.first(where: predicate) { return found }
        }
        return nil
    }

    private func collect(_ local: String, into found: inout [MarkupElement]) {
        for child in children {
            if child.localName == local { found.append(child) }
            child.collect(local, into: &found)
        }
    }

    package func append(_ element: MarkupElement) {
        children.append(element)
        content.append(.element(element))
    }

    package func append(text: String) {
        content.append(.text(text))
    }

    /// HTML elements that never have content, even when written without `/>`.
    package static let voidElements: Set<String> = [
        "br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr", "source", "track", "embed", "param",
    ]

    /// Parses a whole document into a tree under a synthetic root named `#document`.
    ///
    /// - Parameter html: whether HTML's void elements (`meta`, `br`, ...) are empty even without
    ///   `/>`; `false` for the package's XML files, where `<meta>` has content.
    package static func parse(_ bytes: [UInt8], html: Bool = false) -> MarkupElement {
        var tokenizer = MarkupTokenizer(bytes: bytes)
        let root = MarkupElement(name: "#document", attributes: [])
        var stack = [root]
        while let token = tokenizer.next() {
            switch token {
            case .start(let name, let attributes, let selfClosing):
                let element = MarkupElement(name: name, attributes: attributes)
                stack[stack.count - 1].append(element)
                if !selfClosing, !(html && voidElements.contains(name)), name != "script", name != "style" {
                    stack.append(element)
                }
            case .end(let name):
                if let index = stack.lastIndex(where: { $0.name == name }), index > 0 {
                    stack.removeSubrange(index...)
                }
            case .text(let text):
                stack[stack.count - 1].append(text: text)
            }
        }
        return root
    }
}
