internal import Foundation

/// The little of a book's CSS the reader honours: classes that mean italic, bold, small caps or
/// hidden, and whether paragraphs are indented.
///
/// Full CSS is out of scope; these are the rules that change what a reader in a terminal sees.
public struct BookStyles: Sendable, Hashable {
    var italicClasses: Set<String> = []
    var boldClasses: Set<String> = []
    var smallCapsClasses: Set<String> = []
    var hiddenClasses: Set<String> = []
    /// `true` when a rule for `p` sets a non-zero `text-indent`, `false` when it sets zero.
    var indentsParagraphs: Bool?

    /// No styles at all.
    public init() {}

    /// Reads the rules this type cares about from a stylesheet's text and adds them.
    mutating func add(css: String) {
        var text = css
        // Comments can hide braces; drop them first.
        while let open = text.range(of: "/*") {
            if let close = text.range(of: "*/", range: open.upperBound..<text.endIndex) {
                text.removeSubrange(open.lowerBound..<close.upperBound)
            } else {
                text.removeSubrange(open.lowerBound...)
            }
        }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let selectors = rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let body = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if selectors.contains("@") { continue } // @media, @font-face: skip the at-rule's own header
            let declarations = Self.declarations(body)
            for selector in selectors.split(separator: ",") {
                let simple = selector.split(whereSeparator: { $0 == " " || $0 == ">" || $0 == "\n" || $0 == "\t" }).last.map(String.init) ?? ""
                apply(declarations, to: simple)
            }
        }
    }

    private mutating func apply(_ declarations: [String: String], to selector: String) {
        if selector == "p", let indent = declarations["text-indent"] {
            indentsParagraphs = !(indent.hasPrefix("0") || indent.hasPrefix("-0"))
        }
        guard let dot = selector.firstIndex(of: ".") else { return }
        let className = String(selector[selector.index(after: dot)...].prefix(while: { $0 != ":" && $0 != "." && $0 != "[" }))
        guard !className.isEmpty else { return }
        if declarations["font-style"] == "italic" || declarations["font-style"] == "oblique" { italicClasses.insert(className) }
        if let weight = declarations["font-weight"], weight == "bold" || weight == "bolder" || (Int(weight) ?? 0) >= 600 {
            boldClasses.insert(className)
        }
        if declarations["font-variant"] == "small-caps" || declarations["font-variant-caps"] == "small-caps" {
            smallCapsClasses.insert(className)
        }
        if declarations["display"] == "none" { hiddenClasses.insert(className) }
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
    /// The text without leading and trailing ASCII white space.
    var trimmed: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

    var trimmingSpaces: String { trimmed }
}
