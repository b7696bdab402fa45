import Foundation
import Terminal
import TestSupport
import Testing

@testable import Client

#if os(Linux)
import Glibc
#endif

/// `bok study run` and `bok study report` as a moderator runs them: piped, at a terminal, and refused.
@Suite("bok study from the shell", .serialized)
struct StudyProcessTests {
    let shell = OneShotProcessTests()

    func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bok-\(UUID().uuidString)-\(name)").path
    }

    static func study(_ name: String) -> String {
        ScenarioTests.root.appendingPathComponent("studies/\(name)").path
    }

    @Test("A Swedish study: klar and ge upp end tasks, the SUS is asked, the report and its charts are in Swedish")
    func swedishStudy() async throws {
        let folder = temporary("resultat")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = ["topp 1", "låna 1", "klar", "ge upp", "serch x", "ge upp"] + Array(repeating: "3", count: 10)
        let run = try await shell.bok(
            ["study", "run", Self.study("lana-och-reservera.study"), "--participant", "P1", "--out", folder],
            stdin: lines.joined(separator: "\n") + "\n", environment: ["LANG": "C.UTF-8"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Uppgift 1 av 3: Låna topplistans etta"), "\(run.stdout)")
        #expect(run.stdout.contains("Uppgift 1: lyckades."))
        #expect(run.stdout.contains("Uppgift 2: gav upp."))
        #expect(run.stdout.contains("1. Jag tror att jag skulle vilja använda det här systemet ofta."))
        #expect(run.stdout.contains("Tack! Det var den sista frågan."))

        let report = folder + "/rapport.md"
        let written = try await shell.bok(
            ["study", "report", folder, "--out", report], environment: ["LANG": "C.UTF-8"])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.hasPrefix("# Studie: Låna och reservera"), "\(text)")
        #expect(text.contains("1 deltagare · 3 uppgifter · medel-SUS 50,0"), "\(text)")
        #expect(text.contains("![Tid på uppgift per uppgift](rapport-time.svg)"))
        #expect(text.contains("| Ställ dig i kö | gav upp |"), "\(text)")
        let chart = try String(contentsOfFile: folder + "/rapport-success.svg", encoding: .utf8)
        #expect(chart.contains("<title>Lyckade per uppgift</title>"))
        #expect(FileManager.default.fileExists(atPath: folder + "/rapport-time.svg"))

        let csv = try await shell.bok(["study", "report", folder, "--format", "csv"])
        #expect(csv.stdout.hasPrefix("participant,task,outcome,seconds"), "\(csv.stdout)")
        #expect(csv.stdout.contains("P1,Låna topplistans etta,success,"))
        let json = try await shell.bok(["study", "report", folder, "--format", "json"])
        #expect(json.stdout.contains(#""meanSUS":50"#), "\(json.stdout)")
    }

    @Test("Refused: a participant code that is no file name, a sitting recorded already, a study with mistakes")
    func refusals() async throws {
        let folder = temporary("results")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = Self.study("borrow-and-read.study")
        let bad = try await shell.bok(["study", "run", file, "--participant", "../P1", "--out", folder])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--participant takes letters, digits, - and _"), "\(bad.stderr)")

        let first = try await shell.bok(["study", "run", file, "--participant", "P1", "--out", folder], stdin: "")
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await shell.bok(["study", "run", file, "--participant", "P1", "--out", folder], stdin: "")
        #expect(again.status == 1)
        #expect(
            again.stderr.contains("P1.jsonl already exists; bok will not overwrite a recording."), "\(again.stderr)")

        let broken = temporary("broken.study")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        try "study: Broken\ntask: One\ninstruction: Do it\nsuccess: contains: Borrowed\n".write(
            toFile: broken, atomically: true, encoding: .utf8)
        let mistakes = try await shell.bok(["study", "run", broken, "--participant", "P2", "--out", folder])
        #expect(mistakes.status == 2)
        #expect(mistakes.stderr.contains("\(broken):4: success: takes shelf: TITLE | BADGE"), "\(mistakes.stderr)")

        let empty = try await shell.bok(["study", "report", temporary("none")])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("There is no folder"), "\(empty.stderr)")
    }
}

#if os(Linux)
@Suite(
    "A study at a terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct StudyTerminalTests {
    @Test("Without card: and pin: the participant types them; the PIN never reaches the recording")
    func participantTypesThePIN() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let study = home.appendingPathComponent("top.study")
        try """
        study: Top book
        task: Borrow the top book
        instruction: Borrow the book that is number one on the library's top list.
        success: shelf: Everything You Need to Know About the Brain | 28 days
        """.write(to: study, atomically: true, encoding: .utf8)
        let out = home.appendingPathComponent("results")
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let environment = BokProcess.environment(
            home: home, ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"])
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path,
                arguments: ["study", "run", study.path, "--participant", "P9", "--out", out.path],
                environment: environment, terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        tty.type("top 1\r")
        _ = await tty.read(until: { $0.contains("Everything You Need") && $0.hasSuffix("> ") })
        tty.type("borrow 1\r")
        _ = await tty.read(until: { $0.hasSuffix("number: ") })
        tty.type("1001\r")
        _ = await tty.read(until: { $0.hasSuffix("PIN for card 1001: ") })
        try await Task.sleep(for: .milliseconds(300))
        tty.type("1234\r")
        _ = await tty.read(until: { $0.contains("Borrowed") && $0.hasSuffix("> ") })
        tty.type("done\r")
        for _ in 0..<10 {
            _ = await tty.read(until: { $0.hasSuffix("(agree): ") })
            tty.type("4\r")
        }
        #expect(await bok.waitForExit(seconds: 10))
        let text = try String(contentsOf: out.appendingPathComponent("P9.jsonl"), encoding: .utf8)
        #expect(text.contains(#""outcome":"success""#), "\(text)")
        #expect(text.contains("PIN for card 1001: ••••"))
        #expect(!text.contains("1234"))
        #expect(text.contains(#""sus":[4,4,4,4,4,4,4,4,4,4]"#))
    }
}
#endif
