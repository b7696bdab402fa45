/// Where a block's words may break with a hyphen, as the book's CSS `hyphens` says.
public enum Hyphenation: Sendable, Hashable {
    /// Nowhere, not even at a soft hyphen (`hyphens: none`).
    case none
    /// Only at the soft hyphens the book put in (`hyphens: manual`).
    case manual
    /// Also where the language's patterns allow, when the reader hyphenates (`hyphens: auto`, the default here).
    case auto
}

/// What a book's CSS says of an element's letters and word breaks: `text-transform` and `hyphens`
/// (and their `-epub-`/`-webkit-` forms), as they change the text a terminal shows.
struct TextRules: Sendable, Hashable {
    /// `text-transform`.
    enum LetterCase: Sendable, Hashable {
        case upper, lower, capitalize, none
    }

    var letterCase: LetterCase?
    var hyphenation: Hyphenation?

    /// The rules in a declaration block; empty when it sets neither property.
    init(_ declarations: [String: String]) {
        let transform = declarations["text-transform"] ?? declarations["-epub-text-transform"]
        letterCase =
            switch transform {
            case "uppercase": .upper
            case "lowercase": .lower
            case "capitalize": .capitalize
            case "none": LetterCase.none
            default: nil
            }
        let hyphens = declarations["hyphens"] ?? declarations["-epub-hyphens"] ?? declarations["-webkit-hyphens"]
        hyphenation =
            switch hyphens {
            case "none": Hyphenation.none
            case "manual": .manual
            case "auto": .auto
            default: nil
            }
    }

    var isEmpty: Bool { letterCase == nil && hyphenation == nil }

    /// These rules after `earlier` ones for the same selector: what these set wins, the rest stays.
    func merged(over earlier: TextRules?) -> TextRules {
        var merged = self
        merged.letterCase = letterCase ?? earlier?.letterCase
        merged.hyphenation = hyphenation ?? earlier?.hyphenation
        return merged
    }

    /// `style` with these rules in force: an element's own rule replaces the one it inherits.
    func applied(to style: InlineStyle) -> InlineStyle {
        var style = style
        if let letterCase {
            style.remove([.smallCaps, .lowercase, .capitalized])
            switch letterCase {
            case .upper: style.insert(.smallCaps)
            case .lower: style.insert(.lowercase)
            case .capitalize: style.insert(.capitalized)
            case .none: break
            }
        }
        if let hyphenation {
            style.remove([.noHyphens, .manualHyphens])
            switch hyphenation {
            case .none: style.insert(.noHyphens)
            case .manual: style.insert(.manualHyphens)
            case .auto: break
            }
        }
        return style
    }

    /// `text` as `style` sets its letters; `afterLetter`: whether the text before it ends inside a word.
    static func letters(_ text: String, style: InlineStyle, afterLetter: Bool) -> String {
        if style.contains(.smallCaps) { return text.uppercased() }
        if style.contains(.lowercase) { return text.lowercased() }
        guard style.contains(.capitalized) else { return text }
        // The first letter of each word: after white space, whatever punctuation comes between.
        var wordStart = !afterLetter
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isWhitespace {
                wordStart = true
                result.append(character)
            } else if character.isLetter || character.isNumber {
                result += wordStart ? character.uppercased() : String(character)
                wordStart = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
