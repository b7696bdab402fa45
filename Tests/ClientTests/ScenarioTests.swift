import Foundation
import Localization
import TestSupport
import Testing

@testable import Client

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

    @Test(
        "Against a plain Elib library (--plain-elib) each shipped file stops where the library lacks a thing, in words",
        arguments: ScenarioTests.shipped)
    func shippedScenarioAgainstPlainElib(_ file: String) async throws {
        var runner = ScenarioRunner(environment: [:])
        runner.plainElib = true
        let result = await runner.run(try ScenarioParser.parse(file: file))
        let summary = ScenarioReport.lines(for: result, theme: .plain).joined(separator: "\n")
        let name = URL(fileURLWithPath: file).lastPathComponent
        #expect(result.setupError == nil, "\(summary)")
        // Every shipped file finds its books with search or the top list, which a plain library lacks.
        #expect(!result.passed, "\(name) passes against a plain library")
        for error in result.tasks.flatMap(\.steps).flatMap(\.errors) {
            for vague in ["Something went wrong", "could not find what bok asked for", "Resource not found", "removed"]
            {
                #expect(!error.contains(vague), "\(name): \(error)")
            }
        }
        let said = [
            "no catalogue search", "does not take reservations", "cannot check a card", "ingen katalogsökning",
            "tar inte emot", "kan inte kontrollera",
        ]
        let first = try #require(result.tasks.compactMap(\.firstFailure).first, "\(summary)")
        #expect(
            first.step.screen.contains { line in said.contains { line.contains($0) } },
            "\(name): the first failure does not say what the library lacks: \(summary)")
    }

    @Test("In a scenario, mock clock counts days from the scenario's date, not from the day it runs")
    func mockClockCountsFromTheScenariosDate() async throws {
        let result = try await run(
            """
            scenario: Four weeks on
            seed: 1
            date: 2026-11-21 10:00
            task: Move the clock
            > mock clock +4w
            contains: Saturday 19 December 2026, 10:00 (28 days from today)
            > mock clock tomorrow
            contains: Sunday 22 November 2026
            """)
        #expect(result.passed, "\(ScenarioReport.lines(for: result, theme: .plain).joined(separator: "\n"))")
    }

    @Test("A plain Elib library lends: borrow by product id, the shelf syncs its loans, the book opens")
    func plainElibLends() async throws {
        var runner = ScenarioRunner(environment: [:])
        runner.plainElib = true
        let scenario = try ScenarioParser.parse(
            """
            scenario: Borrow from a plain library
            seed: 1
            date: 2026-11-21 10:00
            card: 1001
            pin: mock
            task: Borrow the top book by its product id and open it
            > borrow id:3575457
            contains: Borrowed “Everything You Need to Know About the Brain”.
            shelf: Everything You Need to Know About the Brain | 28 days
            > notes 1
            contains: # Everything You Need to Know About the Brain
            > reservations
            error: does not take reservations
            """, file: "plain.scenario")
        let result = await runner.run(scenario)
        #expect(result.passed, "\(ScenarioReport.lines(for: result, theme: .plain).joined(separator: "\n"))")
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

    @Test("A pattern that backtracks without end fails its step in one line, and the next task runs (issue 27)")
    func patternWithoutEnd() async throws {
        // (a|a)*b tries 2^n ways through n a's before it gives up: 400 would never end.
        let long = String(repeating: "a", count: 400)
        let started = ContinuousClock.now
        let result = try await run(
            """
            scenario: Patterns from a downloaded file
            width: 0
            task: line
            > \(long)
            error: Unknown command
            line: (a|a)*b
            task: no line
            > \(long)
            error: Unknown command
            no line: (a|a)*b
            task: count
            > \(long)
            error: Unknown command
            count 0: (a|a)*b
            task: The next task still runs
            > \(long)
            error: Unknown command
            line: ^Unknown command "a{400}"
            """)
        let elapsed = started.duration(to: .now)
        #expect(elapsed < .seconds(5), "\(elapsed)")
        #expect(result.tasks.map(\.passed) == [false, false, false, true])
        for task in result.tasks.prefix(3) {
            let failure = try #require(task.firstFailure?.failure)
            #expect(failure.line == 6 || failure.line == 10 || failure.line == 14)
            #expect(
                failure.message.hasPrefix("The pattern /(a|a)*b/ took too long on the line “Unknown command \"aaa"),
                "\(failure.message)")
            #expect(failure.message.hasSuffix("”; simplify it."), "\(failure.message)")
            #expect(!failure.message.contains("\n") && failure.message.count < 200, "\(failure.message)")
        }
        let summary = ScenarioReport(results: [result]).summary(theme: .plain).joined(separator: "\n")
        #expect(summary.contains("1 passed, 3 failed"), "\(summary)")
    }

    @Test("A pattern whose backtracking outgrows its memory bound is stopped too; plain ones match as before")
    func patternMemoryBound() throws {
        let started = ContinuousClock.now
        let pattern = try ScreenPattern("(a|b)*c")
        #expect(pattern.outcome(in: String(repeating: "a", count: 400_000)) == .tooDeep)
        #expect(started.duration(to: .now) < .seconds(2))
        #expect(pattern.outcome(in: "aabc") == .match && pattern.outcome(in: "") == .noMatch)
        #expect(try ScreenPattern("^$").outcome(in: "") == .match)
        #expect(try ScreenPattern("— 28 days\\.$").outcome(in: "Borrowed. Due Saturday — 28 days.") == .match)
        #expect(throws: ScreenPattern.Invalid.self) { try ScreenPattern("(unclosed") }
    }

    @Test("A result glob with many stars is answered at once: no regular expression is built from it")
    func globWithManyStars() {
        let started = ContinuousClock.now
        let stars = String(repeating: "*a", count: 14) + "*z"
        #expect(!ScreenCheck.glob(stars, matches: String(repeating: "a", count: 60)))
        #expect(!ScreenCheck.glob(String(repeating: "*", count: 12) + "z", matches: String(repeating: "y", count: 500)))
        #expect(started.duration(to: .now) < .milliseconds(100))
        // What it always meant: the whole value, ignoring case, * for any text (none too).
        #expect(ScreenCheck.glob("Å*", matches: "Åsa Berg"))
        #expect(
            ScreenCheck.glob("*fall", matches: "Fritt fall") && ScreenCheck.glob("fritt*fall", matches: "Fritt fall"))
        #expect(ScreenCheck.glob("**", matches: "") && ScreenCheck.glob("a*b*c", matches: "abc"))
        #expect(!ScreenCheck.glob("fritt", matches: "Fritt fall") && !ScreenCheck.glob("*fritt", matches: "Fritt fall"))
        #expect(
            ScreenCheck.glob("2019-03-01", matches: "2019-03-01")
                && !ScreenCheck.glob("2019.03.01", matches: "2019-03-01"))
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

    /// A folder with a scenario file and a mode-600 PIN file `pin-1004` beside it.
    static func folderWithPIN() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-sc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pin = folder.appendingPathComponent("pin-1004")
        try "4567\n".write(to: pin, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pin.path)
        return folder
    }

    func run(file text: String, in folder: URL, pinFiles: [String] = []) async throws -> ScenarioResult {
        let file = folder.appendingPathComponent("t.scenario").path
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        var runner = ScenarioRunner(environment: [:])
        runner.pinFiles = pinFiles
        return await runner.run(try ScenarioParser.parse(file: file))
    }

    @Test("pin: env reads only BOK_ variables: a shared file cannot send another secret of the tester's")
    func pinFromOtherVariables() throws {
        let error = try #require(throws: ScenarioParseError.self) {
            try ScenarioParser.parse("scenario: x\ncard: 1004\npin: env AWS_SECRET\ntask: t\n> whoami\n", file: "x")
        }
        #expect(error.issues.first?.line == 3)
        #expect(error.issues.first?.message.contains("only variables whose names start with BOK_") == true)
    }

    @Test("pin: file reads a file beside the scenario or one the tester named, and no other")
    func pinFromFiles() async throws {
        let folder = try Self.folderWithPIN()
        let elsewhere = try Self.folderWithPIN()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: elsewhere)
        }
        let beside = try await run(
            file: "scenario: f\ncard: 1004\npin: file pin-1004\ntask: t\n> whoami\ncontains: Måns Ängström\n",
            in: folder)
        #expect(beside.passed, "\(ScenarioReport.lines(for: beside, theme: .plain))")

        let other = elsewhere.appendingPathComponent("pin-1004").path
        let text = "scenario: f\ncard: 1004\npin: file \(other)\ntask: t\n> whoami\ncontains: Måns Ängström\n"
        let refused = try await run(file: text, in: folder)
        #expect(!refused.passed && refused.tasks.isEmpty)
        #expect(refused.setupError?.contains("reads secrets only from files beside it") == true, "\(refused)")
        // A link beside the scenario to a file elsewhere is the file elsewhere.
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link").path, withDestinationPath: other)
        let linked = try await run(
            file: "scenario: f\ncard: 1004\npin: file link\ntask: t\n> whoami\n", in: folder)
        #expect(linked.setupError?.contains("reads secrets only from files beside it") == true, "\(linked)")

        let named = try await run(file: text, in: folder, pinFiles: [other])
        #expect(named.passed, "\(ScenarioReport.lines(for: named, theme: .plain))")

        // A step's own --pin-file follows the same rule.
        let step = try await run(
            file: "scenario: f\ntask: t\n> login --card 1004 --pin-file \(other)\nerror: reads secrets only\n",
            in: folder)
        #expect(step.passed, "\(ScenarioReport.lines(for: step, theme: .plain))")
    }

    @Test("A scenario cannot add, use or remove a library, so its PIN goes nowhere but the run's own mock")
    func staysOnItsLibrary() async throws {
        let server = try HostileServer.start { _ in HostileServer.answer(200, json: "{}") }
        defer { server.stop() }
        let result = try await run(
            """
            scenario: elsewhere
            card: 1004
            pin: mock
            task: t
            > library add evil \(server.baseURL.absoluteString)
            error: library add is not allowed in a scenario file
            > library use evil
            error: library use is not allowed
            > library remove mock
            error: library remove is not allowed
            > login --card 1004 --pin-stdin
            error: --pin-stdin is not allowed in a scenario file
            > login
            contains: Måns Ängström
            """)
        #expect(result.passed, "\(ScenarioReport.lines(for: result, theme: .plain))")
        #expect(server.requests.isEmpty, "the other server was asked \(server.requests.map(\.target))")
    }

    @Test("A file a step writes stays inside the run's own folder")
    func outputStaysInside() async throws {
        let folder = try Self.folderWithPIN()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("pin-1004").path
        let book = try ReadAloudTests.book(ReadAloudTests.english, language: "en", in: folder).path
        let result = try await run(
            file: """
                scenario: write
                task: t
                > read \(book) --aloud --to \(target) --force
                error: files are written in the run's own folder
                > read \(book) --aloud --to ../x.wav
                error: files are written in the run's own folder
                """, in: folder)
        #expect(result.passed, "\(ScenarioReport.lines(for: result, theme: .plain))")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "4567\n")
    }
}
