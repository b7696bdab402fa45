import Catalog
import Foundation
import Localization

/// A usability test plan written as a scenario file: a setup, then tasks of typed commands and
/// what the screen must show after each.
///
/// The file format is documented in docs/scenarios.md; `ScenarioParser` reads it.
struct Scenario: Sendable, Equatable {
    /// The file it was read from, as given on the command line.
    var file: String
    /// `scenario: NAME`.
    var name: String
    /// The mock library and patron the scenario starts with.
    var setup: Setup
    /// The tasks, in order; they share one session, as a patron's tasks in one sitting do.
    var tasks: [TaskPlan]

    /// `seed:`, `catalog size:`, `date:`, `pace:`, `width:`, `card:`, `pin:`.
    struct Setup: Sendable, Equatable {
        var seed: UInt64 = 1
        var catalogSize = 600
        /// The mock library's clock, which stands still unless a step moves it (`mock clock +2d`).
        var date = Setup.defaultDate
        /// The library's pace (`pace: 3/7`: 3 loans in any 7 days); nil, the mock's default, for none.
        var pace: LoanPace?
        /// The terminal's width in cells; 0 for no limit.
        var width = 100
        /// The language bok speaks in the run: `sv` or `en` (the default, whatever the locale).
        var language = "en"
        /// The card that answers "Library card number:".
        var card: String?
        /// Where the PIN that answers "PIN for card …:" comes from.
        var pin: PINSource?
        /// The line of `pin:`, for errors in finding the PIN.
        var pinLine: Int?
        /// Which of the mock's faces bok talks to: its Elib API (the default) or its OPDS feeds.
        var protocolKind: LibraryConfig.Kind = .elib

        /// 21 November 2026, 10:00 in Stockholm: a Saturday, as in the tests.
        static let defaultDate = ScenarioDate(year: 2026, month: 11, day: 21, hour: 10, minute: 0)
    }

    /// `task: TITLE` and its steps. (Not `Task`, which would hide Swift's own inside this type.)
    struct TaskPlan: Sendable, Equatable {
        var title: String
        /// The line of `task:`.
        var line: Int
        var steps: [Step]
    }

    /// `> COMMAND`, its answers to prompts, and its expectations.
    struct Step: Sendable, Equatable {
        /// The command line as the patron types it.
        var command: String
        /// The line of `>`.
        var line: Int
        /// A card answering this step's "Library card number:" instead of the setup's.
        var card: String?
        /// A PIN answering this step's "PIN for card …:" instead of the setup's.
        var pin: PINSource?
        /// The line of the step's `pin:`.
        var pinLine: Int? = nil
        var expectations: [Expectation]
    }
}

/// A date and time on the mock library's clock, in Europe/Stockholm.
struct ScenarioDate: Sendable, Equatable, CustomStringConvertible {
    var year, month, day, hour, minute: Int

    /// The moment in `timeZone`, or nil for a day that does not exist (30 February).
    func date(in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    var description: String { String(format: "%04d-%02d-%02d %02d:%02d", year, month, day, hour, minute) }
}

/// Where a PIN comes from. A scenario file never holds a PIN itself: files are shared.
enum PINSource: Sendable, Equatable, CustomStringConvertible {
    /// `pin: mock`: the mock library's own PIN for one of its seeded cards (1001–1004).
    case mock
    /// `pin: env NAME`: the value of an environment variable when the scenario runs.
    case environment(String)
    /// `pin: file PATH`: the first line of a file readable only by its owner (mode 600),
    /// relative to the scenario file.
    case file(String)
    /// `pin: wrong`: a PIN that is certainly not the card's, to rehearse a mistyped PIN.
    case wrong
    /// `pin: none`: the patron presses Enter at the PIN prompt.
    case none

    var description: String {
        switch self {
        case .mock: "mock"
        case .environment(let name): "env \(name)"
        case .file(let path): "file \(path)"
        case .wrong: "wrong"
        case .none: "none"
        }
    }
}

/// One thing the screen must (or must not) show after a step.
struct Expectation: Sendable, Equatable {
    /// The line of the file it is on.
    var line: Int
    var kind: Kind

    enum Kind: Sendable, Equatable {
        /// `contains: TEXT`.
        case contains(String)
        /// `not contains: TEXT`.
        case notContains(String)
        /// `line: REGEX`: some line matches.
        case lineMatches(String)
        /// `no line: REGEX`: no line matches.
        case noLineMatches(String)
        /// `in order: A | B | C`: lines containing A, B and C come in this order.
        case inOrder([String])
        /// `count N: REGEX`: how many lines match.
        case count(Comparison, pattern: String)
        /// `results: N`: how many books the last list holds in all.
        case results(Comparison)
        /// `result N FIELD: VALUE`: a field of the n-th book of the last list.
        case result(number: Int, field: ResultField, value: String)
        /// `error: TEXT`: the step printed an error containing TEXT (any error when empty).
        case error(String)
        /// `shelf: TITLE | BADGE`: `shelf` shows TITLE, with BADGE on the same line when given.
        case shelf(title: String, badge: String?)
        /// `not shelf: TITLE`: `shelf` does not show TITLE.
        case notShelf(String)
    }
}

/// `3`, `>=3`, `<=3`, `>3`, `<3`.
struct Comparison: Sendable, Equatable, CustomStringConvertible {
    enum Operator: String, Sendable, CaseIterable {
        case atLeast = ">="
        case atMost = "<="
        case more = ">"
        case fewer = "<"
        case exactly = ""
    }
    var op: Operator
    var value: Int

    func holds(for count: Int) -> Bool {
        switch op {
        case .exactly: count == value
        case .atLeast: count >= value
        case .atMost: count <= value
        case .more: count > value
        case .fewer: count < value
        }
    }

    /// Reads `3`, `>=3`, `≥3`, `<= 3`…
    init?(_ text: String) {
        var rest = Substring(
            text.trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "≥", with: ">=").replacingOccurrences(of: "≤", with: "<="))
        op = .exactly
        for candidate in Operator.allCases where !candidate.rawValue.isEmpty && rest.hasPrefix(candidate.rawValue) {
            op = candidate
            rest = rest.dropFirst(candidate.rawValue.count)
            break
        }
        guard let n = Int(rest.trimmingCharacters(in: .whitespaces)), n >= 0 else { return nil }
        value = n
    }

    /// The comparison in words of the interface language, for a failed expectation: `at least 3`.
    var description: String {
        switch op {
        case .exactly: "\(value)"
        case .atLeast: tr("at least {n}", ["n": value])
        case .atMost: tr("at most {n}", ["n": value])
        case .more: tr("more than {n}", ["n": value])
        case .fewer: tr("fewer than {n}", ["n": value])
        }
    }
}

/// The fields `result N FIELD:` can look at, named as a tester would.
enum ResultField: String, Sendable, CaseIterable {
    case title, author, authors, lastname, year, published, category, categories, publisher, language,
        available, reason, id
}
