import Foundation
import Testing

/// `bok scenario …` and `bok --record` as a tester or CI runs them: exit status, output, report files.
@Suite("bok scenario and --record from the shell", .serialized)
struct ScenarioProcessTests {
    let shell = OneShotProcessTests()

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bok-\(UUID().uuidString)-\(name)").path
    }

    @Test("scenario run: a summary, exit 0, and Markdown and JUnit reports")
    func runWritesReports() async throws {
        let scenario = ScenarioTests.root.appendingPathComponent("scenarios/study-2-borrow-top.scenario").path
        let markdown = temporary("report.md")
        let junit = temporary("report.xml")
        defer { for file in [markdown, junit] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await shell.bok(["scenario", "run", scenario, "--report", markdown, "--junit", junit])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("✓ Borrow the book that is number one in the library's top list"))
        #expect(result.stdout.contains("1 scenario, 1 task: 1 passed, 0 failed"))
        let report = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(report.hasPrefix("# Scenario run"))
        #expect(report.contains("PIN for card 1001: ••••"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="bok scenarios" tests="1" failures="0" errors="0""#))
    }

    @Test("scenario run: a failing scenario exits 1 and shows the expected and the actual screen")
    func runFails() async throws {
        let file = temporary("fail.scenario")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "scenario: Must fail\ntask: Top list\n> top 1\ncontains: Fritt fall\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let result = try await shell.bok(["scenario", "run", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("line 4: contains: Fritt fall"))
        #expect(result.stdout.contains("The screen does not contain “Fritt fall”."))
        #expect(result.stdout.contains("│ Top 1 by popularity"))
    }

    @Test("scenario run: a scenario in Swedish (language: sv) is summed up in Swedish, a failure too")
    func runInSwedish() async throws {
        let scenario = ScenarioTests.root.appendingPathComponent("scenarios/studie-2-lana-forsta.scenario").path
        let passed = try await shell.bok(["scenario", "run", scenario], environment: ["LANG": "C.UTF-8"])
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        #expect(passed.stdout.contains("✓ Låna boken som är etta på bibliotekets topplista"), "\(passed.stdout)")
        #expect(passed.stdout.contains("1 scenario, 1 uppgift: 1 gick igenom, 0 misslyckades · "), "\(passed.stdout)")

        let file = temporary("fel.scenario")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "scenario: Ska misslyckas\nlanguage: sv\ntask: Topplistan\n> topp 1\ncontains: Fritt fall\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let failed = try await shell.bok(["scenario", "run", file], environment: ["LANG": "C.UTF-8"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("rad 5: contains: Fritt fall"), "\(failed.stdout)")
        #expect(failed.stdout.contains("Skärmen innehåller inte ”Fritt fall”."), "\(failed.stdout)")
        #expect(failed.stdout.contains("Skärmen efter rad 4, > topp 1:"), "\(failed.stdout)")
        #expect(failed.stdout.contains("1 scenario, 1 uppgift: 0 gick igenom, 1 misslyckades"), "\(failed.stdout)")
    }

    @Test("scenario check: every mistake as FILE:LINE: message on stderr, exit 1; a good file is summed up")
    func check() async throws {
        let file = temporary("bad.scenario")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "scenario: Bad\ncatalog size: lots\ntask: t\n> top\nexpect: x\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let bad = try await shell.bok(["scenario", "check", file])
        #expect(bad.status == 1)
        #expect(
            bad.stderr.split(separator: "\n").map(String.init) == [
                "\(file):2: catalog size: takes a number from 1 to 1000000, e.g. catalog size: 600.",
                "\(file):5: unknown keyword \"expect\". See docs/scenarios.md for the keywords.",
            ])
        let good = try await shell.bok([
            "scenario", "check", ScenarioTests.root.appendingPathComponent("scenarios").path,
        ])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(
            good.stdout.contains(
                "study-1-release-date.scenario: Release date of the fourth book in the top list · 1 task"))
        let usage = try await shell.bok(["scenario", "frobnicate"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("bok: Unknown scenario command \"frobnicate\". Usage: bok scenario run FILE…"))
    }

    @Test("bok --record FILE records piped commands; scenario report sums them up by task")
    func recordAndReport() async throws {
        let recording = temporary("session.jsonl")
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let session = try await shell.bok(
            ["--mock", "--record", recording],
            stdin: "# task: Find top four\ntop 4\nhelp\ninfo 4\n# end\nquit\n")
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("Recording this session in \(recording)"))
        let report = try await shell.bok(["scenario", "report", recording])
        #expect(report.status == 0, "\(report.stderr)")
        let row = try #require(report.stdout.split(separator: "\n").first { $0.hasPrefix("Find top four") })
        #expect(row.hasSuffix("3        0      1"), "\(row)")
        let json = try await shell.bok(["scenario", "report", recording, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["commands"] as? Int == 4)
        #expect(object["help"] as? Int == 1)

        let withCommand = try await shell.bok(["--record", temporary("x.jsonl"), "top"])
        #expect(withCommand.status == 2)
        #expect(withCommand.stderr.contains("--record records an interactive session"))
    }
}
