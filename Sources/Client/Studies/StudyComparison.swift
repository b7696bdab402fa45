import Foundation
import Localization

/// `bok study report DIR_A DIR_B`: two runs of a study side by side (the mock's Elib face against
/// its OPDS one, a prototype against the library's app, two bok versions): per task the success
/// and the median time on task of each, and the difference, B less A.
struct StudyComparison: Sendable {
    /// One run: a folder of recordings and what it is called in the report (the folder's name).
    struct Run: Sendable, Encodable {
        var label: String
        var folder: String
        var study: String
        var participants: Int
        var meanSUS: Double?
    }

    /// One side of a task: nil in the JSON when that run did not have the task.
    struct Side: Sendable, Encodable, Equatable {
        var attempts: Int
        var successes: Int
        var successRate: Double
        /// Median time on task, seconds.
        var median: Double
    }

    /// A task in either run, matched by title.
    struct Task: Sendable, Encodable, Equatable {
        var title: String
        var a: Side?
        var b: Side?
        /// B's success rate less A's (−1 to 1), when both have the task.
        var successRateDifference: Double? {
            guard let a, let b else { return nil }
            return b.successRate - a.successRate
        }
        /// B's median time on task less A's, in seconds: below 0, B was quicker.
        var medianDifference: Double? {
            guard let a, let b else { return nil }
            return b.median - a.median
        }

        enum CodingKeys: String, CodingKey { case title, a, b, successRateDifference, medianDifference }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(title, forKey: .title)
            try c.encode(a, forKey: .a)
            try c.encode(b, forKey: .b)
            try c.encode(successRateDifference, forKey: .successRateDifference)
            try c.encode(medianDifference, forKey: .medianDifference)
        }
    }

    var a: Run
    var b: Run
    /// A's tasks in its order, then any only B has.
    var tasks: [Task]
    /// The first run's language, in which the comparison is written.
    var language: String

    init(_ first: StudyReport, folder folderA: String, _ second: StudyReport, folder folderB: String) {
        var labelA = Self.label(folderA)
        var labelB = Self.label(folderB)
        if labelA == labelB {
            labelA = "A: " + labelA
            labelB = "B: " + labelB
        }
        a = Run(
            label: labelA, folder: folderA, study: first.study, participants: first.participants.count,
            meanSUS: first.meanSUS)
        b = Run(
            label: labelB, folder: folderB, study: second.study, participants: second.participants.count,
            meanSUS: second.meanSUS)
        language = first.language
        var titles = first.tasks.map(\.title)
        titles += second.tasks.map(\.title).filter { !titles.contains($0) }
        func side(_ report: StudyReport, _ title: String) -> Side? {
            report.tasks.first { $0.title == title }.map {
                Side(attempts: $0.attempts, successes: $0.successes, successRate: $0.successRate, median: $0.median)
            }
        }
        tasks = titles.map { Task(title: $0, a: side(first, $0), b: side(second, $0)) }
    }

    /// A folder's last name: `results/opds/` → `opds`.
    static func label(_ folder: String) -> String {
        let name = (folder as NSString).lastPathComponent
        return name.isEmpty ? folder : name
    }

    /// The comparison for a test lead: the two runs, then one table of the tasks.
    func markdown(charts: (time: String, success: String)? = nil) -> String {
        let name = a.study == b.study ? a.study : a.study + " / " + b.study
        var lines = [
            "# " + tr("Study: {name}", ["name": StudyReport.cell(name)]), "",
            tr("{a} compared with {b}; differences are B less A.", ["a": "A", "b": "B"]), "",
        ]
        for (letter, run) in [("A", a), ("B", b)] {
            var totals = [trn("{n} participant", "{n} participants", run.participants)]
            if let meanSUS = run.meanSUS {
                totals.append(tr("mean SUS {score}", ["score": StudyReport.score(meanSUS)]))
            }
            lines.append(
                "- **\(letter)**: " + StudyReport.cell(run.label) + " (`" + StudyReport.cell(run.folder) + "`) · "
                    + totals.joined(separator: " · "))
        }
        if let sa = a.meanSUS, let sb = b.meanSUS {
            lines += ["", tr("SUS difference: {n}.", ["n": Self.signed(StudyReport.score(sb - sa), sb - sa)])]
        }
        lines += ["", "## " + tr("Tasks"), ""]
        lines.append(
            StudyReport.row([
                tr("Task"), tr("Success") + " A", tr("Success") + " B", tr("Difference"),
                tr("Time on task") + " A", tr("Time on task") + " B", tr("Difference"),
            ]))
        lines.append(StudyReport.row(Array(repeating: "---", count: 7)))
        for task in tasks {
            lines.append(
                StudyReport.row([
                    task.title, Self.success(task.a), Self.success(task.b),
                    task.successRateDifference.map(Self.points) ?? "–",
                    task.a.map { StudyReport.duration($0.median) } ?? "–",
                    task.b.map { StudyReport.duration($0.median) } ?? "–",
                    task.medianDifference.map(Self.time) ?? "–",
                ]))
        }
        lines += [
            "",
            tr(
                "Success: who succeeded of those who tried; time on task: the median. "
                    + "– where a run did not have the task."),
        ]
        if let charts {
            lines += [
                "", "![" + tr("Time on task per task") + "](" + charts.time + ")", "",
                "![" + tr("Success per task") + "](" + charts.success + ")",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per task, for a spreadsheet: A's numbers, B's, and the differences (B less A).
    func csv() -> String {
        var lines = [
            "task,a_attempts,a_successes,a_success_rate,a_median_seconds,"
                + "b_attempts,b_successes,b_success_rate,b_median_seconds,"
                + "success_rate_difference,median_seconds_difference"
        ]
        func number(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "" }
        for task in tasks {
            var fields = [StudyReport.csvField(task.title)]
            for side in [task.a, task.b] {
                fields += [
                    side.map { "\($0.attempts)" } ?? "", side.map { "\($0.successes)" } ?? "",
                    number(side?.successRate, "%.3f"), number(side?.median, "%.3f"),
                ]
            }
            fields += [number(task.successRateDifference, "%.3f"), number(task.medianDifference, "%.3f")]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `--format json`.
    struct JSON: Encodable {
        let language: String
        let a: Run
        let b: Run
        let tasks: [Task]
    }

    var json: JSON { JSON(language: language, a: a, b: b, tasks: tasks) }

    /// `2/3 (67 %)`, or `–`.
    static func success(_ side: Side?) -> String {
        guard let side else { return "–" }
        return "\(side.successes)/\(side.attempts) (" + StudyReport.percent(side.successRate) + ")"
    }

    /// `+33 points`, `−17 points`, `±0 points`.
    static func points(_ difference: Double) -> String {
        let n = Int((difference * 100).rounded())
        return signed(trn("{n} point", "{n} points", abs(n)), Double(n))
    }

    /// `+12 s`, `−1 min 5 s`, `±0 s`.
    static func time(_ difference: Double) -> String { signed(StudyReport.duration(abs(difference)), difference) }

    /// `text` after its sign: `+`, `−`, or `±` when it shows no difference (`0 s`, `0.0`).
    static func signed(_ text: String, _ value: Double) -> String {
        let magnitude = text.hasPrefix("-") ? String(text.dropFirst()) : text
        guard magnitude.contains(where: { "123456789".contains($0) }) else { return "±" + magnitude }
        return (value > 0 ? "+" : "−") + magnitude
    }
}
