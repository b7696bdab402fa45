@testable import Client
import Foundation
import Localization
import Testing

/// Scenario files: the shipped ones pass, a wrong one fails usefully, mistakes have line numbers,
/// and no PIN reaches a report.
@Suite("Scenario files", .serialized)
@MainActor
struct ScenarioTests {
    nonisolated static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped scenarios, in name order.
    nonisolated static var shipped: [String] {
        let folder = root.appendingPathComponent("scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// A standalone PIN of the mock's patrons, anywhere in `text`.
    nonisolated static func containsMockPIN(_ text: String) -> Bool {
        ["1234", "2345", "3456", "4567"].contains {
            text.range(of: "(?<![0-9])\($0)(?![0-9])", options: .regularExpression) != nil
        }
    }

    func run(_ text: String, environment: [String: String] = [:]) async throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(text, file: "inline.scenario")
        return await ScenarioRunner(environment: environment).run(scenario)
    }

    @Test("The study's five tasks and the other shipped scenarios are there")
    func shippedFiles() {
        let names = Self.shipped.map { URL(fileURLWithPath: $0).lastPathComponent }
        for study in 1...5 { #expect(names.contains { $0.hasPrefix("study-\(study)-") }, "\(names)") }
        for own in ["sample", "read-loan", "loan-runs-out", "reservation-due"] {
            #expect(names.contains("\(own).scenario"))
        }
    }

    @Test("Every shipped scenario passes against the seeded mock, and writes no PIN", arguments: ScenarioTests.shipped)
    func shippedScenarioPasses(_ file: String) async throws {
        let source = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!Self.containsMockPIN(source), "a PIN is written in \(file)")
        let result = await ScenarioRunner(environment: [:]).run(try ScenarioParser.parse(file: file))
        let summary = ScenarioReport.lines(for: result, theme: .plain).joined(separator: "\n")
        #expect(result.passed, "\(summary)")
        #expect(!result.tasks.isEmpty)
        let report = ScenarioReport(results: [result])
        for text in [report.markdown(), report.junit(), JSONOutput.encode(report.json)] {
            #expect(!Self.containsMockPIN(text), "a PIN in the report of \(file)")
        }
    }

    @Test(
        "Every shipped scenario passes over the mock's OPDS face too (scenario run --protocol opds)",
        arguments: ScenarioTests.shipped)
    func shippedScenarioPassesOverOPDS(_ file: String) async throws {
        var runner = ScenarioRunner(environment: [:])
        runner.protocolKind = .opds
        let result = await runner.run(try ScenarioParser.parse(file: file))
        let summary = ScenarioReport.lines(for: result, theme: .plain).joined(separator: "\n")
        #expect(result.passed, "\(summary)")
        #expect(!result.tasks.isEmpty)
    }

    @Test("A wrong expectation fails, naming its line, what was expected and what the screen showed")
    func wrongExpectationFails() async throws {
        let result = try await run(
            """
            scenario: Must fail
            card: 1001
            pin: mock
            task: Borrow the second book of the top list
            > top 2
            > borrow 2
            contains: Borrowed “Fritt fall”
            > loans
            task: Still runs after a failed task
            > top 1
            contains: Top 1 by popularity
            """)
        #expect(!result.passed)
        #expect(result.tasks.map(\.passed) == [false, true])
        let (step, failure) = try #require(result.tasks[0].firstFailure)
        #expect(failure.line == 7)
        #expect(failure.expected == "contains: Borrowed “Fritt fall”")
        #expect(failure.message == "The screen does not contain “Borrowed “Fritt fall””.")
        #expect(
            step.screen.contains { $0.hasPrefix("Cannot borrow “Fritt fall” now: all 3 copies on loan") },
            "\(step.screen)")
        // The error was not expected either, and the rest of the task did not run.
        #expect(step.failures.count == 2)
        #expect(result.tasks[0].notRun == ["> loans"])

        let summary = ScenarioReport(results: [result]).summary(theme: .plain).joined(separator: "\n")
        #expect(summary.contains("line 7: contains: Borrowed “Fritt fall”"))
        #expect(summary.contains("│ Cannot borrow “Fritt fall” now"))
        #expect(summary.contains("1 passed, 1 failed"))
        #expect(summary.contains("PIN for card 1001: ••••"))
        let junit = ScenarioReport(results: [result]).junit()
        #expect(
            junit.contains(#"<failure message="line 7: contains: Borrowed “Fritt fall” — The screen does not contain"#))
    }

    @Test(
        "Each kind of expectation reports what it found instead",
        arguments: [
            ("results: 3", "The last list holds 2 books; expected 3."),
            ("result 1 lastname: Å*", "Result 1’s lastname is “Walker”, expected “Å*”."),
            ("count >=3: Available", "1 line matches /Available/; expected at least 3."),
            ("no line: ^Top", "A line matches /^Top/: Top 2 by popularity"),
            (
                "in order: Fritt fall | Everything You Need",
                "“Everything You Need” is not on a line after “Fritt fall”."
            ),
            ("error: Wrong PIN", "The command printed no error."),
            (
                "not contains: Fritt fall",
                """
                The screen contains “Fritt fall”, on the line:  2  ✗ all 3 copies on loan, 61 waiting · ~19 \
                months · Fritt fall
                """
            ),
        ])
    func expectationMessages(_ expectation: String, _ message: String) async throws {
        let result = try await run("scenario: x\ntask: t\n> top 2\n\(expectation)\n")
        #expect(result.tasks.first?.firstFailure?.failure.message == message)
    }

    @Test("A shelf expectation finds the book's line and its badge, and leaves the last list alone")
    func shelfExpectation() async throws {
        let result = try await run(
            """
            scenario: Shelf
            card: 1001
            pin: mock
            task: t
            > top 2
            > borrow 1
            shelf: Everything You Need to Know About the Brain | 3 days
            """)
        let failure = try #require(result.tasks.first?.firstFailure?.failure)
        #expect(
            failure.message
                == "The shelf shows “Everything You Need to Know About the Brain” without “3 days” on its line.")
        #expect(
            failure.shown?.contains {
                $0.contains("Everything You Need to Know About the Brain") && $0.contains("28 days")
            } == true)

        let kept = try await run(
            """
            scenario: Shelf keeps the list
            card: 1001
            pin: mock
            task: t
            > top 2
            > borrow 1
            shelf: Everything You Need to Know About the Brain | 28 days
            > info 2
            contains: Fritt fall
            """)
        #expect(kept.passed, "\(ScenarioReport.lines(for: kept, theme: .plain))")
    }

    @Test("check lists every mistake with its line number")
    func checkMistakes() throws {
        let text = """
            # a comment
            scenario: Mistakes
            seed: many
            pin: 1234
            card: 1001
            task: First
            contains: too early
            > top 4
            contain: typo
            result 4 colour: red
            line: (unclosed
            count lots: x
            > borrow 1
            pin: sometimes
            task: Empty
            """
        let error = try #require(throws: ScenarioParseError.self) {
            try ScenarioParser.parse(text, file: "bad.scenario")
        }
        #expect(error.issues.map(\.line) == [3, 4, 7, 9, 10, 11, 12, 14, 15])
        #expect(error.lines[0] == "bad.scenario:3: seed: takes a whole number, e.g. seed: 1.")
        #expect(error.issues[1].message.hasPrefix("a PIN is never written in a scenario file"))
        #expect(error.issues[3].message == "unknown keyword \"contain\". Did you mean \"contains\"?")
        #expect(error.issues[8].message.contains("has no steps"))
    }

    @Test("In Swedish, a scenario file's mistakes are told in Swedish; its keywords stay as written")
    func mistakesInSwedish() throws {
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let error = try #require(throws: ScenarioParseError.self) {
            try ScenarioParser.parse("scenario: x\nseed: många\ntask: t\n> topp 4\ncontain: typo\n", file: "s.scenario")
        }
        #expect(error.lines[0] == "s.scenario:2: seed: tar ett heltal, t.ex. seed: 1.")
        #expect(error.issues[1].message == "okänt nyckelord ”contain”. Menade du ”contains”?")
        #expect(error.issues[1].description == "rad 5: okänt nyckelord ”contain”. Menade du ”contains”?")
    }

    @Test("A file without a name or tasks, and pin: mock for a card the mock does not have")
    func missingParts() throws {
        let empty = try #require(throws: ScenarioParseError.self) {
            try ScenarioParser.parse("# nothing\n", file: "e.scenario")
        }
        #expect(empty.issues.map(\.message).contains("the file has no scenario: line. Start it with scenario: NAME."))
        #expect(empty.issues.map(\.message).contains("the file has no tasks. Add task: TITLE and > command lines."))
        let card = try #require(throws: ScenarioParseError.self) {
            try ScenarioParser.parse("scenario: x\ncard: 5555\npin: mock\ntask: t\n> top\n", file: "c.scenario")
        }
        #expect(card.issues.first?.line == 3)
        #expect(card.issues.first?.message.contains("1001, 1002, 1003, 1004") == true)
    }

    @Test("pin: env reads the variable; unset, the step says which variable to set")
    func pinFromEnvironment() async throws {
        let text = "scenario: env\ncard: 1004\npin: env BOK_TEST_PIN\ntask: t\n> whoami\ncontains: Måns Ängström\n"
        let good = try await run(text, environment: ["BOK_TEST_PIN": "4567"])
        #expect(good.passed, "\(ScenarioReport.lines(for: good, theme: .plain))")
        let unset = try await run(text)
        #expect(!unset.passed)
        #expect(unset.tasks.isEmpty)
        let error = try #require(unset.setupError)
        #expect(error.hasPrefix("line 3: pin: env BOK_TEST_PIN, but BOK_TEST_PIN is not set."), "\(error)")
        let summary = ScenarioReport(results: [unset]).summary(theme: .plain).joined(separator: "\n")
        #expect(summary.contains("1 scenario, 1 task: 0 passed, 1 failed"))
        #expect(ScenarioReport(results: [unset]).junit().contains(#"<testcase name="setup""#))
    }

    @Test("pin: wrong answers with a PIN that is not the card's, and it is not shown")
    func wrongPIN() async throws {
        let result = try await run(
            """
            scenario: wrong
            card: 1001
            pin: mock
            task: t
            > login
            pin: wrong
            error: Wrong PIN
            > login
            contains: Welcome, Astrid Lindqvist
            """)
        #expect(result.passed, "\(ScenarioReport.lines(for: result, theme: .plain))")
        let screens = result.tasks.flatMap(\.steps).flatMap(\.screen).joined(separator: "\n")
        #expect(!screens.contains("0000"))
        #expect(!Self.containsMockPIN(screens))
    }
}
