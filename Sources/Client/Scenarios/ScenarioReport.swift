import Foundation
import Localization
import Terminal
import TextSafety

/// The reports of a scenario run: the summary on the terminal, Markdown for a test lead,
/// JSON, and JUnit XML for CI.
struct ScenarioReport {
    let results: [ScenarioResult]

    var taskCount: Int { results.reduce(0) { $0 + max(1, $1.tasks.count) } }
    var failedTasks: Int {
        results.reduce(0) {
            $0 + ($1.setupError != nil ? max(1, $1.tasks.count) : $1.tasks.filter { !$0.passed }.count)
        }
    }
    var passed: Bool { results.allSatisfy(\.passed) }
    var seconds: Double { results.reduce(0) { $0 + $1.seconds } }

    /// The language the scenarios ran in when they share one (then the totals and the Markdown
    /// report are in it too); nil when they differ.
    var language: String? {
        let languages = Set(results.map(\.language))
        return languages.count == 1 ? languages.first : nil
    }

    /// `3 scenarios, 7 tasks: 6 passed, 1 failed · 1.20 s`.
    var totals: String {
        let files = trn("{n} scenario", "{n} scenarios", results.count)
        let tasks = trn("{n} task", "{n} tasks", taskCount)
        return tr(
            "{scenarios}, {tasks}: {passed} passed, {failed} failed",
            ["scenarios": files, "tasks": tasks, "passed": taskCount - failedTasks, "failed": failedTasks])
            + " \u{00B7} " + Self.time(seconds)
    }

    /// `1.20 s`, `1,20 s` in Swedish.
    static func time(_ seconds: Double) -> String {
        Words.decimal(seconds, digits: 2) + " s"
    }

    // MARK: Terminal

    /// The summary printed after a run: each task with its time, and for a failure the
    /// expectation, what was wrong and the screen it looked at.
    func summary(theme: Theme) -> [String] {
        results.flatMap { Self.lines(for: $0, theme: theme) } + ["", totalsLine(theme: theme)]
    }

    /// The totals, green when everything passed.
    func totalsLine(theme: Theme) -> String { passed ? theme.green(totals) : theme.red(totals) }

    /// One scenario's part of the summary, printed as soon as it has run.
    static func lines(for result: ScenarioResult, theme: Theme) -> [String] {
        let marks = theme.marks
        var lines: [String] = []
        let mark = result.passed ? theme.green(marks.check) : theme.red(marks.cross)
        lines.append("\(mark) \(theme.bold(result.name)) \(theme.dim("\(marks.middleDot) \(result.file)"))")
        if let error = result.setupError {
            lines.append("    " + theme.red(error))
            return lines
        }
        for task in result.tasks {
            let taskMark = task.passed ? theme.green(marks.check) : theme.red(marks.cross)
            lines.append("    \(taskMark) \(task.title)  \(theme.dim(time(task.seconds)))")
            guard let (step, failure) = task.firstFailure else { continue }
            lines.append(
                "        " + tr("line {line}: {message}", ["line": failure.line, "message": failure.expected]))
            lines.append("        " + theme.red(failure.message))
            let screen = failure.shown ?? step.screen
            lines.append(
                "        "
                    + theme.dim(
                        failure.shown == nil
                            ? tr(
                                "The screen after line {line}, > {command}:",
                                ["line": step.line, "command": step.command])
                            : tr("What shelf showed:")))
            lines += (screen.isEmpty ? [tr("(nothing)")] : screen).map { "        \u{2502} " + $0 }
            let otherFailures = task.steps.flatMap(\.failures).count - 1
            if otherFailures > 0 {
                lines.append(
                    "        "
                        + theme.dim(
                            trn(
                                "and {n} more failed expectation (see --report)",
                                "and {n} more failed expectations (see --report)", otherFailures)))
            }
            if !task.notRun.isEmpty {
                lines.append(
                    "        " + theme.dim(tr("not run: {steps}", ["steps": task.notRun.joined(separator: ", ")])))
            }
        }
        return lines
    }

    // MARK: Markdown

    /// A report a test lead reads: a table of tasks, then each task's transcript and failures.
    func markdown(date: Date = Date()) -> String {
        var out = [
            "# " + tr("Scenario run"), "", "\(Self.stamp(date)) \u{00B7} \(totals)", "",
            "| " + [tr("Scenario"), tr("Task"), tr("Result"), tr("Time")].joined(separator: " | ") + " |",
            "|---|---|---|---|",
        ]
        for result in results {
            if let error = result.setupError {
                out.append(
                    """
                    | \(Self.cell(result.name)) | \(tr("(setup)")) | **\(tr("failed"))**: \(Self.cell(error)) | \
                    \(Self.time(result.seconds)) |
                    """
                )
            }
            for task in result.tasks {
                out.append(
                    """
                    | \(Self.cell(result.name)) | \(Self.cell(task.title)) | \
                    \(task.passed ? tr("passed") : "**\(tr("failed"))**") | \(Self.time(task.seconds)) |
                    """
                )
            }
        }
        for result in results {
            out += [
                "", "## \(result.passed ? "✓" : "✗") \(SafeText.line(result.name))", "",
                """
                `\(SafeText.line(result.file).replacingOccurrences(of: "`", with: "'"))` \u{00B7} \
                \(Self.time(result.seconds))
                """,
            ]
            if let error = result.setupError { out += ["", "**\(tr("Could not start:"))** \(error)"] }
            for task in result.tasks {
                out += [
                    "", "### \(task.passed ? "✓" : "✗") \(SafeText.line(task.title))", "",
                    task.passed
                        ? trn(
                            "Passed in {time}, {n} command.", "Passed in {time}, {n} commands.", task.steps.count,
                            ["time": Self.time(task.seconds)])
                        : "**" + tr("Failed") + "** "
                            + trn(
                                "in {time}, {n} command.", "in {time}, {n} commands.", task.steps.count,
                                ["time": Self.time(task.seconds)]),
                    "",
                ]
                out.append("```text")
                for step in task.steps {
                    out.append("> \(step.command)")
                    out += step.screen.map { $0.replacingOccurrences(of: "```", with: "'''") }
                }
                out.append("```")
                for step in task.steps {
                    for failure in step.failures {
                        out += [
                            "",
                            """
                            - **\(tr("line {line}", ["line": failure.line]))** \
                            `\(failure.expected.replacingOccurrences(of: "`", with: "'"))`: \(failure.message)
                            """,
                        ]
                        if let shown = failure.shown {
                            out +=
                                ["", "  " + tr("What shelf showed:"), "", "  ```text"] + shown.map { "  " + $0 }
                                + ["  ```"]
                        }
                    }
                }
                if !task.notRun.isEmpty {
                    out += [
                        "",
                        tr(
                            "Not run after the failure: {steps}",
                            ["steps": task.notRun.map { "`\($0)`" }.joined(separator: ", ")]),
                    ]
                }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// Text as one Markdown table cell: one line, controls visible, and `|` escaped so that the
    /// row keeps its columns whatever a scenario's name or the library's words hold.
    static func cell(_ text: String) -> String { SafeText.line(text).replacingOccurrences(of: "|", with: "\\|") }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        formatter.timeZone = .current
        return formatter.string(from: date)
    }

    // MARK: JUnit

    /// JUnit XML: a test suite per scenario file, a test case per task; a setup failure is an error.
    func junit() -> String {
        var out = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            """
            <testsuites name=\"bok scenarios\" tests=\"\(taskCount)\" \
            failures=\"\(results.flatMap(\.tasks).filter { !$0.passed }.count)\" \
            errors=\"\(results.filter { $0.setupError != nil }.count)\" time=\"\(Self.seconds(seconds))\">
            """,
        ]
        for result in results {
            let failures = result.tasks.filter { !$0.passed }.count
            let errors = result.setupError == nil ? 0 : 1
            out.append(
                """
                  <testsuite name=\"\(Self.xml(result.name))\" file=\"\(Self.xml(result.file))\" \
                tests=\"\(max(1, result.tasks.count))\" failures=\"\(failures)\" errors=\"\(errors)\" \
                time=\"\(Self.seconds(result.seconds))\">
                """
            )
            if let error = result.setupError {
                out.append(
                    """
                        <testcase name=\"setup\" classname=\"\(Self.xml(result.file))\" \
                    time=\"\(Self.seconds(result.seconds))\">
                    """
                )
                out.append("      <error message=\"\(Self.xml(error))\"/>")
                out.append("    </testcase>")
            }
            for task in result.tasks {
                out.append(
                    """
                        <testcase name=\"\(Self.xml(task.title))\" classname=\"\(Self.xml(result.file))\" \
                    time=\"\(Self.seconds(task.seconds))\">
                    """
                )
                if let (step, failure) = task.firstFailure {
                    let screen = failure.shown ?? step.screen
                    let body =
                        ([
                            "\(result.file):\(failure.line): \(failure.expected)", failure.message, "",
                            failure.shown == nil ? "> \(step.command)" : "shelf",
                        ] + screen).joined(separator: "\n")
                    out.append(
                        """
                              <failure \
                        message=\"\(Self.xml("line \(failure.line): \(failure.expected) — \(failure.message)"))\">\
                        \(Self.xml(body))</failure>
                        """
                    )
                }
                let transcript = task.steps.flatMap { ["> \($0.command)"] + $0.screen }.joined(separator: "\n")
                out.append("      <system-out>\(Self.xml(transcript))</system-out>")
                out.append("    </testcase>")
            }
            out.append("  </testsuite>")
        }
        out.append("</testsuites>")
        return out.joined(separator: "\n") + "\n"
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Text as XML character data or an attribute value; characters XML 1.0 cannot hold are dropped.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: JSON

    /// `--json`: every result, and the totals.
    struct JSON: Encodable, Sendable {
        let passed: Bool
        let tasks: Int
        let failedTasks: Int
        let seconds: Double
        let scenarios: [ScenarioResult]
    }

    var json: JSON {
        JSON(passed: passed, tasks: taskCount, failedTasks: failedTasks, seconds: seconds, scenarios: results)
    }
}
