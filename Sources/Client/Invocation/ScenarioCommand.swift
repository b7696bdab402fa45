import Foundation
import Terminal

/// `bok scenario run|check|report`: scenario files for usability testers and CI (docs/scenarios.md).
@MainActor
enum ScenarioCommand {
    static let help = """
        bok scenario run FILE|DIR… [--report FILE.md] [--junit FILE.xml] [--json]
        bok scenario check FILE|DIR…
        bok scenario report RECORDING [--json]

        run      runs the scenario files' tasks against a fresh mock library and reports which passed
        check    reads the files and reports mistakes with line numbers; runs nothing
        report   time on task, commands, errors and help per task of a recording (bok --record FILE)

        Exit status: 0 when every task passed (or every file reads), 1 when one failed, 2 for a usage mistake.
        See docs/scenarios.md for the file format.
        """
    static let usage = "Usage: bok scenario run FILE… [--report FILE.md] [--junit FILE.xml] [--json] | bok scenario check FILE… | bok scenario report RECORDING [--json]"

    static func run(_ words: [String], options: GlobalOptions, environment: [String: String], printer: any Printer) async -> Int32 {
        let caps = TerminalCapabilities.detect(environment: environment, isTTY: isatty(1) == 1)
        let theme = Theme(caps: options.noColor || options.json ? .plain : caps, width: 0)
        do {
            guard let verb = words.first else { throw UserError.usage(usage) }
            let arguments = try Arguments(Array(words.dropFirst()), valued: ["report", "junit"])
            let known: Set<String> = verb == "run" ? ["json"] : (verb == "report" ? ["json"] : [])
            if let stray = arguments.unknownFlags(known: known).first { throw UserError.usage("scenario \(verb) has no option --\(stray). \(usage)") }
            switch verb {
            case "run":
                return try await runFiles(arguments, json: options.json, environment: environment, theme: theme, printer: printer)
            case "check":
                return try check(arguments, theme: theme, printer: printer)
            case "report":
                return try report(arguments, json: options.json, theme: theme, printer: printer)
            default:
                throw UserError.usage("Unknown scenario command \"\(verb)\". \(usage)")
            }
        } catch {
            return ErrorReport.report(error, json: options.json, printer: printer)
        }
    }

    /// The files named, a folder standing for its `*.scenario` files in name order.
    static func files(_ arguments: Arguments, what: String) throws -> [String] {
        guard !arguments.positional.isEmpty else { throw UserError.usage("scenario \(what) needs at least one file. \(usage)") }
        var files: [String] = []
        for path in arguments.positional {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UserError("There is no file \(path). Check the path.")
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let found = names.filter { $0.hasSuffix(".scenario") }.sorted()
                guard !found.isEmpty else { throw UserError("The folder \(path) has no .scenario files.") }
                files += found.map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Parses every file, printing each mistake as `FILE:LINE: message`; nil when any file has one.
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

    static func runFiles(_ arguments: Arguments, json: Bool, environment: [String: String], theme: Theme,
                         printer: any Printer) async throws -> Int32 {
        let files = try files(arguments, what: "run")
        guard let scenarios = parseAll(files, printer: printer) else {
            throw UserError.usage("Nothing was run: fix the scenario files first (bok scenario check FILE shows the same).")
        }
        let runner = ScenarioRunner(environment: environment)
        var results: [ScenarioResult] = []
        for scenario in scenarios {
            let result = await runner.run(scenario)
            results.append(result)
            if !json { for line in ScenarioReport.lines(for: result, theme: theme) { printer.out(line) } }
        }
        let report = ScenarioReport(results: results)
        if let path = arguments.option("report") { try write(report.markdown(), to: path) }
        if let path = arguments.option("junit") { try write(report.junit(), to: path) }
        if json {
            printer.out(JSONOutput.encode(report.json))
        } else {
            printer.out("")
            printer.out(report.totalsLine(theme: theme))
        }
        return report.passed ? 0 : 1
    }

    static func check(_ arguments: Arguments, theme: Theme, printer: any Printer) throws -> Int32 {
        let files = try files(arguments, what: "check")
        guard let scenarios = parseAll(files, printer: printer) else { return 1 }
        for scenario in scenarios {
            let steps = scenario.tasks.reduce(0) { $0 + $1.steps.count }
            let expectations = scenario.tasks.reduce(0) { $0 + $1.steps.reduce(0) { $0 + $1.expectations.count } }
            printer.out("\(theme.green(theme.marks.check)) \(scenario.file): \(scenario.name) \(theme.marks.middleDot) "
                        + "\(scenario.tasks.count) \(scenario.tasks.count == 1 ? "task" : "tasks"), \(steps) \(steps == 1 ? "step" : "steps"), "
                        + "\(expectations) \(expectations == 1 ? "expectation" : "expectations")")
        }
        return 0
    }

    static func report(_ arguments: Arguments, json: Bool, theme: Theme, printer: any Printer) throws -> Int32 {
        guard arguments.positional.count == 1, let path = arguments.positional.first else {
            throw UserError.usage("scenario report takes one recording made with bok --record FILE. \(usage)")
        }
        let recording = try Recording.read(file: path)
        let summary = RecordingSummary(recording)
        if json {
            printer.out(JSONOutput.encode(summary.json))
        } else {
            for line in summary.lines(theme: theme) { printer.out(line) }
        }
        return 0
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw UserError("Could not write the report \(path). Check that its folder exists and is writable.")
        }
    }
}
