import ArgumentParser
import Catalog
import Foundation
import Localization
import Logging
import MockLending
import Speech
import Terminal
import TextSafety

/// The `bok` executable: parses the invocation, picks the library, then runs one command or the REPL.
@main
struct Bok {
    static let version = "0.1.0"

    static func main() async {
        #if FUZZING
        exit(ScenarioFuzzing.run())
        #endif
        // A file size limit (ulimit -f) must fail a write with EFBIG, which downloads report, not kill bok.
        signal(SIGXFSZ, SIG_IGN)
        let code = await run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        HTTPTransfer.finishPreload()
        exit(code)
    }

    /// Commands that always ask a library: libcurl is loaded while bok starts (dlopen of it and
    /// the 28 libraries it needs took 4–11 ms of a one-shot `bok search` against the mock, at load
    /// 2–6, docs/performance.md). Others (`read FILE`, `shelf`) do not pay for it: exit waits for
    /// a load under way.
    static let libraryCommands: Set<String> = [
        "search", "info", "borrow", "reserve", "return", "cancel", "loans", "reservations", "sample", "similar",
        "top", "new", "login",
    ]

    @MainActor
    static func run(_ argv: [String], environment: [String: String]) async -> Int32 {
        // By any name the parser knows (`bok sök sommar` too).
        if argv.contains(where: { tableCommand($0).map { libraryCommands.contains($0.name) } ?? false }) {
            HTTPTransfer.preload()
        }
        let printer = StandardPrinter()
        // Output for scripts (--json) is the same in every language, mistakes in the command line too.
        Localization.use(nil, environment: environment, forScripts: argv.contains("--json"))
        // Help is in the config file's language too: it is read here only for --help, which has no
        // library to connect to (the connection reads it for everything else).
        if argv.contains(where: { $0 == "--help" || $0 == "-h" }),
            let language = (try? LibraryProfiles.load(file: Paths(environment: environment).configFile))?.language
        {
            Localization.use(language, environment: environment, forScripts: argv.contains("--json"))
        }
        if let command = plainCommand(argv) {
            return await start(command: command, options: GlobalOptions(), environment: environment, printer: printer)
        }
        if let (command, options) = commandWithOptions(argv) {
            return await start(command: command, options: options, environment: environment, printer: printer)
        }
        let parsed: any ParsableCommand
        do {
            parsed = try BokCommand.parseAsRoot(argv)
        } catch {
            return CommandLineAnswer.report(error, argv: argv, printer: printer)
        }
        guard let invocation = parsed as? any Invocation else {
            // swift-argument-parser's own commands (help): their answer.
            do {
                var command = parsed
                try command.run()
                return 0
            } catch {
                return CommandLineAnswer.report(error, argv: argv, printer: printer)
            }
        }
        return await invocation.execute(environment: environment, printer: printer)
    }

    /// A command of the prompt's table with no option anywhere (`bok read book.epub`, `bok läs 2`):
    /// the words as swift-argument-parser would hand them to it, without building its tree of every
    /// command. The tree of 60 generic subcommands, each read by reflection, took several
    /// milliseconds and megabytes of code at every start (docs/performance.md), which
    /// `bok read FILE` paid before its first page. Anything with an option (`--help`, `--json`,
    /// `--library`), `help` and the shell's own commands still go through the parser.
    @MainActor
    static func plainCommand(_ argv: [String]) -> [String]? {
        guard let word = argv.first, !argv.contains(where: { $0.hasPrefix("-") }), let command = tableCommand(word)
        else { return nil }
        return [command.name] + argv.dropFirst()
    }

    /// The table command a word names as the parser knows it (not `help`): its name, and aliases
    /// and names in other languages made of letters only (those only when no English name matches).
    @MainActor
    static func tableCommand(_ word: String) -> Command? {
        guard word != "help" else { return nil }
        let commands = CommandTable.all
        let command =
            commands.first { $0.name == word || $0.aliases.contains { $0 == word && $0.allSatisfy(\.isLetter) } }
            ?? commands.first { $0.otherNames.contains { $0 == word && $0.allSatisfy(\.isLetter) } }
        return command?.name == "help" ? nil : command
    }

    /// `bok --library URL search WORDS --sort author`: a table command with options, the global
    /// ones read by their own parser (``GlobalFlags``, a few options) and the command's left to
    /// it, as ``TableSubcommand`` does, without the tree of every command (the tree's reflection
    /// and conformance lookups were 5 % of a one-shot search's CPU, docs/performance.md). Nil for
    /// anything else (`--help`, `--version`, a shell-only command, a mistake), which the parser
    /// reads and answers in its words.
    @MainActor
    static func commandWithOptions(_ argv: [String]) -> ([String], GlobalOptions)? {
        guard !argv.contains(where: { ["--help", "-h", "--version", "--help-hidden"].contains($0) }) else { return nil }
        // The first word that names a table command with only global options before it (a word
        // that is an option's value, `--library search`, leaves the options before it unreadable).
        for (index, word) in argv.enumerated() where !word.hasPrefix("-") {
            guard let command = tableCommand(word), let leading = try? GlobalFlags.parse(Array(argv[..<index])),
                let (trailing, words) = try? TableCompletion.splitGlobals(Array(argv[(index + 1)...]), for: command)
            else { continue }
            return ([command.name] + words, GlobalOptions([leading, trailing]))
        }
        return nil
    }

    /// Connects to the library and runs `command` once, or the prompt when there is none.
    @MainActor
    static func start(
        command: [String], options: GlobalOptions, environment given: [String: String], printer: any Printer
    ) async -> Int32 {
        if options.record != nil, !command.isEmpty {
            printer.err(
                "bok: "
                    + tr(
                        "--record records an interactive session; leave out the command (bok --record FILE), "
                            + "or pipe commands in."))
            return 2
        }

        var environment = given
        // Card numbers, the PIN and reading history live here: only the patron may read them (made
        // so before the config file is read, which is refused when others may read its service key).
        let paths = Paths(environment: environment)
        let tightened = paths.makePrivate()
        // The config file is read once: its language now, its library at connecting.
        let profiles = Result { try LibraryProfiles.load(file: paths.configFile) }
        // The config file's language = sv; output for scripts (--json) is the same in every language,
        // English, though `language --json` names the patron's. The locale's language is in use since
        // the start; only the file changes it.
        if let language = (try? profiles.get())?.language, language != Localization.patronLanguage {
            Localization.use(language, environment: environment, forScripts: options.json)
        }
        // The reader reads `speech =` as BOK_SPEECH, which, set, wins over the file.
        if environment["BOK_SPEECH"] == nil, let speech = (try? profiles.get())?.speech {
            environment["BOK_SPEECH"] = speech.rawValue
        }
        if tightened > 0 { printer.err(ErrorReport.diagnostic(Paths.privacyNotice(tightened))) }
        let isTTY = isatty(1) == 1
        // Written for a screen reader: --screen-reader, else the file's setting, else whether one is found.
        let setting = (try? profiles.get())?.screenReader ?? .auto
        let detected =
            isTTY && !options.json && !options.screenReader && setting == .auto
            ? ScreenReaderDetection.detect(environment: environment) : nil
        let screenReader =
            !options.json && (options.screenReader || (isTTY && setting.isOn { detected ?? .init(evidence: []) }))
        if let printer = printer as? StandardPrinter {
            // Scripts (--json) and recordings (their printer only passes lines on) are never paged;
            // nor is what a screen reader reads, which a pager would draw over.
            let paged = !options.noPager && !options.json && options.record == nil && !screenReader
            printer.pager = paged ? Pager.chosen(environment: environment, configured: try? profiles.get().pager) : nil
            printer.environment = environment
        }

        var logger = Logger(label: "bok") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = environment["BOK_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .error

        var caps = TerminalCapabilities.detect(environment: environment, isTTY: isTTY)
        if options.noColor || options.json { caps.colorDepth = .none }
        caps.screenReader = screenReader
        // Pictures as the config file says; never graphics for scripts, recordings or a screen reader.
        caps.images =
            options.json || options.record != nil || screenReader
            ? .forced(.blocks) : (try? profiles.get())?.images ?? .auto
        let size = TerminalSize.current()
        let theme = Theme(caps: caps, width: isTTY ? size.columns : 0, height: isTTY ? size.rows : 0)

        let startup: Startup
        do {
            startup = try await Startup.connect(
                options: options, environment: environment, profiles: profiles, theme: theme, logger: logger)
        } catch {
            // A bad library name is a usage mistake (2); an unreadable config file a failure (1).
            return ErrorReport.report(error, json: options.json && !command.isEmpty, printer: printer)
        }
        for warning in startup.warnings { printer.err(ErrorReport.diagnostic(warning)) }
        startup.session.drawsCovers = isTTY && !options.json && options.record == nil && !screenReader
        startup.session.namesCovers = options.record != nil && !screenReader
        let code =
            command.isEmpty
            ? await interactive(
                startup, environment: environment, record: options.record,
                screenReaderFound: detected.flatMap { $0.found ? $0 : nil }, printer: printer)
            : await oneShot(command, json: options.json, session: startup.session, printer: printer)
        await startup.session.library.mock?.stop()
        return code
    }

    /// Runs one command and prints its answer as text or JSON. Returns the exit status.
    @MainActor
    static func oneShot(_ words: [String], json: Bool, session: Session, printer: any Printer) async -> Int32 {
        // A PIN can be asked for only when someone is at a terminal; otherwise commands say which option to use.
        if session.account.prompt == nil, isatty(0) == 1, isatty(2) == 1, !words.contains("--pin-stdin") {
            session.account.prompt = TerminalPatronPrompt(editor: LineEditor(historyFile: nil, maxHistory: 0))
        }
        do {
            let output = try await LibraryWait.$observer.withValue(session.spinner) {
                try await CommandTable().run(words, in: session)
            }
            if json {
                let plain: [String] = output.lines.map { Ansi.strip($0) }
                printer.out(JSONOutput.encode(output.json ?? ["lines": plain]))
            } else {
                printer.answer(output)
                // Covers `shelf --covers` did not have yet are kept for the next time.
                await session.coverFetch?.value
                // Told on stderr, so what a one-shot prints stays its answer alone.
                for line in NoticeCommands.pending(session: session) { printer.err(line) }
            }
            if let warning = session.library.mock?.stateWarning() { printer.err(ErrorReport.diagnostic(warning)) }
            return 0
        } catch {
            let code = ErrorReport.report(error, json: json, printer: printer)
            if let warning = session.library.mock?.stateWarning() { printer.err(ErrorReport.diagnostic(warning)) }
            return code
        }
    }

    @MainActor
    /// - Parameter screenReaderFound: what turned the screen-reader mode on by itself, said in the banner.
    static func interactive(
        _ startup: Startup, environment: [String: String], record: String? = nil,
        screenReaderFound: ScreenReaderDetection? = nil, printer: any Printer
    ) async -> Int32 {
        let session = startup.session
        // The built-in mock library starts while the banner is on screen: the first command seldom waits.
        session.library.warmUp()
        let theme = session.theme
        var recorder: SessionRecorder?
        if let record {
            do {
                recorder = try SessionRecorder(file: record, forwardingTo: printer)
            } catch {
                return ErrorReport.report(error, printer: printer)
            }
        }
        printer.out(theme.bold("bok \(version)") + " \(theme.marks.middleDot) " + session.library.name)
        if let note = startup.note { printer.out(theme.dim(note)) }
        if let found = screenReaderFound {
            printer.out(
                theme.dim(
                    tr(
                        "Written for a screen reader, found by {evidence}; screen-reader = off in the config file "
                            + "turns that off.", ["evidence": found.evidence.joined(separator: ", ")])))
        }
        printer.out(theme.dim(tr("Type help for commands, search WORDS to find books, quit to leave.")))
        if let record {
            printer.out(
                theme.dim(
                    tr(
                        "Recording this session in {file} (PINs as ••••). "
                            + "Type # task: TITLE when a task begins, # end when it ends.",
                        ["file": record])))
        }
        let repl = recorder.map { REPL(session: session, recorder: $0) } ?? REPL(session: session, printer: printer)
        // The shelf catches up with the library while the patron types; the first shelf waits for it.
        session.startSyncInBackground()
        let source: any LineSource
        if isatty(0) == 1 {
            let table = repl.table
            let readline = ReadlineSource(historyFile: Paths(environment: environment).historyFile) { line, word in
                // The REPL's session: library use NAME may have replaced the one bok started with.
                MainActor.assumeIsolated { table.completions(line: line, word: word, session: repl.session) }
            }
            session.account.prompt = TerminalPatronPrompt(editor: readline.editor)
            source = readline
        } else {
            source = StdinSource()
        }
        recorder?.watch(session)
        recorder?.start(library: session.library.name)
        await repl.run(lines: source, interruptible: isatty(0) == 1)
        return 0
    }
}

/// Lines from a pipe (`echo "search x" | bok`): no prompt, no history.
@MainActor
final class StdinSource: LineSource {
    func readLine(prompt: String) -> String? { Swift.readLine(strippingNewline: true) }
    func remember(_ line: String) {}
}

/// Encodes command answers as one line of JSON.
enum JSONOutput {
    /// One line of JSON. Strings hold the server's words exactly; every character a terminal
    /// would act on is written as a `\uXXXX` escape, so the line itself is safe to print.
    static func encode(_ value: any Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            return #"{"error":"could not encode the answer as JSON"}"#
        }
        return escapingControls(text)
    }

    /// JSONEncoder escapes C0 controls but leaves DEL, the C1 controls (U+0080–U+009F, e.g. the
    /// 8-bit CSI U+009B), the line separators and the bidirectional controls raw; outside a string
    /// none of them can occur, so escaping them all keeps the JSON equal and makes it inert.
    static func escapingControls(_ json: String) -> String {
        guard !SafeText.isSafeLine(json) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            let v = scalar.value
            let inert =
                v == 0x7F || (0x80...0x9F).contains(v) || (0x2028...0x2029).contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                || v == 0x200E || v == 0x200F || v == 0x061C
            if inert {
                out.append(contentsOf: String(format: "\\u%04x", v).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
