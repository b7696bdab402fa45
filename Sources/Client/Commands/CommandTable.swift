import Localization
import Logging
import TextSafety

/// The table of every command, and how a line of words becomes a run of one of them.
@MainActor
struct CommandTable {
    /// Commands in the order `help` lists them.
    let commands: [Command]

    init(commands: [Command] = CommandTable.all) {
        self.commands = commands
    }

    /// The commands bok knows (TableEntries keeps their one list).
    static var all: [Command] { TableEntries.commands }

    /// The command called `name`: its name, one of its aliases, or its name in any language bok
    /// speaks (English first, which needs no catalogue).
    func command(named name: String) -> Command? {
        let lower = name.lowercased()
        return commands.first { $0.name == lower || $0.aliases.contains(lower) }
            ?? commands.first { $0.otherNames.contains(lower) }
    }

    /// Every name and alias, in every language, for suggestions.
    var allNames: [String] { commands.flatMap { [$0.name] + $0.aliases + $0.otherNames }.sorted() }

    /// The command a line starts with and the words after its name: a name in another language
    /// may be two words (`logga in`, `lämna tillbaka 2`).
    func command(startingWith words: [String]) -> (Command, [String])? {
        if words.count >= 2, let command = command(named: words[0] + " " + words[1]) {
            return (command, Array(words.dropFirst(2)))
        }
        guard let first = words.first, let command = command(named: first) else { return nil }
        return (command, Array(words.dropFirst()))
    }

    /// Runs one command line given as words (`["search", "thriller", "--sort", "author"]`).
    /// - Throws: `UserError` for an unknown command or bad arguments; the command's own errors.
    func run(_ words: [String], in session: Session) async throws -> CommandOutput {
        guard let name = words.first else { return CommandOutput() }
        guard let (command, rest) = command(startingWith: words) else { throw unknown(name) }
        // `search --help`, as every command-line program answers it: the command's help, not an error.
        if rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
            return try await HelpCommand.help.run(try Arguments([command.name]), session)
        }
        let arguments = try Arguments(rest, valued: command.valued)
        let stray = arguments.unknownFlags(known: command.flags.union(["json"]))
        if let first = stray.first {
            throw UserError.usage(
                tr(
                    "{command} has no option --{option}. Usage: {synopsis}",
                    ["command": command.spokenName, "option": first, "synopsis": tr(command.synopsis)]))
        }
        let started = ContinuousClock.now
        defer {
            // BOK_LOG=debug shows what each command took (bok-bench, shelf-bench and calibre-bench read these
            // lines), an OPDS catalogue's commands included.
            let elapsed = ContinuousClock.now - started
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            session.logger.debug("command finished", metadata: ["command": "\(command.name)", "ms": "\(ms)"])
        }
        // In an OPDS catalogue a command runs as it declares (the list commands page through its feeds).
        if session.library.catalogue != nil, let inCatalogue = command.inCatalogue,
            let output = try await inCatalogue(arguments, session)
        {
            return output
        }
        return try await command.run(arguments, session)
    }

    /// `Unknown command "serch". Did you mean "search"?`
    func unknown(_ name: String) -> UserError {
        // The name is what the patron typed: pasted control bytes are shown, not sent to the terminal.
        let name = SafeText.line(name)
        if let suggestion = suggestion(for: name) {
            return UserError.usage(
                tr(
                    "Unknown command \"{name}\". Did you mean \"{suggestion}\"?",
                    ["name": name, "suggestion": suggestion]))
        }
        return UserError.usage(tr("Unknown command \"{name}\". Type help to see the commands.", ["name": name]))
    }

    /// The command nearest to `name`, when one of its names in any language is near enough to be a
    /// typo of it: named as the interface language names it (`serch` → `sök` in Swedish).
    func suggestion(for name: String) -> String? {
        let best = allNames.map { ($0, Self.editDistance(name.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= max(1, min(2, name.count / 3)) else { return nil }
        return command(named: best.0)?.spokenName ?? best.0
    }

    /// Levenshtein distance, counting a swap of neighbours as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// Completions for the word being typed, given the line so far.
    func completions(line: String, word: String, session: Session) -> [String] {
        let words = (try? LineSplitter.split(line)) ?? line.split(separator: " ").map(String.init)
        let typingFirst = words.isEmpty || (words.count == 1 && !line.hasSuffix(" "))
        if typingFirst {
            // Tab offers the names of the interface language and the English ones (every name still runs).
            let names = Set(commands.flatMap { $0.localNames + [$0.name] + $0.aliases })
            return names.sorted().filter { $0.hasPrefix(word.lowercased()) }
        }
        guard let command = command(named: words[0]) else { return [] }
        let position = line.hasSuffix(" ") ? words.count - 1 : words.count - 2
        let candidates: [String]
        switch command.completion {
        case .none: candidates = []
        case .commands: candidates = commands.map(\.name)
        case .resultNumbers:
            // The numbers of the list on screen, whichever kind it is.
            let count: Int? =
                switch session.lists.numbered {
                case .shelf?: session.lists.shelfList.count
                case .loans?: session.lists.loanList.count
                case .reservations?: session.lists.reservationList.count
                case .books?, nil: nil
                }
            candidates =
                count.map { Array(1...max(1, $0)).prefix($0).map(String.init) }
                ?? (session.lists.list?.byNumber.keys.sorted() ?? []).map(String.init)
        case .words, .typedWords, .filters, .languages:
            candidates = command.completion.words(at: position)
        }
        return candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
    }
}
