import Localization

/// What a command printed: lines for a person, and a JSON object for `--json`.
struct CommandOutput {
    /// Rendered lines (styled for the theme in use).
    var lines: [String] = []
    /// The machine form of the same answer, for `--json`.
    var json: (any Encodable & Sendable)?
    /// True when the REPL should end after this command.
    var quit = false
    /// Another library's session, for the REPL to go on with (`library use NAME`).
    var switchTo: Session?

    init(lines: [String] = [], json: (any Encodable & Sendable)? = nil, quit: Bool = false) {
        self.lines = lines
        self.json = json
        self.quit = quit
    }
}

/// What the words after a command name can be completed with.
enum CompletionKind: Sendable {
    case none
    /// Command names (for `help`).
    case commands
    /// Numbers of the last list.
    case resultNumbers
    /// A fixed set of words for the first argument, and for the second; in Swedish the Swedish
    /// words too (the English ones work in either language).
    case words([String], then: [String], swedish: [String] = [], swedishThen: [String] = [])

    /// The fixed words for the positional argument at `position` (0 the first), in the interface language.
    func words(at position: Int) -> [String] {
        guard case .words(let first, let then, let swedish, let swedishThen) = self else { return [] }
        let inSwedish = Localization.language == "sv"
        switch position {
        case 0: return first + (inSwedish ? swedish : [])
        case 1: return then + (inSwedish ? swedishThen : [])
        default: return []
        }
    }
}

/// One entry of the command table: its names, its help, how to complete it and how to run it.
///
/// The REPL, one-shot invocations and scenario files all run commands through this table.
struct Command: Sendable {
    /// The name typed at the prompt.
    let name: String
    /// Other names that run the same command.
    var aliases: [String] = []
    /// Its names in Swedish, the first shown in Swedish help; like aliases they work in any
    /// language, and a name may be two words (`logga in`).
    var swedish: [String] = []
    /// The usage line, e.g. `search QUERY [--sort KEY] [--order asc|desc]` (translated where shown).
    let synopsis: String
    /// One line for the `help` overview (translated where shown).
    let summary: String
    /// Details and examples for `help NAME`: paragraphs marked with `N_`, each translated and
    /// wrapped to the terminal where shown (an `Examples:` paragraph keeps its spacing).
    let details: [String]
    /// Options that take a value.
    var valued: Set<String> = []
    /// Flags it accepts (besides `--json`).
    var flags: Set<String> = []
    /// How to complete its arguments.
    var completion: CompletionKind = .none
    /// Runs the command.
    let run: @MainActor @Sendable (Arguments, Session) async throws -> CommandOutput
}
