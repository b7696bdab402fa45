import Foundation
import Localization
import Terminal
import TextSafety

/// `help` and `quit`.
@MainActor
enum HelpCommand {
    nonisolated static let help = Command(
        name: "help", aliases: ["?", "h"],
        swedish: ["hjälp"],
        synopsis: N_("help [COMMAND]"),
        summary: N_("List the commands, or explain one"),
        details: ["Examples:  help     help sort"],
        completion: .commands,
        run: { arguments, session in
            let table = CommandTable()
            let theme = session.theme
            // `help borrowing`: the guide to borrowing, not a command's help.
            if let topic = arguments.positional.first, ["borrowing", "utlåning"].contains(topic.lowercased()) {
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
                // The other names: in Swedish help the English ones, and the other way round.
                let others =
                    Localization.language == "sv"
                    ? Array(command.swedish.dropFirst()) + [command.name] + command.aliases
                    : command.aliases + command.swedish
                if !others.isEmpty {
                    lines.append(theme.dim(tr("Also: {names}", ["names": others.joined(separator: ", ")])))
                }
                if !command.details.isEmpty { lines += [""] + command.details }
                return CommandOutput(lines: lines, json: HelpJSON(commands: [command]))
            }
            let width = (table.commands.map { DisplayWidth.of(tr($0.synopsis)) }.max() ?? 0) + 2
            var lines = [
                theme.bold(tr("Commands")) + theme.dim("  " + tr("(help COMMAND for details and examples)")), "",
            ]
            for command in table.commands {
                let synopsis = DisplayWidth.pad(tr(command.synopsis), to: width)
                lines.append("  " + synopsis + theme.dim(theme.fit(tr(command.summary), used: width + 2)))
            }
            lines += [
                "",
                theme.dim(
                    tr(
                        "Numbers (info 3, return 2) mean the list on screen. "
                            + "Tab completes commands, sort keys and numbers;")
                ),
                theme.dim(tr("Ctrl-R searches the history. Every command also runs as bok COMMAND … [--json].")),
            ]
            return CommandOutput(lines: lines, json: HelpJSON(commands: table.commands))
        })

    nonisolated static let quit = Command(
        name: "quit", aliases: ["exit", "q", "bye"],
        swedish: ["avsluta", "sluta"],
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
