import Foundation
import Localization

/// Reads study files (docs/studies.md): the scenario format's setup, then tasks with an
/// instruction, a success condition and a time limit. Every mistake is collected, with its line,
/// as `ScenarioParser` does.
@MainActor
enum StudyParser {
    /// Keywords of a task.
    static let taskKeywords = ["instruction", "success", "time limit"]

    /// Reads the file at `path`.
    /// - Throws: `ScenarioParseError` listing every mistake, or one for a file that cannot be read.
    static func parse(file path: String) throws -> Study {
        try parse(ScenarioParser.text(ofFile: path), file: path)
    }

    /// Reads study text; `file` names it in errors.
    static func parse(_ text: String, file: String) throws -> Study {
        var reader = ScenarioLineReader(file: file)
        var study = Study(file: file, name: "", setup: Scenario.Setup(), tasks: [])
        var issues: [ScenarioIssue] = []
        func issue(_ line: Int, _ message: String) { issues.append(ScenarioIssue(line: line, message: message)) }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            guard let colon = text.firstIndex(of: ":") else {
                issue(line, tr("expected `keyword: value`, got \"{text}\". Comments start with #.", ["text": text]))
                continue
            }
            let keyword = text[..<colon].split(separator: " ").joined(separator: " ").lowercased()
            let value = ScenarioParser.unquote(text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            switch keyword {
            case "study":
                if value.isEmpty { issue(line, tr("study: needs a name, e.g. study: Borrow and read.")) }
                study.name = value
            case "task":
                if value.isEmpty { issue(line, tr("task: needs a title, e.g. task: Borrow the top book.")) }
                study.tasks.append(
                    StudyTask(
                        title: value, line: line, instruction: "", success: [],
                        timeLimit: StudyTask.defaultTimeLimit))
            case _ where taskKeywords.contains(keyword):
                guard !study.tasks.isEmpty else {
                    issue(line, tr("{keyword}: belongs to a task; put it after task: TITLE.", ["keyword": keyword]))
                    continue
                }
                do {
                    try read(keyword, value, into: &study.tasks[study.tasks.count - 1], reader: reader)
                } catch {
                    issue(line, ErrorReport.message(for: error))
                }
            case "scenario":
                issue(line, tr("a study file starts with study: NAME, not scenario:."))
            default:
                guard study.tasks.isEmpty else {
                    issue(
                        line,
                        tr(
                            "unknown keyword \"{keyword}\" in a task. A task has instruction:, success: "
                                + "and time limit:.", ["keyword": keyword]))
                    continue
                }
                reader.setup(keyword, value, line: line)
            }
        }
        reader.finish()
        issues = (reader.issues + issues).sorted { $0.line < $1.line }
        study.setup = reader.setup
        if study.name.isEmpty, !issues.contains(where: { $0.message.hasPrefix("study:") }) {
            issues.insert(
                ScenarioIssue(line: 1, message: tr("the file has no study: line. Start it with study: NAME.")), at: 0)
        }
        if study.tasks.isEmpty {
            issues.append(ScenarioIssue(line: 1, message: tr("the file has no tasks. Add task: TITLE.")))
        }
        for task in study.tasks {
            if task.instruction.isEmpty {
                issues.append(
                    ScenarioIssue(
                        line: task.line,
                        message: tr(
                            "task \"{title}\" has no instruction. "
                                + "Add instruction: what the participant is asked to do.",
                            ["title": task.title])))
            }
            if task.success.isEmpty {
                issues.append(
                    ScenarioIssue(
                        line: task.line,
                        message: tr(
                            "task \"{title}\" has no success condition. Add e.g. success: shelf: TITLE | 28 days.",
                            ["title": task.title])))
            }
        }
        guard issues.isEmpty else { throw ScenarioParseError(file: file, issues: issues) }
        return study
    }

    /// `instruction:`, `success:` or `time limit:` of the task being read.
    static func read(_ keyword: String, _ value: String, into task: inout StudyTask, reader: ScenarioLineReader) throws
    {
        switch keyword {
        case "instruction":
            task.instruction = task.instruction.isEmpty ? value : task.instruction + " " + value
        case "time limit":
            task.timeLimit = try timeLimit(value)
        default:
            guard let colon = value.firstIndex(of: ":") else {
                throw UserError(Self.successHelp)
            }
            let kind = value[..<colon].split(separator: " ").joined(separator: " ").lowercased()
            let rest = ScenarioParser.unquote(value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            let parts = rest.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch kind {
            case "shelf", "not shelf":
                // An expectation of the scenario format, on the shelf.
                task.success.append(.shelf(try reader.expectation(kind, rest)))
            case "reading":
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw UserError(
                        tr("success: reading: takes TITLE | CHAPTER, e.g. reading: Fritt fall | Kapitel 3."))
                }
                task.success.append(.reading(title: parts[0], chapter: parts[1]))
            case "highlight":
                guard !rest.isEmpty else { throw UserError(tr("success: highlight: takes the book's title.")) }
                task.success.append(.highlight(title: rest))
            default:
                throw UserError(Self.successHelp)
            }
        }
    }

    static var successHelp: String {
        tr(
            "success: takes shelf: TITLE | BADGE, not shelf: TITLE, reading: TITLE | CHAPTER or highlight: TITLE, "
                + "e.g. success: shelf: Fritt fall | 28 days.")
    }

    /// `90 s`, `5 min`, `5m`, `2 min 30 s`: seconds, from 1 s to 24 h.
    static func timeLimit(_ value: String) throws -> Double {
        var seconds = 0.0
        var matched = false
        for match in value.lowercased().matches(of: /(\d+)\s*(s|sec|seconds?|m|min|minutes?|h|hours?)\b/) {
            let n = Double(match.1)!
            seconds += n * (match.2.hasPrefix("h") ? 3600 : match.2.hasPrefix("m") ? 60 : 1)
            matched = true
        }
        let leftover = value.lowercased().replacing(/(\d+)\s*(s|sec|seconds?|m|min|minutes?|h|hours?)\b/, with: "")
        guard matched, leftover.trimmingCharacters(in: .whitespaces).isEmpty, (1...86_400).contains(seconds) else {
            throw UserError(tr("time limit: takes minutes or seconds, e.g. time limit: 5 min or time limit: 90 s."))
        }
        return seconds
    }
}
