/// A sentence pattern with `{slot}` holes and `*emphasis*`, parsed once.
///
/// A slot names a character or place of the book (`{hero}`, `{inPlace}`) or a word list
/// (`{weather}`); `ProseWriter` fills it. Literal text is escaped for XHTML when parsed, and
/// `*…*` becomes `<em>…</em>`, so filling a pattern only appends strings.
struct Phrase: Sendable {
    enum Piece: Sendable {
        case text(String)
        case slot(String)
    }

    let pieces: [Piece]

    init(_ pattern: String) {
        var pieces: [Piece] = []
        var literal = ""
        var slot: String?
        var emphasis = false
        for ch in pattern {
            if let name = slot {
                if ch == "}" {
                    pieces.append(.slot(name))
                    slot = nil
                } else {
                    slot = name + String(ch)
                }
                continue
            }
            switch ch {
            case "{":
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                slot = ""
            case "*":
                literal += emphasis ? "</em>" : "<em>"
                emphasis.toggle()
            case "&": literal += "&amp;"
            case "<": literal += "&lt;"
            case ">": literal += "&gt;"
            default: literal.append(ch)
            }
        }
        precondition(slot == nil && !emphasis, "unbalanced { or * in \"\(pattern)\"")
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// The slot names the pattern uses.
    var slots: [String] {
        pieces.compactMap { if case .slot(let name) = $0 { name } else { nil } }
    }
}

/// Parses each pattern.
func phrases(_ patterns: [String]) -> [Phrase] { patterns.map(Phrase.init) }
