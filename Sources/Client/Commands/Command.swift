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
    /// A document for another program (`loans --ics`), printed as it is instead of the lines.
    var document: String?
    /// Covers in real pixels, drawn over their half-block rows in `lines` where the printer can
    /// (``CoverPicture``); `lines` as they are everywhere else.
    var pictures: [CoverPicture] = []

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
    /// The languages bok speaks.
    case languages
    /// A fixed set of words for the first argument, and for the second.
    case words([String], then: [String])
    /// The same, for words the catalogues name in other languages: in another interface language
    /// its names come after the English ones (which work in any language).
    case typedWords([TypedWord], then: [TypedWord])
    /// The words of `filter` (`available`, `category:`, `clear`), in English and the interface language.
    case filters

    /// The fixed words for the positional argument at `position` (0 the first), in the interface language.
    func words(at position: Int) -> [String] {
        switch (self, position) {
        case (.languages, 0): return Localization.languages
        case (.words(let first, _), 0): return first
        case (.words(_, let then), 1): return then
        case (.typedWords(let first, _), 0): return first.map(\.english) + first.flatMap(\.localNames).sorted()
        case (.typedWords(_, let then), 1): return then.map(\.english) + then.flatMap(\.localNames).sorted()
        case (.filters, _): return FilterWord.completions(at: position)
        default: return []
        }
    }
}

/// One entry of the command table: its names, its help, how to complete it and how to run it.
///
/// The REPL, one-shot invocations and scenario files all run commands through this table.
struct Command: Sendable {
    /// Its name, marked for the catalogues (`TypedWord("typed: command", "search")`), which name it
    /// in other languages: the first of them shown in that language's help, and like aliases they
    /// work in any language; a name may be two words (`logga in`).
    let typedName: TypedWord
    /// Other names that run the same command, in any language.
    var aliases: [String] = []
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
    /// What it does when the library is an OPDS catalogue, declared here with the command (see
    /// `OPDSCommands`): `search` pages through the catalogue's feeds, `borrow N` follows an
    /// entry's borrow link. nil, or an answer of nil, runs it as in a lending library (`borrow N`
    /// when N is an item of the shelf on screen).
    var inCatalogue: CatalogueRun?
    /// Runs the command.
    let run: @MainActor @Sendable (Arguments, Session) async throws -> CommandOutput

    /// A command's run in an OPDS catalogue; nil hands it to the command's own run.
    typealias CatalogueRun = @MainActor @Sendable (Arguments, Session) async throws -> CommandOutput?

    /// The name typed at the prompt in English, which every language understands.
    var name: String { typedName.english }

    /// Its names in the interface language, the main one first (none in English).
    var localNames: [String] { typedName.localNames }

    /// Its names in the other languages bok speaks, which run it whatever the interface language.
    var otherNames: [String] { typedName.otherNames.filter { !aliases.contains($0) } }

    /// A command as the patron would type it in the interface language: `borrow`, or `låna` in
    /// Swedish (both work in either language), as its synopsis names it there. The words after the
    /// first (`tbr add`) stay.
    @MainActor static func spoken(_ command: String) -> String {
        guard !Localization.isEnglish else { return command }
        let words = command.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = words.first else { return command }
        let name = CommandTable().command(named: first)?.spokenName ?? first
        return ([name] + words.dropFirst()).joined(separator: " ")
    }

    /// The name a message uses for it in the interface language: the one its translated synopsis
    /// starts with (`återlämna N`), else its main name there.
    var spokenName: String {
        let synopsis = tr(self.synopsis).lowercased()
        let names = (localNames + [name] + aliases).sorted { $0.count > $1.count }
        return names.first { synopsis == $0 || synopsis.hasPrefix($0 + " ") } ?? localNames.first ?? name
    }
}
