import Markup

/// MathML as one line of text a terminal can show (several for a table), since a terminal
/// cannot typeset it: a linear form that keeps what flattening loses — sub- and superscripts
/// (`x₁`, `x²` where Unicode has the characters, `x_(n+1)` where not), fractions as `(a)/(b)`,
/// roots, fences, and one row of an `mtable` a line.
///
/// The drawing comes first: conversion tools fill `alttext` with placeholders ("Alternative text
/// not available") or with words that say less than the equation, and either hid every equation
/// of a book. The author's `alttext`, else a plain-text or TeX annotation, stands in only for
/// MathML that cannot be drawn: content MathML, or elements this linear form does not know.
enum MathLinearizer {
    /// The text for a `math` element.
    static func text(of math: MarkupElement) -> String {
        let drawn = tidy(linear(math))
        if !drawn.isEmpty, isDrawable(math) { return drawn }
        if let alt = math.attribute("alttext")?.trimmed, !alt.isEmpty, !isPlaceholder(alt) { return alt }
        return annotation(in: math) ?? drawn
    }

    /// Whether every element of the presentation is one the linear form draws.
    private static func isDrawable(_ element: MarkupElement) -> Bool {
        switch element.localName {
        case "annotation", "annotation-xml":
            return true
        case "semantics":
            // The first child is the presentation; the rest are annotations of it.
            return element.children.first.map(isDrawable) ?? false
        default:
            return drawable.contains(element.localName) && element.children.allSatisfy(isDrawable)
        }
    }

    /// The elements ``linear(_:)`` draws (MathML Core's presentation elements, and `mfenced`).
    private static let drawable: Set<Substring> = [
        "math", "mrow", "mstyle", "mpadded", "mphantom", "merror", "menclose", "maction", "mi", "mn", "mo",
        "mtext", "ms", "mspace", "msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts",
        "mprescripts", "none", "mfrac", "msqrt", "mroot", "mfenced", "mtable", "mtr", "mlabeledtr", "mtd",
        "maligngroup", "malignmark",
    ]

    /// Whether an `alttext` says nothing of the equation: a converter's placeholder, or a word
    /// that only names what it is.
    private static func isPlaceholder(_ alt: String) -> Bool {
        let words = alt.lowercased().split { !$0.isLetter }.joined(separator: " ")
        if words.contains("not available") || words.contains("unavailable") || words.hasPrefix("no alt") {
            return true
        }
        return ["", "alt", "alttext", "alt text", "math", "mathml", "equation", "formula", "image"].contains(words)
    }

    /// A plain-text annotation, else a TeX one, from the `semantics` element.
    private static func annotation(in math: MarkupElement) -> String? {
        let annotations = math.descendants("annotation")
        func encoded(_ wanted: (String) -> Bool) -> String? {
            annotations.first { wanted(($0.attribute("encoding") ?? "").lowercased()) }.map(\.text).flatMap {
                $0.isEmpty ? nil : $0
            }
        }
        return encoded { $0 == "text/plain" || $0 == "text" } ?? encoded { $0.contains("tex") }
    }

    /// Between the cells of a table row: two em spaces, which the tidying of spaces keeps.
    static let cellGap = "\u{2003}\u{2003}"

    /// Operators written with a space on each side.
    private static let spaced: Set<String> = [
        "=", "+", "−", "-", "×", "·", "÷", "<", ">", "≤", "≥", "≠", "≈", "±", "→", "⇒", "⇔", "∈", "∉", "⊂", "⊆", "∪",
        "∩", "≡", "∼", "∝",
    ]

    private static func linear(_ element: MarkupElement) -> String {
        let children = element.children.filter { $0.localName != "annotation" && $0.localName != "annotation-xml" }
        func at(_ index: Int) -> String { children.indices.contains(index) ? linear(children[index]) : "" }
        switch element.localName {
        case "mi", "mn", "mtext", "ms":
            return element.text
        case "mo":
            let op = element.text
            return spaced.contains(op) ? " \(op) " : op == "," ? ", " : op
        case "mspace":
            return " "
        case "mphantom", "none", "mprescripts":
            // A phantom only takes up room.
            return ""
        case "maction":
            // What is shown before any action: the child `selection` names, the first by default.
            return at((element.attribute("selection").flatMap { Int($0.trimmed) } ?? 1) - 1)
        case "semantics":
            return at(0)
        case "msub", "munder":
            return base(at(0)) + script(at(1), superscript: false)
        case "msup", "mover":
            return base(at(0)) + script(at(1), superscript: true)
        case "msubsup", "munderover":
            return base(at(0)) + script(at(1), superscript: false) + script(at(2), superscript: true)
        case "mmultiscripts":
            return multiscripts(children)
        case "mfrac":
            return grouped(at(0)) + "/" + grouped(at(1))
        case "msqrt":
            return "√" + grouped(children.map(linear).joined())
        case "mroot":
            return script(at(1), superscript: true) + "√" + grouped(at(0))
        case "mfenced":
            let open = element.attribute("open") ?? "("
            let close = element.attribute("close") ?? ")"
            let separator = (element.attribute("separators") ?? ",").trimmed.first.map(String.init) ?? ","
            return open + children.map(linear).joined(separator: separator + " ") + close
        case "mtable":
            return "\n" + children.map(linear).joined(separator: "\n") + "\n"
        case "mtr":
            return children.map { tidy(linear($0)) }.joined(separator: cellGap)
        case "mlabeledtr":
            return children.dropFirst().map { tidy(linear($0)) }.joined(separator: cellGap)
        default:
            // Text and elements in document order (text straight inside an mrow counts too).
            return element.content.map { item in
                switch item {
                case .text(let text):
                    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
                case .element(let child):
                    child.localName == "annotation" || child.localName == "annotation-xml" ? "" : linear(child)
                }
            }.joined()
        }
    }

    /// `mmultiscripts`: a base, pairs of sub- and superscripts after it, and after `mprescripts`
    /// pairs written before it (`₁₄C`, `Xᵢʲ`).
    private static func multiscripts(_ children: [MarkupElement]) -> String {
        guard let base = children.first else { return "" }
        let rest = children.dropFirst()
        let split = rest.firstIndex { $0.localName == "mprescripts" }
        func scripts(_ items: ArraySlice<MarkupElement>) -> String {
            let items = Array(items)
            return stride(from: 0, to: items.count, by: 2).map { index in
                script(linear(items[index]), superscript: false)
                    + (index + 1 < items.count ? script(linear(items[index + 1]), superscript: true) : "")
            }.joined()
        }
        let post = split.map { rest[..<$0] } ?? rest
        let pre = split.map { rest[rest.index(after: $0)...] } ?? []
        return scripts(pre) + self.base(linear(base)) + scripts(post)
    }

    /// A sub- or superscript: Unicode's small characters when every character has one, else `_x`, `^x`, `_(…)`, `^(…)`.
    private static func script(_ text: String, superscript: Bool) -> String {
        let text = tidy(text).filter { $0 != " " }
        guard !text.isEmpty else { return "" }
        let table = superscript ? superscripts : subscripts
        let small = text.compactMap { table[$0] }
        if small.count == text.count { return String(small) }
        let mark = superscript ? "^" : "_"
        return text.count == 1 ? mark + text : mark + "(" + text + ")"
    }

    /// A base of a script, bracketed when it is more than one term (`(a + b)²`).
    private static func base(_ text: String) -> String {
        let text = tidy(text)
        let bracketed = text.hasPrefix("(") && text.hasSuffix(")") && !text.dropFirst().dropLast().contains(")")
        return text.contains(" ") && !bracketed ? "(" + text + ")" : text
    }

    /// A numerator or a root's content: bracketed unless it is a single term.
    private static func grouped(_ text: String) -> String {
        let text = tidy(text)
        let single =
            !text.isEmpty && !text.contains(" ") && !text.contains("/") && !text.contains("+") && !text.contains("−")
            && !text.contains("-")
        return single ? text : "(" + text + ")"
    }

    /// Runs of spaces as one, trimmed, line by line.
    private static func tidy(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            .joined(separator: "\n")
            .trimmed
    }

    private static let superscripts: [Character: Character] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
        "+": "⁺", "-": "⁻", "−": "⁻", "=": "⁼", "(": "⁽", ")": "⁾", "n": "ⁿ", "i": "ⁱ",
    ]
    private static let subscripts: [Character: Character] = [
        "0": "₀", "1": "₁", "2": "₂", "3": "₃", "4": "₄", "5": "₅", "6": "₆", "7": "₇", "8": "₈", "9": "₉",
        "+": "₊", "-": "₋", "−": "₋", "=": "₌", "(": "₍", ")": "₎", "a": "ₐ", "e": "ₑ", "o": "ₒ", "x": "ₓ",
        "h": "ₕ", "k": "ₖ", "l": "ₗ", "m": "ₘ", "n": "ₙ", "p": "ₚ", "s": "ₛ", "t": "ₜ", "i": "ᵢ", "j": "ⱼ",
        "r": "ᵣ", "u": "ᵤ", "v": "ᵥ",
    ]
}
