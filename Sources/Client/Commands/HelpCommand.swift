import Foundation
import Localization
import Terminal
import TextSafety

/// `help` and `quit`.
@MainActor
enum HelpCommand {
    nonisolated static let help = Command(
        typedName: TypedWord("typed: command", "help"), aliases: ["?", "h"],
        synopsis: N_("help [COMMAND]"),
        summary: N_("List the commands, or explain one"),
        details: [N_("Examples:  help     help sort")],
        completion: .commands,
        run: { arguments, session in
            let table = CommandTable()
            let theme = session.theme
            // `help borrowing`: the guide to borrowing, not a command's help.
            if let topic = arguments.positional.first, borrowing.isNamed(topic) {
                return try await GuideCommand.guide.run(try Arguments([]), session)
            }
            if !arguments.positional.isEmpty {
                guard let (command, _) = table.command(startingWith: arguments.positional) else {
                    let name = SafeText.line(arguments.positional.joined(separator: " "))
                    if let suggestion = table.suggestion(for: name) {
                        throw UserError.usage(
                            tr(
                                "No help for \"{name}\". Did you mean \"{suggestion}\"?",
                                ["name": name, "suggestion": suggestion]))
                    }
                    throw UserError.usage(tr("No help for \"{name}\". Type help to see the commands.", ["name": name]))
                }
                var lines = [theme.bold(tr(command.synopsis)), tr(command.summary) + "."]
                // The other names: in another language its other names there and the English ones; in
                // English the aliases and its names in the other languages.
                let others =
                    Localization.isEnglish
                    ? command.aliases + command.otherNames
                    : Array(command.localNames.dropFirst()) + [command.name] + command.aliases
                if !others.isEmpty {
                    lines.append(theme.dim(tr("Also: {names}", ["names": others.joined(separator: ", ")])))
                }
                if !command.details.isEmpty {
                    lines += [""] + command.details.flatMap { paragraph(tr($0), theme: theme) }
                }
                // `hjälp lån` is the loans command's help; the guide to borrowing is one word away.
                if ["borrow", "loans", "reserve", "return"].contains(command.name) {
                    lines += [
                        "", theme.dim(tr("How borrowing works, from card to return: guide (or help borrowing).")),
                    ]
                }
                return CommandOutput(lines: lines, json: HelpJSON(commands: [command]))
            }
            var lines = [
                theme.bold(tr("Commands")) + theme.dim("  " + tr("(help COMMAND for details and examples)")), "",
            ]
            lines += overview(table.commands, theme: theme)
            let footer =
                tr("Numbers (info 3, return 2) mean the list on screen. Tab completes commands, sort keys and numbers;")
                + " " + tr("Ctrl-R searches the history. Every command also runs as bok COMMAND … [--json].")
            lines += [""] + theme.wrap(footer).map { theme.dim($0) }
            return CommandOutput(lines: lines, json: HelpJSON(commands: table.commands))
        })

    /// The topic `help borrowing` (`hjälp utlåning`) opens the guide to.
    nonisolated static let borrowing = TypedWord("typed: help topic", "borrowing")

    /// A paragraph of a command's details, wrapped to the terminal; one that fits (an examples
    /// line) keeps its own spacing.
    static func paragraph(_ text: String, theme: Theme) -> [String] {
        let limit = theme.width > 0 ? min(theme.width, 100) : 80
        return DisplayWidth.of(text) <= limit ? [text] : theme.wrap(text)
    }

    /// One row a command — synopsis, then its summary — when every row fits the terminal (or
    /// there is no terminal); otherwise, as `git help -a` does, the synopsis on a line of its own
    /// and the summary wrapped beneath it, so nothing is cut at 80 or 60 columns.
    static func overview(_ commands: [Command], theme: Theme) -> [String] {
        let column = (commands.map { DisplayWidth.of(tr($0.synopsis)) }.max() ?? 0) + 2
        let fits =
            theme.width == 0 || commands.allSatisfy { 2 + column + DisplayWidth.of(tr($0.summary)) <= theme.width }
        if fits {
            return commands.map { "  " + DisplayWidth.pad(tr($0.synopsis), to: column) + theme.dim(tr($0.summary)) }
        }
        var lines: [String] = []
        for command in commands {
            let synopsis = DisplayWidth.wrap(tr(command.synopsis), width: max(20, theme.width - 4))
            lines += synopsis.enumerated().map { ($0.offset == 0 ? "  " : "    ") + $0.element }
            lines += theme.wrap(tr(command.summary), indent: 6).map { theme.dim($0) }
        }
        return lines
    }

    nonisolated static let quit = Command(
        typedName: TypedWord("typed: command", "quit"), aliases: ["exit", "q", "bye"],
        synopsis: N_("quit"),
        summary: N_("Leave bok (Ctrl-D works too)"),
        details: [],
        run: { _, _ in CommandOutput(lines: [], json: ["quit": true], quit: true) })
}

/// `help --json`.
struct HelpJSON: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        let name: String
        let aliases: [String]
        let synopsis: String
        let summary: String
    }
    let commands: [Entry]

    init(commands: [Command]) {
        self.commands = commands.map {
            Entry(name: $0.name, aliases: $0.aliases, synopsis: $0.synopsis, summary: $0.summary)
        }
    }
}
