/// A name in an XML namespace: the namespace's URI and the name's local part (`opds:holds` in a
/// document that binds `opds` to `http://opds-spec.org/2010/catalog` is that URI and `holds`).
package struct XMLName: Sendable, Hashable {
    /// The namespace's URI; nil for a name in no namespace, or with a prefix nobody declared.
    package let namespace: String?
    package let local: String

    package init(namespace: String?, local: String) {
        self.namespace = namespace
        self.local = local
    }
}

/// An attribute of an element, by namespace and local name. An attribute without a prefix is in no
/// namespace (not the element's default one), as XML Namespaces says.
package struct XMLAttribute: Sendable, Equatable {
    package let name: XMLName
    package let value: String

    package init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

/// One event of an XML document read from start to end.
package enum XMLEvent: Sendable, Equatable {
    /// An element opens; an empty one (`<link/>`) is followed at once by its `end`.
    case start(XMLName, [XMLAttribute])
    /// An element closes.
    case end(XMLName)
    /// Character data (references decoded, CDATA as it is), as written: not yet safe to draw.
    case text(String)
}

/// Reads an XML document as events, with its namespaces resolved, and stops at the first thing
/// that is not well-formed XML, as an XML parser must.
///
/// Over ``MarkupTokenizer`` in its XML syntax (encodings, references, CDATA, comments, processing
/// instructions, an internal DOCTYPE subset whose entities are plain text; never an external
/// entity). This adds what needs the whole document: tags that match, one root element and no
/// text outside it, no attribute twice, a cap on depth; and the namespace of every name, from the
/// `xmlns` and `xmlns:prefix` declarations of the element or any ancestor, the nearest winning.
package struct XMLReader {
    // Not patron-facing: the feed's parser turns it into its own failure.
    /// Why the document is not well-formed XML.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// How deep elements may nest: libxml2's limit, which catalogues lived with until now. Every
    /// open element costs memory, and a hostile document could open millions.
    package static let maxDepth = 256

    private var tokenizer: MarkupTokenizer
    /// The open elements: qualified name as written, the resolved name, and where their namespace
    /// declarations start in `bindings`.
    private var open: [(qualified: String, name: XMLName, bindings: Int)] = []
    /// Namespace declarations in force, outermost first: prefix ("" for the default) and URI.
    private var bindings: [(prefix: Substring, uri: String)] = []
    /// The URI of the default namespace in force (`xmlns="…"`), kept as the bindings change:
    /// most names have no prefix, and a feed's thousands of them need not search the bindings.
    private var defaultNamespace: String?
    /// The end of an empty element, to be given after its start, and where its bindings start.
    private var pendingEnd: (name: XMLName, bindings: Int)?
    private var sawRoot = false
    private var failed = false

    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    /// A reader over a document's bytes in any encoding ``XMLEncoding`` reads.
    package init(bytes: [UInt8]) {
        tokenizer = MarkupTokenizer(bytes: bytes, syntax: .xml)
    }

    /// The next event, or nil at the end of a well-formed document.
    /// - Throws: ``Failure`` at the first thing that is not well-formed; after that, nil.
    package mutating func next() throws(Failure) -> XMLEvent? {
        if failed { return nil }
        if let pending = pendingEnd {
            pendingEnd = nil
            unbind(from: pending.bindings)
            return .end(pending.name)
        }
        while true {
            guard let token = tokenizer.next() else {
                try check()
                if !open.isEmpty { try fail("ends inside the element \(open[open.count - 1].qualified)") }
                if !sawRoot { try fail("has no element") }
                return nil
            }
            try check()
            switch token {
            case .start(let qualified, let attributes, let selfClosing):
                return try start(qualified, attributes, empty: selfClosing)
            case .end(let qualified):
                guard let top = open.last, top.qualified == qualified else {
                    try fail("has an end tag (\(qualified)) that does not match the open element")
                }
                open.removeLast()
                unbind(from: top.bindings)
                return .end(top.name)
            case .text(let text):
                if !open.isEmpty { return .text(text) }
                if text.utf8.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) {
                    try fail("has text outside its root element")
                }
            }
        }
    }

    private mutating func start(
        _ qualified: String, _ attributes: [MarkupAttribute], empty: Bool
    ) throws(Failure)
        -> XMLEvent
    {
        if sawRoot, open.isEmpty { try fail("has a second root element (\(qualified))") }
        if open.count >= Self.maxDepth { try fail("nests elements deeper than \(Self.maxDepth)") }
        sawRoot = true
        let mark = bindings.count
        // Declarations first: an attribute's prefix may be declared after it in the same tag.
        var declarations = 0
        for attribute in attributes {
            if attribute.name == "xmlns" {
                bindings.append(("", attribute.value))
            } else if Self.isPrefixDeclaration(attribute.name) {
                bindings.append((attribute.name.dropFirst(6), attribute.value))
            } else {
                continue
            }
            declarations += 1
        }
        if declarations > 0 { defaultNamespace = uri(for: "") }
        try checkUnique(attributes)
        var resolved: [XMLAttribute] = []
        resolved.reserveCapacity(attributes.count - declarations)
        for attribute in attributes
        where declarations == 0 || attribute.name != "xmlns" && !Self.isPrefixDeclaration(attribute.name) {
            resolved.append(XMLAttribute(name: name(attribute.name, isAttribute: true), value: attribute.value))
        }
        let element = name(qualified, isAttribute: false)
        if empty {
            pendingEnd = (element, mark)
        } else {
            open.append((qualified, element, mark))
        }
        return .start(element, resolved)
    }

    /// A qualified name resolved against the declarations in force. An element without a prefix
    /// is in the default namespace; an attribute without one is in none. A prefix nobody declared
    /// leaves the name in no namespace (libxml2 called that an error; a catalogue is still read).
    private func name(_ qualified: String, isAttribute: Bool) -> XMLName {
        guard let colon = Self.colon(in: qualified) else {
            return XMLName(namespace: isAttribute ? nil : defaultNamespace, local: qualified)
        }
        let prefix = qualified[..<colon]
        let local = String(qualified[qualified.utf8.index(after: colon)...])
        if prefix == "xml" { return XMLName(namespace: Self.xmlNamespace, local: local) }
        return XMLName(namespace: uri(for: prefix), local: local)
    }

    /// Where the name's colon is, looked for in its bytes (the generic `firstIndex` is slower).
    private static func colon(in qualified: String) -> String.Index? {
        var qualified = qualified
        let offset = qualified.withUTF8 { bytes in bytes.firstIndex(of: UInt8(ascii: ":")) }
        return offset.map { qualified.utf8.index(qualified.utf8.startIndex, offsetBy: $0) }
    }

    /// Drops the declarations of the elements that closed.
    private mutating func unbind(from mark: Int) {
        guard mark < bindings.count else { return }
        bindings.removeSubrange(mark...)
        defaultNamespace = uri(for: "")
    }

    /// The URI bound to `prefix` by the nearest declaration; nil when none is, or when it was
    /// undeclared with an empty URI (`xmlns=""`).
    private func uri(for prefix: Substring) -> String? {
        for binding in bindings.reversed() where binding.prefix == prefix {
            return binding.uri.isEmpty ? nil : binding.uri
        }
        return nil
    }

    /// `xmlns:prefix`, by its bytes (String's `hasPrefix` compares as Unicode, which a feed of
    /// thousands of tags feels).
    private static func isPrefixDeclaration(_ name: String) -> Bool {
        name.utf8.count > 6 && name.utf8.starts(with: "xmlns:".utf8)
    }

    /// XML allows an attribute once per tag.
    private mutating func checkUnique(_ attributes: [MarkupAttribute]) throws(Failure) {
        guard attributes.count > 1 else { return }
        if attributes.count <= 16 {
            for index in 1..<attributes.count
            where attributes[..<index].contains(where: { $0.name == attributes[index].name }) {
                try fail("repeats the attribute \(attributes[index].name)")
            }
        } else {
            var seen = Set<String>()
            for attribute in attributes where !seen.insert(attribute.name).inserted {
                try fail("repeats the attribute \(attribute.name)")
            }
        }
    }

    private mutating func check() throws(Failure) {
        if !tokenizer.isWellFormed { try fail("is not well-formed") }
    }

    private mutating func fail(_ why: String) throws(Failure) -> Never {
        failed = true
        throw Failure(description: why)
    }
}
