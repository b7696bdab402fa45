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

    /// A folder for the study's socket (`XDG_RUNTIME_DIR`), mode 700, inside `root`.
    static func runtimeFolder(in root: String) throws -> String {
        let runtime = root + "/run"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return runtime
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

    @Test("One study over the mock's Elib face and its OPDS face, side by side: success and time, with the difference")
    func compareTwoRuns() async throws {
        let root = temporary("runs")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let runtime = try Self.runtimeFolder(in: root)
        let file = Self.study("borrow-and-read.study")
        let all =
            ["top 1", "borrow 1", "done", "search huset vid havet", "borrow 1", "done"]
            + ["search fritt fall", "reserve 1", "done"] + Array(repeating: "4", count: 10)
        let none = ["give up", "give up", "give up"] + Array(repeating: "3", count: 10)
        let first =
            ["top 1", "borrow 1", "done", "give up", "give up"]
            + Array(repeating: ["5", "1"], count: 5).flatMap(\.self)
        for (folder, kind, participants) in [("elib", [], [all, none]), ("opds", ["--kind", "opds"], [all, first])] {
            for (index, lines) in participants.enumerated() {
                let run = try await shell.bok(
                    ["study", "run", file, "--participant", "P\(index + 1)", "--out", root + "/" + folder] + kind,
                    stdin: lines.joined(separator: "\n") + "\n", environment: ["XDG_RUNTIME_DIR": runtime])
                #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            }
        }
        // The OPDS run's successes were checked on the shelf bok read over OPDS.
        let recording = try String(contentsOfFile: root + "/opds/P1.jsonl", encoding: .utf8)
        #expect(recording.contains(#""library":"Malmö stadsbibliotek (simulerat) · OPDS""#), "\(recording)")
        #expect(recording.components(separatedBy: #""outcome":"success""#).count == 4)

        let report = root + "/compare.md"
        let markdown = try await shell.bok(["study", "report", root + "/elib", root + "/opds", "--out", report])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("- **A**: elib (`\(root)/elib`) · 2 participants · mean SUS 50.0"), "\(text)")
        #expect(text.contains("- **B**: opds (`\(root)/opds`) · 2 participants · mean SUS 75.0"), "\(text)")
        #expect(text.contains("SUS difference: +25.0."))
        #expect(
            text.contains(
                "| Task | Success A | Success B | Difference | Time on task A | Time on task B | Difference |"))
        #expect(
            text.contains(
                try Regex(
                    #"\| Borrow the top book \| 1/2 \(50 %\) \| 2/2 \(100 %\) \| \+50 points \| "#
                        + #"\d+ s \| \d+ s \| [±+−]\d+ s \|"#)),
            "\(text)")
        #expect(text.contains("| Join a queue | 1/2 (50 %) | 1/2 (50 %) | ±0 points |"), "\(text)")
        #expect(text.contains("![Success per task](compare-success.svg)"))
        let chart = try String(contentsOfFile: root + "/compare-success.svg", encoding: .utf8)
        #expect(chart.contains(">A: elib</text>") && chart.contains(">B: opds</text>"), "\(chart)")
        #expect(chart.contains(">2/2 (100 %)</text>"))

        let csv = try await shell.bok(["study", "report", root + "/elib", root + "/opds", "--format", "csv"])
        #expect(csv.stdout.hasPrefix("task,a_attempts,a_successes,a_success_rate,a_median_seconds,b_attempts,"))
        #expect(
            csv.stdout.contains(
                try Regex(#"Borrow the top book,2,1,0\.500,[\d.]+,2,2,1\.000,[\d.]+,0\.500,-?[\d.]+\r\n"#)))
        let json = try await shell.bok(["study", "report", root + "/elib", root + "/opds", "--format", "json"])
        #expect(json.stdout.contains(#""label":"opds""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""successRateDifference":0.5"#), "\(json.stdout)")

        let missing = try await shell.bok(["study", "report", root + "/elib", root + "/none"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("There is no folder \(root)/none."), "\(missing.stderr)")
    }

    @Test("A study on a library named by URL: the mock server over OPDS, success checked there")
    func libraryByURL() async throws {
        let root = temporary("url")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let runtime = try Self.runtimeFolder(in: root)
        let (server, base, _) = try MockServerProcessTests.startMockServer()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let opds = base.replacingOccurrences(of: "/library/v3.0/", with: "/opds/")
        let lines = ["give up", "login", "search huset vid havet", "borrow 1", "done", "give up"]
        let run = try await shell.bok(
            [
                "study", "run", Self.study("borrow-and-read.study"), "--participant", "P1", "--out", root + "/r",
                "--library", opds, "--kind", "opds",
            ], stdin: lines.joined(separator: "\n") + "\n", environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Logged in to 127.0.0.1:"), "\(run.stdout)")
        #expect(run.stdout.contains("Task 2: success."), "\(run.stdout)")
        let recording = try String(contentsOfFile: root + "/r/P1.jsonl", encoding: .utf8)
        #expect(!recording.contains("Malmö stadsbibliotek (simulerat) · OPDS\",\"participant"), "not the built-in mock")
        #expect(!recording.contains("1234"))
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

        let unknown = try await shell.bok(["study", "frobnicate"])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.hasPrefix("bok: Unknown study command \"frobnicate\". Usage: bok study run"),
            "\(unknown.stderr)")
        let extra = try await shell.bok(["study", "watch", "now"])
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("Unexpected argument 'now'."), "\(extra.stderr)")
        let blank = try await shell.bok(["study", "note", " "])
        #expect(blank.status == 2)
        #expect(blank.stderr.contains("Give the note to add, e.g. bok study note \"hesitated at PIN\"."))

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
    /// The participant borrows the first book of the list, typing card 1001 and PIN 1234 when asked.
    static func borrowTyping(_ tty: PseudoTerminal) async throws {
        tty.type("borrow 1\r")
        _ = await tty.read(until: { $0.hasSuffix("number: ") })
        tty.type("1001\r")
        _ = await tty.read(until: { $0.hasSuffix("PIN for card 1001: ") })
        try await Task.sleep(for: .milliseconds(300))
        tty.type("1234\r")
        _ = await tty.read(until: { $0.contains("Borrowed") && $0.hasSuffix("> ") })
    }

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
        try await Self.borrowTyping(tty)
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

#if os(Linux)
/// `bok study note` and `bok study watch` in a moderator's second terminal while a participant sits
/// the study at a terminal of their own.
@Suite(
    "A study noted and watched from a second terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct StudyLiveTests {
    static let study = """
        study: Top and queue
        language: en
        task: Borrow the top book
        instruction: Borrow the book that is number one on the library's top list.
        success: shelf: Everything You Need to Know About the Brain | 28 days
        task: Join a queue
        instruction: “Fritt fall” is out on loan. Make sure you get it when it comes back.
        success: shelf: Fritt fall | in queue
        """

    @Test("A sitting that was killed leaves its socket: no study answers there, and the next sitting takes it")
    func staleSocket() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let runtime = try StudyProcessTests.runtimeFolder(in: home.path)
        let live = ["XDG_RUNTIME_DIR": runtime]
        let file = home.appendingPathComponent("top.study")
        try Self.study.write(to: file, atomically: true, encoding: .utf8)
        let environment = BokProcess.environment(
            home: home,
            ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"].merging(live) { $1 })
        for (index, name) in ["P1", "P2"].enumerated() {
            let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
            let sitting = try #require(
                ChildProcess(
                    OneShotProcessTests.binary.path,
                    arguments: ["study", "run", file.path, "--participant", name, "--out", home.path + "/r"],
                    environment: environment, terminal: tty.device))
            defer { if sitting.isRunning { kill(sitting.pid, SIGKILL) } }
            let shown = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
            #expect(!shown.contains("Another study is running"), "\(shown)")
            let noted = try await BokProcess.run(["study", "note", "here"], home: home, environment: live)
            #expect(noted.output.contains("Noted for \(name), task “Borrow the top book”."), "\(noted.output)")
            if index == 0 {
                kill(sitting.pid, SIGKILL)
                #expect(await sitting.waitForExit(seconds: 10))
                #expect(FileManager.default.fileExists(atPath: runtime + "/bok/study.sock"))
                let gone = try await BokProcess.run(["study", "note", "late"], home: home, environment: live)
                #expect(gone.status == 1)
                #expect(gone.output.contains("No study is running for you on this machine."), "\(gone.output)")
            }
        }
    }

    @Test("Notes land on the task under way and in the report; watchers see the masked screen, late or live")
    func noteAndWatch() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        let live = ["XDG_RUNTIME_DIR": runtime.path]
        func bok(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            try await BokProcess.run(arguments, home: home, environment: live)
        }

        let nobody = try await bok(["study", "note", "too early"])
        #expect(nobody.status == 1)
        #expect(nobody.output.contains("No study is running for you on this machine."), "\(nobody.output)")

        let file = home.appendingPathComponent("top.study")
        try Self.study.write(to: file, atomically: true, encoding: .utf8)
        let out = home.appendingPathComponent("results")
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let environment = BokProcess.environment(
            home: home,
            ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no"].merging(live) { $1 })
        let participant = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path,
                arguments: ["study", "run", file.path, "--participant", "P4", "--out", out.path],
                environment: environment, terminal: tty.device))
        defer { if participant.isRunning { kill(participant.pid, SIGKILL) } }
        _ = await tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)

        // A watcher from the start, stopped with Ctrl-C: it goes, the study goes on.
        let first = try BokProcess.start(["study", "watch"], home: home, environment: live)
        let noted = try await bok(["study", "note", "hesitated at the top list"])
        #expect(noted.status == 0, "\(noted.output)")
        #expect(noted.output.contains("Noted for P4, task “Borrow the top book”."), "\(noted.output)")
        let other = try await BokProcess.run(
            ["study", "run", file.path, "--participant", "P5", "--out", out.path + "-other"], home: home,
            environment: live)
        #expect(
            other.output.contains(
                "Another study is running for you on this machine: bok study note and bok study watch reach it"),
            "\(other.output)")
        tty.type("top 1\r")
        _ = await tty.read(until: { $0.contains("Everything You Need") && $0.hasSuffix("> ") })
        try await Task.sleep(for: .milliseconds(500))
        kill(first.process.processIdentifier, SIGINT)
        let stopped = await offPool { first.finish() }
        #expect(stopped.output.contains("Watching P4 in Top and queue, read-only."), "\(stopped.output)")
        #expect(stopped.output.contains("Borrow the book that is number one on the library's top list."))
        #expect(stopped.output.contains("> top 1\r\n"), "\(stopped.output)")
        #expect(stopped.output.contains("Everything You Need to Know About the Brain"))
        #expect(!stopped.output.contains("has ended"))
        #expect(
            stopped.output.hasSuffix("Fakta\r\nMalmö stadsbibliotek (simulerat)> "), "at the prompt: \(stopped.output)")
        #expect(participant.isRunning)

        // A watcher who joins late gets the screen so far, then follows the PIN being typed: masked.
        let second = try BokProcess.start(["study", "watch"], home: home, environment: live)
        try await Task.sleep(for: .milliseconds(500))
        try await StudyTerminalTests.borrowTyping(tty)
        tty.type("done\r")
        _ = await tty.read(until: { $0.contains("Task 2 of 2") && $0.hasSuffix("> ") })
        let queue = try await bok(["study", "note", "looked for a queue command"])
        #expect(queue.output.contains("Noted for P4, task “Join a queue”."), "\(queue.output)")
        tty.type("give up\r")
        _ = await tty.read(until: { $0.hasSuffix("(agree): ") })
        let between = try await bok(["study", "note", "smiled at the SUS"])
        #expect(between.output.contains("Noted for P4, between tasks."), "\(between.output)")
        for _ in 0..<10 {
            tty.type("4\r")
            _ = await tty.read(until: { $0.hasSuffix("(agree): ") || $0.contains("sums up every participant") })
        }
        #expect(await participant.waitForExit(seconds: 10))
        let watched = await offPool { second.finish() }
        #expect(watched.status == 0, "\(watched.output)")
        #expect(watched.output.contains("> top 1\r\n"), "late joiner sees the screen so far: \(watched.output)")
        #expect(watched.output.contains("PIN for card 1001: ••••"), "\(watched.output)")
        #expect(!watched.output.contains("1234"))
        #expect(watched.output.contains("Task ended: success."))
        #expect(watched.output.contains("“Fritt fall” is out on loan."))
        #expect(!watched.output.contains("looked for a queue command"), "notes are the moderator's, not the screen's")
        #expect(watched.output.hasSuffix("The sitting of P4 has ended.\n"), "\(watched.output)")

        let after = try await bok(["study", "note", "too late"])
        #expect(after.status == 1)
        #expect(after.output.contains("No study is running"))

        // A folder others could enter is not used.
        chmod(runtime.appendingPathComponent("bok").path, 0o755)
        let open = try await bok(["study", "note", "x"])
        #expect(open.status == 1)
        #expect(open.output.contains("bok is not a private folder of yours (mode 700)"), "\(open.output)")

        let report = try await bok(["study", "report", out.path])
        let clock = #"\d\d:\d\d:\d\d"#
        #expect(report.output.contains("### Notes by task"), "\(report.output)")
        #expect(
            report.output.contains(
                try Regex("\\*\\*Borrow the top book\\*\\*\n\n- P4: \(clock) hesitated at the top list\n")))
        #expect(report.output.contains(try Regex("- Join a queue: \(clock) looked for a queue command\n")))
        #expect(report.output.contains(try Regex("- \\(between tasks\\): \(clock) smiled at the SUS\n")))
        let csv = try await bok(["study", "report", out.path, "--format", "csv"])
        #expect(csv.output.contains(try Regex("P4,Join a queue,gave up,.*,\(clock) looked for a queue command\r\n")))
    }
}
#endif
