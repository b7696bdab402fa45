import Catalog
import Foundation
import Localization
import Terminal

/// `bok scenario report RECORDING`: a recorded session by task — time on task between the
/// tester's `# task: …` markers, commands, errors and uses of help — to set beside a scripted run.
struct RecordingSummary {
    /// One task, or the commands typed outside any task.
    struct Part: Sendable, Encodable {
        /// The task's title; nil for commands outside any task.
        var title: String?
        /// Seconds from its marker to the next marker or the end of the session.
        var seconds: Double
        var commands: Int
        /// Commands that printed an error.
        var errors: Int
        /// Uses of help.
        var help: Int
        /// The commands as typed, with the seconds the patron took before each, and the tester's
        /// `# notes` in their place.
        var lines: [Line]
    }

    struct Line: Sendable, Encodable {
        var at: String
        var think: Double
        var line: String
        var error: String?
        var help: Bool
        /// A tester's `# note`, not a command: counted nowhere, shown where it was typed.
        var note: Bool = false
    }

    let file: String
    let started: Date?
    /// Seconds from the start to the end (or the last event, for a session that did not end).
    let seconds: Double
    let tasks: [Part]
    /// Commands outside any task, when there were some.
    let outside: Part?

    init(_ recording: Recording) {
        file = recording.file
        let events = recording.events
        started = events.first?.date
        let end = events.last?.date ?? started ?? Date()
        seconds = started.map { end.timeIntervalSince($0) } ?? 0

        var tasks: [Part] = []
        var outside = Part(title: nil, seconds: 0, commands: 0, errors: 0, help: 0, lines: [])
        var current: (part: Part, start: Date)?
        func close(at date: Date) {
            guard var open = current else { return }
            open.part.seconds = date.timeIntervalSince(open.start)
            tasks.append(open.part)
            current = nil
        }
        for event in events {
            guard let date = event.date else { continue }
            switch event.event {
            case .marker:
                close(at: date)
                if let title = event.task {
                    current = (Part(title: title, seconds: 0, commands: 0, errors: 0, help: 0, lines: []), date)
                }
            case .command:
                let line = Line(
                    at: event.at, think: event.think ?? 0, line: event.line ?? "",
                    error: event.errors?.first, help: event.help ?? false)
                if current != nil {
                    Self.add(line, to: &current!.part)
                } else {
                    Self.add(line, to: &outside)
                }
            case .note:
                let note = Line(
                    at: event.at, think: event.think ?? 0, line: event.line ?? "", error: nil, help: false, note: true)
                if current != nil { current!.part.lines.append(note) } else { outside.lines.append(note) }
            case .end:
                close(at: date)
            case .start, .sus:
                break
            }
        }
        close(at: end)
        self.tasks = tasks
        self.outside = outside.lines.isEmpty ? nil : outside
    }

    static func add(_ line: Line, to part: inout Part) {
        part.commands += 1
        if line.error != nil { part.errors += 1 }
        if line.help { part.help += 1 }
        part.lines.append(line)
    }

    var allParts: [Part] { tasks + (outside.map { [$0] } ?? []) }

    /// The summary for a person: totals, a table of tasks, then each task's commands.
    func lines(theme: Theme) -> [String] {
        let all = allParts
        let commands = all.reduce(0) { $0 + $1.commands }
        let errors = all.reduce(0) { $0 + $1.errors }
        let help = all.reduce(0) { $0 + $1.help }
        let dot = theme.marks.middleDot
        let counts = [
            trn("{n} command", "{n} commands", commands), trn("{n} error", "{n} errors", errors), Self.helpUsed(help),
        ]
        var lines = [
            theme.bold(tr("Recording {file}", ["file": file])) + " \(dot) "
                + (started.map(ScenarioReport.stamp) ?? "?") + " \(dot) " + Self.duration(seconds) + " \(dot) "
                + counts.joined(separator: ", "),
            "",
        ]
        if tasks.isEmpty {
            lines.append(
                theme.dim(
                    tr("No tasks were marked: type # task: TITLE at the prompt when a task begins, # end when it ends.")
                ))
        }
        let titles = all.map { $0.title ?? tr("(outside tasks)") }
        // Each column as wide as its heading in the language in use, numbers to the right.
        let headings = [tr("Time on task"), tr("Commands"), tr("Errors"), tr("Help")]
        let widths = headings.map { DisplayWidth.of($0) }
        let width = max(DisplayWidth.of(tr("Task")), titles.map { DisplayWidth.of($0) }.max() ?? 4)
        lines.append(
            theme.bold(
                DisplayWidth.pad(tr("Task"), to: width)
                    + zip(headings, widths).map { "   " + DisplayWidth.pad($0, to: $1) }.joined()))
        for (part, title) in zip(all, titles) {
            let time = part.title == nil ? "" : Self.duration(part.seconds)
            lines.append(
                DisplayWidth.pad(title, to: width) + "   " + DisplayWidth.pad(time, to: widths[0])
                    + Self.right(part.commands, widths[1] + 3) + Self.right(part.errors, widths[2] + 3)
                    + Self.right(part.help, widths[3] + 3))
        }
        for (part, title) in zip(all, titles) where !part.lines.isEmpty {
            lines += ["", theme.bold(title)]
            for line in part.lines {
                let clock = Timestamp.parse(line.at).map(Self.clock) ?? line.at
                if line.note {
                    lines.append(theme.dim("  \(clock)  " + DisplayWidth.pad("", to: 9) + line.line))
                    continue
                }
                var text =
                    "  \(clock)  " + DisplayWidth.pad("+" + Words.decimal(line.think, digits: 1) + " s", to: 9)
                    + line.line
                if line.help { text += theme.dim("  " + tr("(help)")) }
                lines.append(text)
                if let error = line.error { lines.append("      " + theme.red(error)) }
            }
        }
        return lines
    }

    /// `--json`.
    struct JSON: Encodable, Sendable {
        let file: String
        let started: String?
        let seconds: Double
        let commands: Int
        let errors: Int
        let help: Int
        let tasks: [Part]
        let outsideTasks: Part?
    }

    var json: JSON {
        let all = allParts
        return JSON(
            file: file, started: started.map { $0.formatted(.iso8601) }, seconds: seconds,
            commands: all.reduce(0) { $0 + $1.commands }, errors: all.reduce(0) { $0 + $1.errors },
            help: all.reduce(0) { $0 + $1.help }, tasks: tasks, outsideTasks: outside)
    }

    /// `help once`, `help 3 times`, `help never`.
    static func helpUsed(_ n: Int) -> String {
        switch n {
        case 0: tr("help never")
        case 1: tr("help once")
        default: trn("help {n} time", "help {n} times", n)
        }
    }
    static func right(_ n: Int, _ width: Int) -> String {
        let text = String(n)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// `1 min 12 s`, `40 s`, `1 h 3 min`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return tr("{s} s", ["s": total]) }
        if total < 3600 { return tr("{min} min {s} s", ["min": total / 60, "s": total % 60]) }
        return tr("{h} h {min} min", ["h": total / 3600, "min": total % 3600 / 60])
    }

    /// The local time of day, `10:02:15`.
    static func clock(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }
}
