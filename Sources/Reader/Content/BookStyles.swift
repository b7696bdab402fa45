/// The little of a book's CSS the reader honours: classes that mean italic, bold, small caps or
/// hidden, and whether paragraphs are indented.
///
/// Full CSS is out of scope; these are the rules that change what a reader in a terminal sees.
public struct BookStyles: Sendable, Hashable {
    var italicClasses: Set<String> = []
    var boldClasses: Set<String> = []
    var smallCapsClasses: Set<String> = []
    var hiddenClasses: Set<String> = []
    /// Ids a rule hides (`#answer { display: none }`).
    var hiddenIDs: Set<String> = []
    /// Classes taken out of the flow (`float`, `position: absolute|fixed`): a verse's line numbers.
    var marginClasses: Set<String> = []
    /// `text-transform` and `hyphens` by class (`.caps { text-transform: uppercase }`) and by
    /// element (`h1 { … }`, only from a selector that is the element's name alone).
    var classRules: [String: TextRules] = [:]
    var elementRules: [String: TextRules] = [:]
    /// `true` when a rule for `p` sets a non-zero `text-indent`, `false` when it sets zero.
    var indentsParagraphs: Bool?

    /// No styles at all.
    public init() {}

    /// Reads the rules this type cares about from a stylesheet's text and adds them.
    ///
    /// A byte scanner rather than string searching: books ship several stylesheets of tens of
    /// kilobytes, and this runs while the book opens.
    mutating func add(css text: String) {
        let bytes = Array(text.utf8)
        let count = bytes.count
        var index = 0
        var selectorStart = 0
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
                if selectorStart < index,
                    bytes[selectorStart..<min(index, count)].allSatisfy({
                        $0 <= 0x20 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "*")
                    })
                {
                    selectorStart = min(index, count)
                }
                continue
            }
            if byte == UInt8(ascii: "}") {
                // The end of an @media block, or a stray brace.
                index += 1
                selectorStart = index
                continue
            }
            guard byte == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            let selectors = String(decoding: bytes[selectorStart..<index], as: UTF8.self).trimmed
            index += 1
            if selectors.hasPrefix("@media") || selectors.hasPrefix("@supports") || selectors.hasPrefix("@document") {
                selectorStart = index  // rules inside are read as usual
                continue
            }
            let bodyStart = index
            while index < count, bytes[index] != UInt8(ascii: "}") { index += 1 }
            let body = bytes[bodyStart..<min(index, count)]
            index += 1
            selectorStart = index
            if selectors.hasPrefix("@") { continue }
            guard Self.mayMatter(body) else { continue }
            let declarations = Self.declarations(Substring(String(decoding: body, as: UTF8.self)))
            let rules = TextRules(declarations)
            for selector in selectors.split(separator: ",") {
                let name = selector.trimmed.lowercased()
                if !rules.isEmpty, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) {
                    elementRules[name] = rules.merged(over: elementRules[name])
                }
                let simple =
                    selector.split(whereSeparator: {
                        $0 == " " || $0 == ">" || $0 == "\n" || $0 == "\t" || $0 == "+" || $0 == "~"
                    }).last.map(String.init) ?? ""
                apply(declarations, to: simple)
            }
        }
    }

    /// Whether a rule's body mentions a property this type reads (most rules do not).
    private static func mayMatter(_ body: ArraySlice<UInt8>) -> Bool {
        var index = body.startIndex
        while index + 4 <= body.endIndex {
            let b0 = body[index] | 0x20
            let b1 = body[index + 1] | 0x20
            let b2 = body[index + 2] | 0x20
            let b3 = body[index + 3] | 0x20
            if (b0 == 0x66 && b1 == 0x6F && b2 == 0x6E && b3 == 0x74)  // font
                || (b0 == 0x64 && b1 == 0x69 && b2 == 0x73 && b3 == 0x70)  // disp
                || (b0 == 0x74 && b1 == 0x65 && b2 == 0x78 && b3 == 0x74)  // text
                || (b0 == 0x66 && b1 == 0x6C && b2 == 0x6F && b3 == 0x61)  // floa
                || (b0 == 0x70 && b1 == 0x6F && b2 == 0x73 && b3 == 0x69)  // posi
                || (b0 == 0x76 && b1 == 0x69 && b2 == 0x73 && b3 == 0x69)  // visi
                || (b0 == 0x68 && b1 == 0x79 && b2 == 0x70 && b3 == 0x68)
            {  // hyph
                return true
            }
            index += 1
        }
        return false
    }

    private mutating func apply(_ declarations: [String: String], to selector: String) {
        if selector == "p", let indent = declarations["text-indent"] {
            indentsParagraphs = !(indent.hasPrefix("0") || indent.hasPrefix("-0"))
        }
        if let hash = selector.firstIndex(of: "#"), Self.hides(declarations) {
            let id = selector[selector.index(after: hash)...].prefix(while: { $0 != ":" && $0 != "." && $0 != "[" })
            if !id.isEmpty { hiddenIDs.insert(String(id)) }
        }
        guard let dot = selector.firstIndex(of: ".") else { return }
        let className = String(
            selector[selector.index(after: dot)...].prefix(while: { $0 != ":" && $0 != "." && $0 != "[" && $0 != "#" }))
        guard !className.isEmpty else { return }
        if declarations["font-style"] == "italic" || declarations["font-style"] == "oblique" {
            italicClasses.insert(className)
        }
        if let weight = declarations["font-weight"], weight == "bold" || weight == "bolder" || (Int(weight) ?? 0) >= 600
        {
            boldClasses.insert(className)
        }
        // Small caps and upper case (``TextRules``) are the same in a terminal: capitals.
        if declarations["font-variant"] == "small-caps" || declarations["font-variant-caps"] == "small-caps" {
            smallCapsClasses.insert(className)
        }
        let rules = TextRules(declarations)
        if !rules.isEmpty { classRules[className] = rules.merged(over: classRules[className]) }
        if Self.hides(declarations) { hiddenClasses.insert(className) }
        if Self.outOfFlow(declarations) { marginClasses.insert(className) }
    }

    /// Whether declarations keep an element's text from being seen (`display: none`,
    /// `visibility: hidden`).
    static func hides(_ declarations: [String: String]) -> Bool {
        declarations["display"] == "none" || declarations["visibility"] == "hidden"
    }

    /// Whether declarations take an element out of the text's flow (floated or positioned).
    static func outOfFlow(_ declarations: [String: String]) -> Bool {
        if let float = declarations["float"], float == "left" || float == "right" { return true }
        if let position = declarations["position"], position == "absolute" || position == "fixed" { return true }
        return false
    }

    /// `property: value;` pairs, lower-cased, `!important` dropped.
    static func declarations(_ body: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for declaration in body.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let property = declaration[..<colon].trimmed.lowercased()
            var value = declaration[declaration.index(after: colon)...].trimmed.lowercased()
            if let bang = value.firstIndex(of: "!") { value = String(value[..<bang]).trimmingSpaces }
            result[property] = value
        }
        return result
    }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII white space. (By UTF-8 byte: the spaces are
    /// ASCII, and a Character search was a tenth of opening a book of 500 chapters.)
    var trimmed: String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        var end = bytes.index(after: first)
        var index = end
        while index != bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            if !isSpace(byte) { end = index }
        }
        return String(self[first..<end])
    }

    var trimmingSpaces: String { trimmed }
}
