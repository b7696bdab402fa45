import Foundation
import Localization
import Terminal
import TextSafety

extension StudyReport {
    /// The report for a test lead, in the interface language (the caller makes it the study's):
    /// the tasks, the charts when named, each participant, the SUS scores.
    /// - Parameter charts: the file names of the time and success charts, to link; nil for none.
    func markdown(charts: (time: String, success: String)? = nil) -> String {
        var lines = ["# " + tr("Study: {name}", ["name": Self.cell(study)]), ""]
        var totals = [
            trn("{n} participant", "{n} participants", participants.count), trn("{n} task", "{n} tasks", tasks.count),
        ]
        if let meanSUS { totals.append(tr("mean SUS {score}", ["score": Self.score(meanSUS)])) }
        lines += [totals.joined(separator: " · "), "", "## " + tr("Tasks"), ""]
        lines.append(
            Self.row([
                tr("Task"), tr("Success"), tr("Time on task: median (shortest–longest)"), tr("Errors"),
                tr("Unknown commands"), tr("Help"), tr("Hesitations"),
            ]))
        lines.append(Self.row(Array(repeating: "---", count: 7)))
        for task in tasks {
            lines.append(
                Self.row([
                    task.title, "\(task.successes)/\(task.attempts) (\(Self.percent(task.successRate)))",
                    Self.spread(task),
                    "\(task.errors)", "\(task.unknown)", "\(task.help)", "\(task.hesitations)",
                ]))
        }
        lines += [
            "",
            tr(
                "Errors count every command that printed an error; hesitations, pauses of over {s} s before a line.",
                ["s": Int(Self.hesitation)]),
        ]
        let noted = tasks.filter { !$0.notes.isEmpty }
        if !noted.isEmpty {
            lines += ["", "### " + tr("Notes by task")]
            for task in noted {
                lines += ["", "**" + Self.cell(task.title) + "**", ""] + task.notes.map { "- " + Self.cell($0) }
            }
        }
        if let charts {
            lines += [
                "", "![" + tr("Time on task per task") + "](" + charts.time + ")", "",
                "![" + tr("Success per task") + "](" + charts.success + ")",
            ]
        }
        lines += ["", "## " + tr("Participants"), ""]
        lines.append(
            Self.row([
                tr("Participant"), tr("Success"), tr("Time"), tr("Errors"), tr("Unknown commands"), tr("Help"),
                tr("Hesitations"), "SUS",
            ]))
        lines.append(Self.row(Array(repeating: "---", count: 8)))
        for p in participants {
            let a = p.attempts
            lines.append(
                Self.row([
                    p.participant, "\(p.successes)/\(a.count)", Self.duration(a.reduce(0) { $0 + $1.seconds }),
                    "\(a.reduce(0) { $0 + $1.errors })", "\(a.reduce(0) { $0 + $1.unknown })",
                    "\(a.reduce(0) { $0 + $1.help })", "\(a.reduce(0) { $0 + $1.hesitations })",
                    p.susScore.map(Self.score) ?? "–",
                ]))
        }
        for p in participants {
            lines += ["", "### " + Self.cell(p.participant), ""]
            lines.append(
                Self.row([tr("Task"), tr("Result"), tr("Time"), tr("Errors"), tr("Help"), tr("Hesitations")]))
            lines.append(Self.row(Array(repeating: "---", count: 6)))
            for a in p.attempts {
                lines.append(
                    Self.row([
                        a.task, a.outcome.inWords, Self.duration(a.seconds), "\(a.errors)", "\(a.help)",
                        "\(a.hesitations)",
                    ]))
            }
            let notes =
                p.attempts.flatMap { a in a.notes.map { "- " + Self.cell(a.task) + ": " + Self.cell($0) } }
                + p.notes.map { "- " + tr("(between tasks)") + ": " + Self.cell($0) }
            if !notes.isEmpty { lines += ["", tr("Notes:")] + notes }
            if let sus = p.sus, let score = p.susScore {
                lines += [
                    "",
                    tr(
                        "SUS {score} (answers {answers}).",
                        ["score": Self.score(score), "answers": sus.map(String.init).joined(separator: ", ")]),
                ]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per participant and task, for a spreadsheet; the column names and outcomes are
    /// the same in every language, as `--json`'s field names are.
    func csv() -> String {
        var lines = [
            "participant,task,outcome,seconds,commands,errors,unknown,suggested,help,hesitations,sus,notes"
        ]
        for p in participants {
            for a in p.attempts {
                let fields: [String] = [
                    p.participant, a.task, a.outcome.rawValue, String(format: "%.3f", a.seconds), "\(a.commands)",
                    "\(a.errors)", "\(a.unknown)", "\(a.suggested)", "\(a.help)", "\(a.hesitations)",
                    p.susScore.map { String(format: "%.1f", $0) } ?? "", a.notes.joined(separator: " / "),
                ]
                lines.append(fields.map(Self.csvField).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `--format json`.
    struct JSON: Encodable {
        let study: String
        let language: String
        let meanSUS: Double?
        let tasks: [TaskSummary]
        let participants: [Participant]
    }

    var json: JSON {
        JSON(study: study, language: language, meanSUS: meanSUS, tasks: tasks, participants: participants)
    }

    /// A table row of ``cell(_:)``s.
    static func row(_ cells: [String]) -> String { "| " + cells.map(cell).joined(separator: " | ") + " |" }

    /// Text from a recording, which may come from anywhere, as one line of Markdown: line breaks
    /// become spaces, controls visible stand-ins (``SafeText/line(_:)``), and `|` and `\` are escaped.
    static func cell(_ text: String) -> String {
        SafeText.line(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
    }

    /// RFC 4180: quoted when it holds a comma, a quote or a line break; a leading `=`, `+`, `-` or
    /// `@` gets a `'` first, so a spreadsheet does not run a title as a formula.
    static func csvField(_ text: String) -> String {
        var text = SafeText.line(text)
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { ",\"\r\n".contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `1 min 12 s`.
    static func duration(_ seconds: Double) -> String { RecordingSummary.duration(seconds) }

    /// Time on task as the table gives it: `20 s (5 s–35 s)`, the median and the spread.
    static func spread(_ task: TaskSummary) -> String {
        duration(task.median) + " (" + duration(task.shortest) + "–" + duration(task.longest) + ")"
    }

    /// `67 %`.
    static func percent(_ rate: Double) -> String { tr("{n} %", ["n": Int((rate * 100).rounded())]) }

    /// `72.5` (`72,5` in Swedish).
    static func score(_ score: Double) -> String { Words.decimal(score, digits: 1) }
}
