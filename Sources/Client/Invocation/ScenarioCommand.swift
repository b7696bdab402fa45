import ArgumentParser
import Foundation
import Localization
import SafeOutput
import Terminal
import TextSafety

/// `bok scenario run|check|report`: scenario files for usability testers and CI (docs/scenarios.md).
struct ScenarioCommand: ParsableCommand, Invocation {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "scenario",
            abstract: tr("Run or check scenario files; sum up a recorded session by task."),
            usage: usage,
            discussion: tr(
                "Exit status: 0 when every task passed (or every file reads), 1 when one failed, "
                    + "2 for a usage mistake. See docs/scenarios.md for the file format."),
            subcommands: [Run.self, Check.self, Report.self]
        )
    }
    static let usage =
        """
        bok scenario run FILE… [--report FILE.md] [--junit FILE.xml] [--json] | bok scenario check FILE… | bok \
        scenario report RECORDING [--json]
        """

    @MainActor
    func execute(environment: [String: String], printer: any Printer) async -> Int32 {
        ErrorReport.report(Self.unknown(nil), printer: printer)
    }

    /// `bok scenario frobnicate`, or no verb at all.
    static func unknown(_ verb: String?) -> UserError {
        let usageLine = tr("Usage: {usage}", ["usage": usage])
        guard let verb else { return UserError.usage(usageLine) }
        return UserError.usage(
            tr("Unknown scenario command \"{verb}\".", ["verb": SafeText.line(verb)]) + " " + usageLine)
    }

    /// How scenario answers print: `--json`, `--no-color` here or before the command.
    struct Output: ParsableArguments {
        @Flag(help: ArgumentHelp(tr("Print one JSON object."))) var json = false
        @Flag(
            name: [.customLong("no-color"), .customLong("no-colour")], help: ArgumentHelp(tr("Never colour output.")))
        var noColor =
            false

        @MainActor
        func theme(_ bok: BokCommand, environment: [String: String]) -> (Theme, json: Bool) {
            let json = json || bok.global.json
            let caps = TerminalCapabilities.detect(environment: environment, isTTY: isatty(1) == 1)
            return (Theme(caps: noColor || bok.global.noColor || json ? .plain : caps, width: 0), json)
        }
    }

    struct Run: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr(
                    "Run the scenario files' tasks, each file on a fresh mock library, and report which passed."),
                usage:
                    "bok scenario run FILE|DIR… [--protocol elib|opds] [--plain-elib] [--pin-file FILE]… "
                    + "[--report FILE.md] [--junit FILE.xml] [--json]")
        }
        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("Scenario files, or folders of them."), valueName: "FILE|DIR"),
            completion: .file(extensions: ["scenario"]))
        var files: [String] = []
        @Option(
            help: ArgumentHelp(tr("Also write the report as Markdown to FILE."), valueName: "FILE.md"),
            completion: .file(extensions: ["md"]))
        var report: String?
        @Option(
            help: ArgumentHelp(tr("Also write the report as JUnit XML to FILE."), valueName: "FILE.xml"),
            completion: .file(extensions: ["xml"]))
        var junit: String?
        @Option(
            name: .customLong("protocol"),
            help: ArgumentHelp(
                tr("Run every file over the mock's Elib API or its OPDS feeds, whatever the file says."),
                valueName: LibraryConfig.Kind.choices))
        var protocolKind: LibraryConfig.Kind?
        @Flag(
            name: .customLong("plain-elib"),
            help: ArgumentHelp(
                tr(
                    "Run every file against a mock without bok's extensions, over its Elib API: only the calls a "
                        + "plain Elib lending service answers (no search, library page or reservations).")))
        var plainElib = false
        @Option(
            name: .customLong("pin-file"),
            help: ArgumentHelp(
                tr("A file (mode 600) the scenarios' pin: file may read, besides files beside them; repeatable."),
                valueName: "FILE"),
            completion: .file())
        var pinFiles: [String] = []
        @OptionGroup var output: Output

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            let (theme, json) = output.theme(bok, environment: environment)
            do {
                return try await ScenarioCommand.runFiles(
                    try ScenarioCommand.files(files, what: "run"), report: report, junit: junit,
                    protocolKind: protocolKind, plainElib: plainElib, pinFiles: pinFiles, json: json,
                    environment: environment,
                    theme: theme, printer: printer)
            } catch {
                return ErrorReport.report(error, json: json, printer: printer)
            }
        }
    }

    struct Check: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr("Read the scenario files and report mistakes with line numbers; run nothing."),
                usage: "bok scenario check FILE|DIR…")
        }
        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("Scenario files, or folders of them."), valueName: "FILE|DIR"),
            completion: .file(extensions: ["scenario"]))
        var files: [String] = []
        @OptionGroup var output: Output

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            let (theme, json) = output.theme(bok, environment: environment)
            do {
                return try ScenarioCommand.check(
                    try ScenarioCommand.files(files, what: "check"), theme: theme, printer: printer)
            } catch {
                return ErrorReport.report(error, json: json, printer: printer)
            }
        }
    }

    struct Report: ParsableCommand, Invocation {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: tr("Time on task, commands, errors and help per task of a recording (bok --record FILE)."),
                usage: "bok scenario report RECORDING [--json]")
        }
        @ParentCommand var bok: BokCommand
        @Argument(
            help: ArgumentHelp(tr("A recording made with bok --record FILE."), valueName: "RECORDING"),
            completion: .file(extensions: ["jsonl"]))
        var recordings: [String] = []
        @OptionGroup var output: Output

        @MainActor
        func execute(environment: [String: String], printer: any Printer) async -> Int32 {
            let (theme, json) = output.theme(bok, environment: environment)
            do {
                return try ScenarioCommand.report(recordings, json: json, theme: theme, printer: printer)
            } catch {
                return ErrorReport.report(error, json: json, printer: printer)
            }
        }
    }

    /// The files named, a folder standing for its `*.scenario` files in name order.
    @MainActor
    static func files(_ paths: [String], what: String) throws -> [String] {
        guard !paths.isEmpty else {
            throw UserError.usage(
                tr("scenario {verb} needs at least one file. Usage: {usage}", ["verb": what, "usage": usage]))
        }
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UserError(tr("There is no file {file}. Check the path.", ["file": path]))
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let found = names.filter { $0.hasSuffix(".scenario") }.sorted()
                guard !found.isEmpty else {
                    throw UserError(tr("The folder {folder} has no .scenario files.", ["folder": path]))
                }
                files += found.map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Parses every file, printing each mistake as `FILE:LINE: message`; nil when any file has one.
    @MainActor
    static func parseAll(_ files: [String], printer: any Printer) -> [Scenario]? {
        var scenarios: [Scenario] = []
        var failed = false
        for file in files {
            do {
                scenarios.append(try ScenarioParser.parse(file: file))
            } catch let error as ScenarioParseError {
                failed = true
                for line in error.lines { printer.err(line) }
            } catch {
                failed = true
                printer.err("\(file): \(ErrorReport.message(for: error))")
            }
        }
        return failed ? nil : scenarios
    }

    @MainActor
    static func runFiles(
        _ files: [String], report reportFile: String?, junit: String?, protocolKind: LibraryConfig.Kind? = nil,
        plainElib: Bool = false, pinFiles: [String] = [], json: Bool, environment: [String: String], theme: Theme,
        printer: any Printer
    ) async throws -> Int32 {
        guard let scenarios = parseAll(files, printer: printer) else {
            throw UserError.usage(
                tr("Nothing was run: fix the scenario files first (bok scenario check FILE shows the same)."))
        }
        var runner = ScenarioRunner(environment: environment)
        runner.protocolKind = protocolKind
        runner.plainElib = plainElib
        runner.pinFiles = pinFiles
        var results: [ScenarioResult] = []
        for scenario in scenarios {
            let result = await runner.run(scenario)
            results.append(result)
            // A scenario in Swedish (language: sv) is summed up in Swedish.
            if !json {
                let lines = speaking(result.language, environment: environment) {
                    ScenarioReport.lines(for: result, theme: theme)
                }
                for line in lines { printer.out(line) }
            }
        }
        let report = ScenarioReport(results: results)
        try speaking(report.language, environment: environment) {
            if let path = reportFile { try write(report.markdown(), to: path, name: "scenario-report.md") }
            if let path = junit { try write(report.junit(), to: path, name: "scenario-report.xml") }
            if json {
                printer.out(JSONOutput.encode(report.json))
            } else {
                printer.out("")
                printer.out(report.totalsLine(theme: theme))
            }
        }
        return report.passed ? 0 : 1
    }

    @MainActor
    static func check(_ files: [String], theme: Theme, printer: any Printer) throws -> Int32 {
        guard let scenarios = parseAll(files, printer: printer) else { return 1 }
        for scenario in scenarios {
            let steps = scenario.tasks.reduce(0) { $0 + $1.steps.count }
            let expectations = scenario.tasks.reduce(0) { $0 + $1.steps.reduce(0) { $0 + $1.expectations.count } }
            let counts = [
                trn("{n} task", "{n} tasks", scenario.tasks.count), trn("{n} step", "{n} steps", steps),
                trn("{n} expectation", "{n} expectations", expectations),
            ]
            printer.out(
                "\(theme.green(theme.marks.check)) \(scenario.file): \(scenario.name) \(theme.marks.middleDot) "
                    + counts.joined(separator: ", "))
        }
        return 0
    }

    @MainActor
    static func report(_ recordings: [String], json: Bool, theme: Theme, printer: any Printer) throws -> Int32 {
        guard recordings.count == 1, let path = recordings.first else {
            throw UserError.usage(
                tr("scenario report takes one recording made with bok --record FILE. Usage: {usage}", ["usage": usage]))
        }
        let recording = try Recording.read(file: path, screens: false)
        let summary = RecordingSummary(recording)
        if json {
            printer.out(JSONOutput.encode(summary.json))
        } else {
            for line in summary.lines(theme: theme) { printer.out(line) }
        }
        return 0
    }

    /// Writes a report (mode 0600, whole or not at all); a report of an earlier run is replaced,
    /// anything else at the path is left alone (see ``OutputFile``).
    static func write(_ text: String, to path: String, name: String) throws {
        let file = try OutputFile(path: path, name: name, replace: true)
        var text = text
        try text.withUTF8 { bytes throws in try file.append(UnsafeRawBufferPointer(bytes)) }
        try file.commit()
    }

    /// `body` with bok speaking `language` (nil: the language in use), then the language in use again.
    @MainActor
    static func speaking<T>(
        _ language: String?, environment: [String: String], _ body: () throws -> T
    ) rethrows -> T {
        let before = Localization.language
        guard let language, language != before else { return try body() }
        Localization.use(language, environment: environment)
        defer { Localization.use(before, environment: environment) }
        return try body()
    }
}
