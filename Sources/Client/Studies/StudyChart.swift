import Foundation
import Localization

/// The study report's charts as SVG: a bar per task, labelled, on a white ground, written by hand
/// (it is short text) with every label escaped.
enum StudyChart {
    static let width = 860
    static let rowHeight = 36
    static let top = 56
    static let labelWidth = 260
    static let barWidth = 360

    /// Time on task per task: a bar to the median, a line from the shortest to the longest.
    static func time(_ report: StudyReport) -> String {
        let longest = max(1, report.tasks.map(\.longest).max() ?? 1)
        let scale = Double(barWidth) / longest
        var body: [String] = []
        for (index, task) in report.tasks.enumerated() {
            let y = top + index * rowHeight
            body.append(label(task.title, y: y))
            body.append(bar(y: y, width: Int(task.median * scale), fill: "#3b6ea5"))
            body.append(
                "<line x1=\"\(x0 + Int(task.shortest * scale))\" y1=\"\(y + rowHeight / 2)\" "
                    + "x2=\"\(x0 + Int(task.longest * scale))\" y2=\"\(y + rowHeight / 2)\" stroke=\"#222222\" "
                    + "stroke-width=\"2\"/>")
            body.append(
                text(StudyReport.spread(task), x: x0 + Int(task.longest * scale) + 8, y: y + rowHeight / 2 + 5))
        }
        return document(
            title: tr("Time on task per task"),
            caption: tr("Bar: median; line: shortest to longest."), rows: report.tasks.count, body: body)
    }

    /// Success per task: the share of participants who succeeded, 0 to 100 %.
    static func success(_ report: StudyReport) -> String {
        var body: [String] = []
        for (index, task) in report.tasks.enumerated() {
            let y = top + index * rowHeight
            body.append(label(task.title, y: y))
            body.append(bar(y: y, width: barWidth, fill: "#e4e4e4"))
            body.append(bar(y: y, width: Int(task.successRate * Double(barWidth)), fill: "#2f8f4e"))
            body.append(
                text(
                    "\(task.successes)/\(task.attempts) (" + StudyReport.percent(task.successRate) + ")",
                    x: x0 + barWidth + 8, y: y + rowHeight / 2 + 5))
        }
        return document(
            title: tr("Success per task"), caption: tr("Share of participants who succeeded."),
            rows: report.tasks.count, body: body)
    }

    /// Two runs' median time on task, a bar each per task (A above B).
    static func time(_ comparison: StudyComparison) -> String {
        let longest = max(1, comparison.tasks.flatMap { [$0.a?.median, $0.b?.median] }.compactMap { $0 }.max() ?? 1)
        return paired(
            comparison, title: tr("Time on task per task"), caption: tr("Bars: median time on task of A and of B."),
            value: { $0.median / longest }, describe: { StudyReport.duration($0.median) })
    }

    /// Two runs' success per task, a bar each per task (A above B).
    static func success(_ comparison: StudyComparison) -> String {
        paired(
            comparison, title: tr("Success per task"), caption: tr("Share of participants who succeeded, A and B."),
            value: \.successRate, describe: StudyComparison.success)
    }

    /// The colours of run A and run B.
    static let runColours = ("#3b6ea5", "#e08a1e")

    /// A chart of two bars a task, each `value` (0 to 1) of the bars' width, labelled; a legend on top.
    static func paired(
        _ comparison: StudyComparison, title: String, caption: String, value: (StudyComparison.Side) -> Double,
        describe: (StudyComparison.Side) -> String
    ) -> String {
        var body = [
            "<rect x=\"\(x0)\" y=\"36\" width=\"12\" height=\"12\" fill=\"\(runColours.0)\"/>",
            text("A: " + comparison.a.label, x: x0 + 18, y: 47),
            "<rect x=\"\(x0 + 260)\" y=\"36\" width=\"12\" height=\"12\" fill=\"\(runColours.1)\"/>",
            text("B: " + comparison.b.label, x: x0 + 278, y: 47),
        ]
        let half = (rowHeight - 8) / 2
        for (index, task) in comparison.tasks.enumerated() {
            let y = top + 12 + index * rowHeight
            body.append(label(task.title, y: y))
            for (offset, side, fill) in [(2, task.a, runColours.0), (2 + half, task.b, runColours.1)] {
                let width = side.map { Int(value($0) * Double(barWidth)) } ?? 0
                body.append(
                    "<rect x=\"\(x0)\" y=\"\(y + offset)\" width=\"\(width)\" height=\"\(half - 2)\" fill=\"\(fill)\"/>"
                )
                body.append(text(side.map(describe) ?? "–", x: x0 + width + 8, y: y + offset + half - 4, size: 11))
            }
        }
        return document(title: title, caption: caption, rows: comparison.tasks.count, body: body, extra: 12)
    }

    /// Where the bars start, right of the tasks' labels.
    static let x0 = labelWidth + 10

    /// A bar of the row at `y`, from ``x0``.
    static func bar(y: Int, width: Int, fill: String) -> String {
        "<rect x=\"\(x0)\" y=\"\(y + 6)\" width=\"\(width)\" height=\"\(rowHeight - 12)\" fill=\"\(fill)\"/>"
    }

    /// The height of a chart of `rows` tasks.
    static func height(rows: Int) -> Int { top + rows * rowHeight + 36 }

    /// - Parameter extra: more room above the rows (for a legend).
    static func document(title: String, caption: String, rows: Int, body: [String], extra: Int = 0) -> String {
        let height = height(rows: rows) + extra
        let lines =
            [
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
                    + "viewBox=\"0 0 \(width) \(height)\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
                    + "font-size=\"14\">",
                "<title>\(escape(title))</title>",
                "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#ffffff\"/>",
                "<text x=\"16\" y=\"28\" font-size=\"18\" font-weight=\"bold\" fill=\"#111111\">"
                    + escape(title) + "</text>",
            ] + body + [text(caption, x: 16, y: height - 14, fill: "#555555"), "</svg>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A task's title at the left of its row, shortened to fit.
    static func label(_ title: String, y: Int) -> String {
        let short = title.count > 34 ? String(title.prefix(33)) + "…" : title
        return text(short, x: 16, y: y + rowHeight / 2 + 5)
    }

    /// - Parameter size: the font's size, when not the chart's 14.
    static func text(_ content: String, x: Int, y: Int, fill: String = "#111111", size: Int? = nil) -> String {
        let font = size.map { " font-size=\"\($0)\"" } ?? ""
        return "<text x=\"\(x)\" y=\"\(y)\" fill=\"\(fill)\"\(font)>\(escape(content))</text>"
    }

    /// Text made safe inside an element or an attribute (as JUnit XML's is), on one line.
    static func escape(_ text: String) -> String {
        ScenarioReport.xml(text.replacing(/[\t\n\r]/, with: " "))
    }
}
