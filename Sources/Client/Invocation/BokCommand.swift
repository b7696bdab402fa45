import ArgumentParser
import Foundation
import Localization

/// What a parsed invocation does once parsed: runs on the main actor and returns the exit status.
protocol Invocation {
    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32
}

/// `bok`'s command line, as swift-argument-parser parses it: the global options, the commands of
/// the table (one subcommand each, from the same `Command` the REPL and scenarios run), and the
/// commands that only exist on the shell (``shellOnly``). The same definition gives `--help`, the
/// shell completions and the man page.
struct BokCommand: ParsableCommand, Invocation {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "bok",
            abstract: tr("Find, borrow and read library e-books from the shell."),
            usage: usage,
            discussion: tr(
                "Without a command bok starts its prompt, where the same commands run; type help there. "
                    + "Every command takes --help. Exit status: 0 done, 1 failed, 2 a usage mistake, 130 interrupted. "
                    + "Commands: docs/commands.md; scenario files: docs/scenarios.md; "
                    + "configuration: docs/configuration.md."
            ),
            version: "bok \(Bok.version)",
            subcommands: TableEntries.subcommands + shellOnly,
            helpNames: [.short, .long]
        )
    }

    /// The three ways to run bok, each with what it does, in a column as wide as the longest.
    private static var usage: String {
        let forms = [
            (tr("bok [OPTIONS]"), tr("start the interactive prompt")),
            (tr("bok [OPTIONS] COMMAND [ARGS…] [--json]"), tr("run one command and exit")),
            (tr("bok --record FILE [OPTIONS]"), tr("start the prompt and record the session in FILE")),
        ]
        let width = forms.map { $0.0.count }.max() ?? 0
        return forms.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
            .joined(separator: "\n")
    }

    @OptionGroup var global: GlobalFlags

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        await Bok.start(command: [], options: GlobalOptions([global]), environment: environment, printer: printer)
    }

    /// The answer for a word in the place of a command that names none (`bok serch x`, `bok
    /// scenario frobnicate`): the first word that is neither an option nor an option's value.
    @MainActor
    static func strayCommand(in argv: [String]) -> UserError? {
        var index = 0
        var parent: any ParsableCommand.Type = BokCommand.self
        while index < argv.count {
            let word = argv[index]
            index += 1
            guard word.hasPrefix("-") else {
                // _commandName: the name given, or the one swift-argument-parser makes of the type's (`run`).
                let found = parent.configuration.subcommands.first {
                    $0._commandName == word || $0.configuration.aliases.contains(word)
                }
                if let found, !found.configuration.subcommands.isEmpty {
                    parent = found
                    continue
                }
                if found != nil { return nil }
                if parent == BokCommand.self { return CommandTable().unknown(word) }
                return parent == StudyCommand.self ? StudyCommand.unknown(word) : ScenarioCommand.unknown(word)
            }
            // An option that does not parse alone takes the next word as its value.
            if word.hasPrefix("--"), !word.contains("="), (try? GlobalFlags.parse([word])) == nil { index += 1 }
        }
        return nil
    }
}

/// One command of the table as a subcommand of `bok`: its name, summary, synopsis and details come
/// from the table's `Command`, and its words are parsed by the table as at the prompt.
/// A table command as the parser read it: the words and options ``Bok/start`` runs it with.
protocol TableInvocation {
    func invocation() throws -> (command: [String], options: GlobalOptions)
}

struct TableSubcommand<Entry: TableEntry>: ParsableCommand, Invocation, TableInvocation {
    static var configuration: CommandConfiguration {
        let command = Entry.command
        return CommandConfiguration(
            commandName: command.name,
            abstract: tr(command.summary) + ".",
            usage: "bok \(tr(command.synopsis)) [--json]",
            discussion: command.details.map(tr).joined(separator: "\n\n"),
            // Shells complete and man pages list names; "?" is for the prompt.
            aliases: (command.aliases + command.otherNames).filter { $0.allSatisfy(\.isLetter) }
        )
    }

    @ParentCommand var bok: BokCommand

    @Argument(
        parsing: .captureForPassthrough, help: ArgumentHelp(tr("The command's words and options."), valueName: "ARGS"),
        completion: .custom { words, index, prefix in
            TableCompletion.complete(Entry.command, words: words, index: index, prefix: prefix)
        })
    var words: [String] = []

    func invocation() throws -> (command: [String], options: GlobalOptions) {
        let (trailing, words) = try TableCompletion.splitGlobals(words, for: Entry.command)
        return ([Entry.command.name] + words, GlobalOptions([bok.global, trailing]))
    }

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        do {
            let (command, options) = try invocation()
            // `bok help mock-server`: the shell-only commands have their help here.
            if Entry.command.name == "help", let name = command.dropFirst().first,
                let type = BokCommand.shellOnly(named: name)
            {
                printer.out(ParserHelp.translated(BokCommand.helpMessage(for: type)))
                return 0
            }
            return await Bok.start(command: command, options: options, environment: environment, printer: printer)
        } catch {
            return ErrorReport.report(error, printer: printer)
        }
    }
}

extension BokCommand {
    /// The subcommands that exist only on the shell, not at the prompt: the one list of them.
    static let shellOnly: [any ParsableCommand.Type] = [
        MockServerCommand.self, ScenarioCommand.self, StudyCommand.self, CompletionsCommand.self,
    ]

    /// The names of the shell-only subcommands.
    static var shellOnlyNames: [String] { shellOnly.compactMap { $0.configuration.commandName } }

    /// The shell-only subcommand called `name`.
    static func shellOnly(named name: String) -> (any ParsableCommand.Type)? {
        shellOnly.first { $0.configuration.commandName == name }
    }
}

/// `bok completions bash|zsh|fish`.
struct CompletionsCommand: ParsableCommand, Invocation {
    enum Shell: String, ExpressibleByArgument, CaseIterable { case bash, zsh, fish }

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "completions",
            abstract: tr("Print the shell completion script for bash, zsh or fish."),
            discussion: [
                tr("Completes commands, options, sort keys, filter words, library names and scenario files."),
                "  bash:  bok completions bash > ~/.local/share/bash-completion/completions/bok",
                "  zsh:   bok completions zsh > ~/.zfunc/_bok   " + tr("(with fpath+=~/.zfunc before compinit)"),
                "  fish:  bok completions fish > ~/.config/fish/completions/bok.fish",
                tr("make install puts them where each shell finds them."),
            ].joined(separator: "\n")
        )
    }

    @Argument(help: ArgumentHelp(tr("bash, zsh or fish.")))
    var shell: Shell

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        printer.out(BokCommand.completionScript(for: CompletionShell(rawValue: shell.rawValue)!))
        return 0
    }
}

/// The man page's text outside ASCII. swift-argument-parser's generate-manual drops every
/// character outside ASCII as it escapes text for mdoc (its `MDoc/String+Escaping.swift`), so that
/// the Swedish names read `sk` for `sök` and `lna` for `låna`, and `·`, `↓` and `••••` vanish. For
/// it alone (scripts/generate-manual.sh sets ``placeholdersVariable``), `--experimental-dump-help`
/// spells each such character as an ASCII placeholder, `BOKU00F6U`, which the script then turns
/// into groff's own `\[u00F6]`.
enum ManualText {
    static let placeholdersVariable = "BOK_MANUAL_PLACEHOLDERS"

    static func placeholders(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "BOKU" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "U"
            }
        }
        return out
    }
}

/// Turns swift-argument-parser's own answers (help, version, completion scripts, a mistake) into
/// what bok prints: help on stdout with status 0; a mistake as one line on stderr, status 2.
enum CommandLineAnswer {
    @MainActor
    static func report(_ error: any Error, argv: [String], printer: any Printer) -> Int32 {
        if BokCommand.exitCode(for: error) == .success {
            var text = BokCommand.fullMessage(for: error)
            if argv.contains("--experimental-dump-help") {
                // The man page's source: English and data, not a patron's help.
                if ProcessInfo.processInfo.environment[ManualText.placeholdersVariable] == "1" {
                    text = ManualText.placeholders(text)
                }
            } else {
                text = ParserHelp.translated(text)
            }
            if !text.isEmpty { printer.out(text) }
            return 0
        }
        let json = argv.contains("--json")
        if let error = error as? UserError { return ErrorReport.report(error, json: json, printer: printer) }
        if let stray = BokCommand.strayCommand(in: argv) {
            return ErrorReport.report(stray, json: json, printer: printer)
        }
        // "Unknown option '--x'" as bok says it: the option bare, and where to look.
        var message = BokCommand.message(for: error).replacingOccurrences(of: "Error: ", with: "")
        message = message.replacingOccurrences(of: #"'(-[^']*)'"#, with: "$1", options: .regularExpression)
        message = String(message.split(separator: "\n").first ?? "")
        if !message.hasSuffix(".") { message += "." }
        // swift-argument-parser's own words stay English; bok's pointer is in the interface language.
        return ErrorReport.report(
            UserError.usage(tr("{message} See bok --help.", ["message": message])), json: json, printer: printer)
    }
}
