import Foundation
import Terminal

/// `help` and `quit`.
@MainActor
enum HelpCommand {
    nonisolated static let help = Command(
        name: "help", aliases: ["?", "h"],
        synopsis: "help [COMMAND]",
        summary: "List the commands, or explain one",
        details: ["Examples:  help     help sort"],
        completion: .commands,
        run: { arguments, session in
            let table = CommandTable()
            let theme = session.theme
            if let name = arguments.positional.first {
                guard let command = table.command(named: name) else {
                    let hint = table.unknown(name).message.replacingOccurrences(
                        of: "Unknown command", with: "No help for")
                    throw UserError.usage(hint)
                }
                var lines = [theme.bold(command.synopsis), command.summary + "."]
                if !command.aliases.isEmpty {
                    lines.append(theme.dim("Also: " + command.aliases.joined(separator: ", ")))
                }
                if !command.details.isEmpty { lines += [""] + command.details }
                return CommandOutput(lines: lines, json: HelpJSON(commands: [command]))
            }
            let width = (table.commands.map { DisplayWidth.of($0.synopsis) }.max() ?? 0) + 2
            var lines = [theme.bold("Commands") + theme.dim("  (help COMMAND for details and examples)"), ""]
            for command in table.commands {
                let synopsis = DisplayWidth.pad(command.synopsis, to: width)
                lines.append("  " + synopsis + theme.dim(theme.fit(command.summary, used: width + 2)))
            }
            lines += [
                "",
                theme.dim(
                    "Numbers (info 3, return 2) mean the list on screen. Tab completes commands, sort keys and numbers;"
                ),
                theme.dim("Ctrl-R searches the history. Every command also runs as bok COMMAND … [--json]."),
            ]
            return CommandOutput(lines: lines, json: HelpJSON(commands: table.commands))
        })

    nonisolated static let quit = Command(
        name: "quit", aliases: ["exit", "q", "bye"],
        synopsis: "quit",
        summary: "Leave bok (Ctrl-D works too)",
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
