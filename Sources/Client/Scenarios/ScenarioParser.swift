import Catalog
import Foundation
import Localization
import MockLending

/// A mistake in a scenario file, at a line.
struct ScenarioIssue: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number; 0 for the file as a whole.
    let line: Int
    let message: String

    var description: String {
        line > 0 ? tr("line {line}: {message}", ["line": line, "message": message]) : message
    }
}

/// Every mistake found in one file, each with its line.
struct ScenarioParseError: Error, CustomStringConvertible {
    let file: String
    let issues: [ScenarioIssue]

    /// One line per issue, `FILE:LINE: message`, as compilers write them.
    var lines: [String] { issues.map { "\(file):\($0.line): \($0.message)" } }
    var description: String { lines.joined(separator: "\n") }
}

/// Reads scenario files (docs/scenarios.md), collecting every mistake rather than the first.
@MainActor
enum ScenarioParser {
    /// Keywords of the setup, before the first `task:`.
    static let setupKeywords = [
        "scenario", "seed", "catalog size", "date", "pace", "width", "language", "card", "pin", "protocol",
    ]
    /// Keywords that answer a step's prompts.
    static let answerKeywords = ["card", "pin"]
    /// Expectation keywords (`result N FIELD` and `count N` take words before the colon).
    static let expectationKeywords = [
        "contains", "not contains", "line", "no line", "in order", "count", "results", "result",
        "error", "shelf", "not shelf",
    ]

    /// Reads the file at `path`.
    /// - Throws: `ScenarioParseError` listing every mistake, or one for a file that cannot be read.
    static func parse(file path: String) throws -> Scenario {
        try parse(text(ofFile: path), file: path)
    }

    /// The text of a file of the scenario format's family (a scenario, a study).
    /// - Throws: `ScenarioParseError` when it cannot be read or is not UTF-8.
    static func text(ofFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioParseError(
                file: path, issues: [ScenarioIssue(line: 0, message: tr("cannot read the file; check the path."))])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioParseError(
                file: path, issues: [ScenarioIssue(line: 0, message: tr("is not UTF-8 text; save it as UTF-8."))])
        }
        return text
    }

    /// Reads scenario text; `file` names it in errors and is where `pin: file` paths start from.
    static func parse(_ text: String, file: String) throws -> Scenario {
        var state = ParseState(file: file)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            state.read(String(raw), line: index + 1)
        }
        state.finish()
        guard state.issues.isEmpty else { throw ScenarioParseError(file: file, issues: state.issues) }
        return state.scenario
    }

    /// `"text"` → `text`, so a value can keep spaces at its ends.
    static func unquote(_ value: String) -> String {
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            return String(value.dropFirst().dropLast())
        }
        return value
    }

    /// `mock`, `env NAME`, `file PATH`, `wrong`, `none`; a PIN written out is refused.
    static func pinSource(_ value: String, answeringStep: Bool) throws -> PINSource {
        let words = value.split(separator: " ", maxSplits: 1).map(String.init)
        let how = tr("Give pin: mock (the mock library's seeded cards), pin: env NAME or pin: file PATH")
        switch words.first?.lowercased() {
        case "mock"? where words.count == 1: return .mock
        case "wrong"? where words.count == 1: return .wrong
        case "none"? where words.count == 1: return .none
        case "env"?:
            guard words.count == 2, words[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw UserError(tr("pin: env needs the name of an environment variable, e.g. pin: env BOK_PIN_1001."))
            }
            // A shared file must not send any secret of the tester's environment (a token, a password).
            guard words[1].hasPrefix("BOK_") else {
                throw UserError(
                    tr(
                        "pin: env reads only variables whose names start with BOK_ (a scenario file is shared), "
                            + "e.g. pin: env BOK_PIN_1001."))
            }
            return .environment(words[1])
        case "file"?:
            guard words.count == 2 else {
                throw UserError(tr("pin: file needs a path, e.g. pin: file secrets/pin-1001 (mode 600)."))
            }
            return .file(unquote(words[1]))
        case nil:
            throw UserError(tr("pin: needs a source. {how}.", ["how": how]))
        default:
            if value.allSatisfy(\.isNumber) {
                throw UserError(tr("a PIN is never written in a scenario file, which is shared. {how}.", ["how": how]))
            }
            if answeringStep {
                throw UserError(
                    tr("unknown PIN source \"{value}\". {how}, wrong or none.", ["value": value, "how": how]))
            }
            throw UserError(tr("unknown PIN source \"{value}\". {how}.", ["value": value, "how": how]))
        }
    }
}

/// The parser's place in the file.
@MainActor
private struct ParseState {
    let file: String
    var scenario: Scenario
    var issues: [ScenarioIssue] = []
    /// Setup keywords already given, with their lines.
    var seen: [String: Int] = [:]
    var sawScenarioLine = false

    init(file: String) {
        self.file = file
        scenario = Scenario(file: file, name: "", setup: Scenario.Setup(), tasks: [])
    }

    mutating func issue(_ line: Int, _ message: String) { issues.append(ScenarioIssue(line: line, message: message)) }

    mutating func read(_ raw: String, line: Int) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") { return }
        if text.hasPrefix(">") {
            step(String(text.dropFirst()).trimmingCharacters(in: .whitespaces), line: line)
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            issue(
                line,
                tr("expected `keyword: value` or `> command`, got \"{text}\". Comments start with #.", ["text": text]))
            return
        }
        let keyword = text[..<colon].split(separator: " ").joined(separator: " ").lowercased()
        let value = ScenarioParser.unquote(text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        if keyword == "task" {
            guard !value.isEmpty else {
                issue(line, tr("task: needs a title, e.g. task: Borrow the top book."))
                return
            }
            scenario.tasks.append(Scenario.TaskPlan(title: value, line: line, steps: []))
            return
        }
        if scenario.tasks.isEmpty {
            setup(keyword, value, line: line)
        } else {
            inTask(keyword, value, line: line)
        }
    }

    mutating func step(_ command: String, line: Int) {
        guard !scenario.tasks.isEmpty else {
            issue(line, tr("a step (> command) comes before any task. Start a task with task: TITLE."))
            return
        }
        guard !command.isEmpty else {
            issue(line, tr("> needs the command the patron types, e.g. > top 4."))
            return
        }
        if command.hasPrefix("#") {
            issue(line, tr("> # … is a comment, not a command; put comments on lines of their own."))
            return
        }
        scenario.tasks[scenario.tasks.count - 1].steps.append(
            Scenario.Step(command: command, line: line, card: nil, pin: nil, expectations: []))
    }

    mutating func setup(_ keyword: String, _ value: String, line: Int) {
        let known = ScenarioParser.setupKeywords + ["catalog"]
        guard known.contains(keyword) else {
            if ScenarioParser.expectationKeywords.contains(where: { keyword == $0 || keyword.hasPrefix($0 + " ") }) {
                issue(
                    line,
                    tr("{keyword}: is an expectation; put it after a > command inside a task.", ["keyword": keyword]))
            } else {
                issue(line, unknownMessage(keyword, among: known))
            }
            return
        }
        let name = keyword == "catalog" ? "catalog size" : keyword
        if let earlier = seen[name] {
            issue(line, tr("{keyword}: is given twice (first on line {line}).", ["keyword": name, "line": earlier]))
        }
        seen[name] = line
        do {
            switch name {
            case "scenario":
                guard !value.isEmpty else {
                    throw UserError(tr("scenario: needs a name, e.g. scenario: Borrow the top book."))
                }
                scenario.name = value
                sawScenarioLine = true
            case "seed":
                guard let seed = UInt64(value) else {
                    throw UserError(tr("seed: takes a whole number, e.g. seed: 1."))
                }
                scenario.setup.seed = seed
            case "catalog size":
                guard let size = Int(value), (1...1_000_000).contains(size) else {
                    throw UserError(tr("catalog size: takes a number from 1 to 1000000, e.g. catalog size: 600."))
                }
                scenario.setup.catalogSize = size
            case "date":
                scenario.setup.date = try Self.date(value)
            case "pace":
                guard let pace = LoanPace(text: value.replacingOccurrences(of: " ", with: "")) else {
                    throw UserError(tr("pace: takes loans/days, e.g. pace: 3/7 for 3 loans in any 7 days."))
                }
                scenario.setup.pace = pace
            case "width":
                guard let width = Int(value), width == 0 || (20...1000).contains(width) else {
                    throw UserError(
                        tr("width: takes the terminal's columns, 20 to 1000, or 0 for no limit, e.g. width: 100."))
                }
                scenario.setup.width = width
            case "language":
                guard let code = LanguageCommand.code(value) else {
                    throw UserError(
                        tr(
                            "language: is {codes}, e.g. language: {code}.",
                            ["codes": LanguageCommand.codes, "code": LanguageCommand.ordered[0]]))
                }
                scenario.setup.language = code
            case "card":
                scenario.setup.card = try PatronCredentials.validCard(value)
            case "pin":
                scenario.setup.pin = try ScenarioParser.pinSource(value, answeringStep: false)
                scenario.setup.pinLine = line
            case "protocol":
                guard let kind = LibraryConfig.Kind(rawValue: value.lowercased()) else {
                    throw UserError(
                        tr("protocol: is {kinds}, e.g. protocol: opds.", ["kinds": LibraryConfig.Kind.inWords]))
                }
                scenario.setup.protocolKind = kind
            default:
                break
            }
        } catch {
            issue(line, ErrorReport.message(for: error))
        }
    }

    mutating func inTask(_ keyword: String, _ value: String, line: Int) {
        let taskIndex = scenario.tasks.count - 1
        guard let stepIndex = scenario.tasks[taskIndex].steps.indices.last else {
            if ScenarioParser.setupKeywords.contains(keyword), !ScenarioParser.answerKeywords.contains(keyword) {
                issue(line, tr("{keyword}: belongs to the setup, before the first task:.", ["keyword": keyword]))
            } else {
                issue(
                    line,
                    tr(
                        "{keyword}: comes before any step of task \"{title}\". Put it after a > command.",
                        ["keyword": keyword, "title": scenario.tasks[taskIndex].title]))
            }
            return
        }
        do {
            switch keyword {
            case "card":
                scenario.tasks[taskIndex].steps[stepIndex].card = try PatronCredentials.validCard(value)
                return
            case "pin":
                scenario.tasks[taskIndex].steps[stepIndex].pin = try ScenarioParser.pinSource(
                    value, answeringStep: true)
                scenario.tasks[taskIndex].steps[stepIndex].pinLine = line
                return
            default:
                let kind = try expectation(keyword, value)
                scenario.tasks[taskIndex].steps[stepIndex].expectations.append(Expectation(line: line, kind: kind))
            }
        } catch {
            issue(line, ErrorReport.message(for: error))
        }
    }

    func expectation(_ keyword: String, _ value: String) throws -> Expectation.Kind {
        let words = keyword.split(separator: " ").map(String.init)
        switch keyword {
        case "contains": return .contains(try nonEmpty(value, keyword, example: "Borrowed"))
        case "not contains": return .notContains(try nonEmpty(value, keyword, example: "Wrong PIN"))
        case "line": return .lineMatches(try pattern(value, keyword))
        case "no line": return .noLineMatches(try pattern(value, keyword))
        case "in order":
            let parts = value.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            guard parts.count >= 2 else {
                throw UserError(
                    tr(
                        "in order: needs two texts or more between |, "
                            + "e.g. in order: Kylan över Smögen | Huset vid havet."))
            }
            return .inOrder(parts)
        case "results":
            guard let comparison = Comparison(value) else {
                throw UserError(tr("results: takes a number of books, e.g. results: 4 or results: >=1."))
            }
            return .results(comparison)
        case "error": return .error(value)
        case "shelf":
            let parts = value.split(separator: "|", omittingEmptySubsequences: false)
            let title = (parts.count > 1 ? parts.dropLast().joined(separator: "|") : value).trimmingCharacters(
                in: .whitespaces)
            let badge = parts.count > 1 ? parts.last!.trimmingCharacters(in: .whitespaces) : nil
            guard !title.isEmpty else {
                throw UserError(tr("shelf: needs a title, e.g. shelf: Fritt fall | 28 days."))
            }
            return .shelf(title: title, badge: badge?.isEmpty == true ? nil : badge)
        case "not shelf": return .notShelf(try nonEmpty(value, keyword, example: "Fritt fall"))
        default:
            break
        }
        if words.first == "count" {
            guard let comparison = Comparison(words.dropFirst().joined(separator: " ")), words.count > 1 else {
                throw UserError(
                    tr("count needs a number before the colon, e.g. count 20: ✓ Available or count >=1: Thriller."))
            }
            return .count(comparison, pattern: try pattern(value, "count"))
        }
        if words.first == "result" {
            guard words.count >= 3, let number = Int(words[1]), number >= 1 else {
                throw UserError(tr("result needs a number and a field, e.g. result 4 published: 2019-03-01."))
            }
            let fieldName = words.dropFirst(2).joined()
            guard let field = ResultField(rawValue: fieldName) else {
                let fields = ResultField.allCases.map(\.rawValue).joined(separator: ", ")
                throw UserError(
                    tr(
                        "result {number} has no field \"{field}\". Fields: {fields}.",
                        ["number": number, "field": words.dropFirst(2).joined(separator: " "), "fields": fields]))
            }
            return .result(number: number, field: field, value: value)
        }
        throw UserError(
            unknownMessage(keyword, among: ScenarioParser.expectationKeywords + ScenarioParser.answerKeywords))
    }

    func nonEmpty(_ value: String, _ keyword: String, example: String) throws -> String {
        guard !value.isEmpty else {
            throw UserError(
                tr(
                    "{keyword}: needs the text to look for, e.g. {keyword}: {example}.",
                    ["keyword": keyword, "example": example]))
        }
        return value
    }

    func pattern(_ value: String, _ keyword: String) throws -> String {
        guard !value.isEmpty else {
            throw UserError(
                tr("{keyword}: needs a regular expression, e.g. {keyword}: ^Borrowed “.+”.", ["keyword": keyword]))
        }
        // Compiled as the check will match it (ICU, bounded: ScreenPattern), so what passes here runs there.
        do {
            _ = try ScreenPattern(value)
        } catch {
            throw UserError(
                tr(
                    "\"{pattern}\" is not a regular expression (check brackets and escapes: "
                        + "\\. for a dot, \\( for a bracket).",
                    ["pattern": value]))
        }
        return value
    }

    func unknownMessage(_ keyword: String, among known: [String]) -> String {
        let best = known.map { ($0, CommandTable.editDistance(keyword, $0)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= 2 {
            return tr(
                "unknown keyword \"{keyword}\". Did you mean \"{suggestion}\"?",
                ["keyword": keyword, "suggestion": best.0])
        }
        return tr("unknown keyword \"{keyword}\". See docs/scenarios.md for the keywords.", ["keyword": keyword])
    }

    static func date(_ value: String) throws -> ScenarioDate {
        let example = tr("date: 2026-11-21 or date: 2026-11-21 10:00 (Stockholm time)")
        guard let match = value.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2}))?/) else {
            throw UserError(tr("date: takes YYYY-MM-DD and an optional HH:MM, e.g. {example}.", ["example": example]))
        }
        let date = ScenarioDate(
            year: Int(match.1)!, month: Int(match.2)!, day: Int(match.3)!,
            hour: match.4.flatMap { Int($0) } ?? 10, minute: match.5.flatMap { Int($0) } ?? 0)
        guard date.hour < 24, date.date(in: MockRules.stockholm) != nil else {
            throw UserError(
                tr(
                    "{value} is not a date on the calendar. Write e.g. {example}.",
                    ["value": value, "example": example]))
        }
        return date
    }

    mutating func finish() {
        if !sawScenarioLine { issue(1, tr("the file has no scenario: line. Start it with scenario: NAME.")) }
        if scenario.tasks.isEmpty {
            issue(max(1, seen.values.max() ?? 1), tr("the file has no tasks. Add task: TITLE and > command lines."))
        }
        for task in scenario.tasks where task.steps.isEmpty {
            issue(
                task.line,
                tr("task \"{title}\" has no steps. Add a line > command under it.", ["title": task.title]))
        }
        checkMockPINs()
    }

    /// `pin: mock` works only for the mock's seeded cards; say so before anything runs.
    mutating func checkMockPINs() {
        func check(card: String?, pin: PINSource?, line: Int?) {
            guard pin == .mock, let line else { return }
            guard let card else {
                issue(
                    line,
                    tr(
                        "pin: mock needs a card: line (one of the mock's cards {cards}).",
                        ["cards": MockLendingServer.seededCards.joined(separator: ", ")]))
                return
            }
            if MockLendingServer.seededPIN(card: card) == nil {
                issue(
                    line,
                    tr(
                        "pin: mock knows only the mock's seeded cards {cards}, not {card}. "
                            + "Use pin: env NAME for another card.",
                        ["cards": MockLendingServer.seededCards.joined(separator: ", "), "card": card]))
            }
        }
        check(card: scenario.setup.card, pin: scenario.setup.pin, line: scenario.setup.pinLine)
        for task in scenario.tasks {
            for step in task.steps {
                check(card: step.card ?? scenario.setup.card, pin: step.pin, line: step.pinLine)
            }
        }
    }
}

extension ScenarioParseError: PatronFacingError {
    var patronMessage: String { description }
}

/// The scenario format's setup lines and expectations, for files of its family (study files,
/// docs/studies.md): the same keywords, checked the same way, with the same messages.
@MainActor
struct ScenarioLineReader {
    private var state: ParseState

    init(file: String) { state = ParseState(file: file) }

    /// The setup read so far.
    var setup: Scenario.Setup { state.scenario.setup }
    /// The mistakes found so far, each with its line.
    var issues: [ScenarioIssue] { state.issues }

    /// Reads a setup line (`seed:`, `date:`, `card:`, `pin:`…) as a scenario's.
    mutating func setup(_ keyword: String, _ value: String, line: Int) { state.setup(keyword, value, line: line) }

    /// Reads an expectation (`shelf: TITLE | BADGE`) as a scenario's step's.
    /// - Throws: `UserError` saying what is wrong with it.
    func expectation(_ keyword: String, _ value: String) throws -> Expectation.Kind {
        try state.expectation(keyword, value)
    }

    /// `pin: mock` without a seeded card is a mistake here as in a scenario.
    mutating func finish() { state.checkMockPINs() }
}
