/// A command's words after its name, with `--option value` and `--flag` pulled out.
///
/// The REPL, one-shot invocations and scenario files all give commands their words this way,
/// so `search thriller --sort author` means the same everywhere.
struct Arguments: Sendable {
    /// Words that are not options, in order.
    private(set) var positional: [String]
    private var options: [String: String]
    private var flags: Set<String>

    /// Splits words into positional words, options that take a value, and flags.
    /// - Parameter valued: names of options that take a value (without `--`).
    init(_ words: [String], valued: Set<String> = []) throws {
        positional = []
        options = [:]
        flags = []
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositional || !word.hasPrefix("--") || word == "--" {
                if word == "--", !onlyPositional {
                    onlyPositional = true
                    continue
                }
                positional.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valued.contains(name) {
                if value == nil {
                    guard index < words.count else { throw UserError.usage("--\(name) needs a value.") }
                    value = words[index]
                    index += 1
                }
                options[name] = value
            } else {
                flags.insert(name)
            }
        }
    }

    /// The value of `--name`, if given.
    func option(_ name: String) -> String? { options[name] }
    /// True when `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Flags that were given but not in `known`, for an "unknown option" message.
    func unknownFlags(known: Set<String>) -> [String] { flags.subtracting(known).sorted() }
    /// The positional words joined by spaces.
    var text: String { positional.joined(separator: " ") }
}

/// Splits a command line into words like a shell: spaces separate, quotes group, `\` escapes.
enum LineSplitter {
    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        var escape = false
        for ch in line {
            if escape {
                current.append(ch)
                escape = false
                continue
            }
            if ch == "\\", quote != "'" {
                escape = true
                inWord = true
                continue
            }
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
                continue
            }
            if ch == "\"" || ch == "'" {
                quote = ch
                inWord = true
                continue
            }
            if ch.isWhitespace {
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
                continue
            }
            current.append(ch)
            inWord = true
        }
        if quote != nil { throw UserError.usage("A quote is not closed. Close it, e.g. search \"röda rummet\".") }
        if inWord { words.append(current) }
        return words
    }
}
