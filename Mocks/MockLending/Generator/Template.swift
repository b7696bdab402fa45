/// A text pattern with `{slot}` holes, parsed once so that filling it for 200 000 books costs
/// only array look-ups and appends.
///
/// A hole names either a `Story` binding (`{place}`, `{hero}` — the same value everywhere in one
/// book, so the blurb talks about the place the title names) or a word list (a fresh pick each
/// time). An unknown name is a bug in the word lists and stops the program at first use.
struct Template: Sendable {
    enum Piece: Sendable {
        case text(String)
        case binding(Story.Binding)
        case list(Int)
    }

    let pieces: [Piece]
    /// The word lists the `.list` pieces index into.
    let lists: [[String]]
    /// Number of `.list` pieces: the numbers `render` draws (one each: `SplitMix64.below` draws
    /// one whatever its bound).
    let draws: Int

    init(_ pattern: String, lists named: [String: [String]] = [:]) {
        var pieces: [Piece] = []
        var lists: [[String]] = []
        var listIndex: [String: Int] = [:]
        Template.scan(pattern) { piece in
            switch piece {
            case .literal(let text): pieces.append(.text(text))
            case .hole(let name):
                if let binding = Story.Binding(rawValue: name) {
                    pieces.append(.binding(binding))
                } else if let words = named[name] {
                    let index =
                        listIndex[name]
                        ?? {
                            lists.append(words)
                            listIndex[name] = lists.count - 1
                            return lists.count - 1
                        }()
                    pieces.append(.list(index))
                } else {
                    preconditionFailure("Template \"\(pattern)\" names an unknown slot {\(name)}")
                }
            }
        }
        self.pieces = pieces
        self.lists = lists
        draws = pieces.reduce(0) {
            if case .list = $1 { $0 + 1 } else { $0 }
        }
    }

    /// Fills the holes, appending to `out`.
    func render(into out: inout String, story: Story, language: Story.Language, rng: inout SplitMix64) {
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .binding(let binding): out += story.value(binding, in: language)
            case .list(let index): out += rng.pick(lists[index])
            }
        }
    }

    /// The filled text.
    func render(story: Story, language: Story.Language, rng: inout SplitMix64) -> String {
        var out = ""
        render(into: &out, story: story, language: language, rng: &rng)
        return out
    }

    enum Scanned {
        case literal(String)
        case hole(String)
    }

    /// Splits a pattern into literal text and `{name}` holes.
    static func scan(_ pattern: String, _ emit: (Scanned) -> Void) {
        var literal = ""
        var hole: String?
        for ch in pattern {
            if ch == "{" {
                if !literal.isEmpty {
                    emit(.literal(literal))
                    literal = ""
                }
                hole = ""
            } else if ch == "}", let name = hole {
                emit(.hole(name))
                hole = nil
            } else if hole != nil {
                hole!.append(ch)
            } else {
                literal.append(ch)
            }
        }
        if !literal.isEmpty { emit(.literal(literal)) }
    }
}

/// A title written in Swedish and English at once, so that a Swedish edition of an English novel
/// gets a title that really is the translation of its `OriginalTitle`.
///
/// Word lists hold pairs; one pick serves both languages.
struct BilingualTemplate: Sendable {
    enum Piece: Sendable {
        case text(String)
        case binding(Story.Binding)
        case list(Int)
    }

    let swedish: [Piece]
    let english: [Piece]
    let lists: [[(sv: String, en: String)]]

    init(sv: String, en: String, lists named: [String: [(sv: String, en: String)]] = [:]) {
        var lists: [[(sv: String, en: String)]] = []
        var listIndex: [String: Int] = [:]
        func parse(_ pattern: String) -> [Piece] {
            var pieces: [Piece] = []
            Template.scan(pattern) { scanned in
                switch scanned {
                case .literal(let text): pieces.append(.text(text))
                case .hole(let name):
                    if let binding = Story.Binding(rawValue: name) {
                        pieces.append(.binding(binding))
                    } else if let words = named[name] {
                        let index =
                            listIndex[name]
                            ?? {
                                lists.append(words)
                                listIndex[name] = lists.count - 1
                                return lists.count - 1
                            }()
                        pieces.append(.list(index))
                    } else {
                        preconditionFailure("Title \"\(pattern)\" names an unknown slot {\(name)}")
                    }
                }
            }
            return pieces
        }
        swedish = parse(sv)
        english = parse(en)
        self.lists = lists
    }

    /// The Swedish and the English title, with the same words chosen for both; a language not
    /// asked for is left empty (the same numbers are drawn).
    func render(
        story: Story, rng: inout SplitMix64, swedish writesSwedish: Bool = true, english writesEnglish: Bool = true
    ) -> (sv: String, en: String) {
        var choices: [Int] = []
        choices.reserveCapacity(lists.count)
        for list in lists { choices.append(rng.below(list.count)) }
        func fill(_ pieces: [Piece], _ language: Story.Language) -> String {
            var out = ""
            for piece in pieces {
                switch piece {
                case .text(let text): out += text
                case .binding(let binding): out += story.value(binding, in: language)
                case .list(let index):
                    let pair = lists[index][choices[index]]
                    out += language == .english ? pair.en : pair.sv
                }
            }
            return out
        }
        return (
            writesSwedish ? Story.capitalizingFirst(fill(swedish, .swedish)) : "",
            writesEnglish ? Story.capitalizingFirst(fill(english, .english)) : ""
        )
    }
}
