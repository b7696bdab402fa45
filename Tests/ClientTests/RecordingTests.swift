import Foundation
import Localization
import Testing

@testable import Client

/// `bok --record`: a scripted session recorded through the REPL, read back and summarised.
@Suite("Recording a session", .serialized)
@MainActor
struct RecordingTests {
    /// A clock that moves on two seconds every time it is read, so think times are known.
    final class SteppingClock {
        var now = Date(timeIntervalSince1970: 1_795_000_000)
        func read() -> Date {
            now.addTimeInterval(2)
            return now
        }
    }

    func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bok-recording-\(UUID().uuidString).jsonl").path
    }

    /// Runs `lines` in a REPL on the mock with a recorder, as `bok --record` does.
    func record(_ lines: [String], pin: String = "1234") async throws -> (file: String, recording: Recording) {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: [pin])
        let file = temporaryFile()
        let clock = SteppingClock()
        let recorder = try SessionRecorder(file: file, forwardingTo: h.printer, clock: clock.read)
        recorder.watch(h.session)
        recorder.start(library: h.session.library.name)
        await REPL(session: h.session, recorder: recorder).run(lines: ScriptedSource(lines))
        return (file, try Recording.read(file: file))
    }

    @Test("Each command is recorded with its time, the patron's time before it, what was shown, errors and help")
    func recordsCommands() async throws {
        let (file, recording) = try await record([
            "# task: Borrow the top book", "top 1", "help borrow", "borrow 1", "# end",
            "serch thriller", "quit",
        ])
        defer { try? FileManager.default.removeItem(atPath: file) }
        let kinds = recording.events.map(\.event)
        #expect(kinds == [.start, .marker, .command, .command, .command, .marker, .command, .command, .end])
        let commands = recording.events.filter { $0.event == .command }
        #expect(commands.map(\.line) == ["top 1", "help borrow", "borrow 1", "serch thriller", "quit"])
        #expect(commands.allSatisfy { $0.think == 2 })
        #expect(commands.map(\.help) == [false, true, false, false, false])
        #expect(commands[0].shown?.contains { $0.contains("Everything You Need to Know About the Brain") } == true)
        let borrow = commands[2].shown ?? []
        #expect(borrow.first == "Library card number: 1001")
        #expect(borrow.dropFirst().first == "PIN for card 1001: ••••")
        #expect(borrow.contains { $0.hasPrefix("Borrowed “Everything You Need to Know About the Brain”") })
        #expect(commands[3].errors == ["Unknown command \"serch\". Did you mean \"search\"?"])
        #expect(recording.events[1].task == "Borrow the top book")
        #expect(recording.events[5].task == nil)

        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("1234"))
        let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
    }

    @Test("scenario report: time on task between the markers, commands, errors and help per task")
    func report() async throws {
        let (file, recording) = try await record([
            "top 1",
            "# task: Find the release date of top #4", "top 4", "help info", "# hesitated at inf", "inf 4",
            "info 4", "# task: Borrow the top book", "top 1", "borrow 1",
            "# end", "quit",
        ])
        defer { try? FileManager.default.removeItem(atPath: file) }
        let summary = RecordingSummary(recording)
        // The tester's note is in its place among the task's commands, and counts as none of them.
        #expect(
            summary.tasks[0].lines.map(\.line) == ["top 4", "help info", "# hesitated at inf", "inf 4", "info 4"])
        #expect(summary.tasks[0].lines.map(\.note) == [false, false, true, false, false])
        #expect(summary.tasks.map(\.title) == ["Find the release date of top #4", "Borrow the top book"])
        #expect(summary.tasks.map(\.commands) == [4, 2])
        #expect(summary.tasks.map(\.errors) == [1, 0])
        #expect(summary.tasks.map(\.help) == [1, 0])
        #expect(summary.outside?.commands == 2)
        // From the first marker to the second, on the recording's own timestamps.
        let markers = recording.events.filter { $0.event == .marker }.compactMap(\.date)
        #expect(summary.tasks[0].seconds == markers[1].timeIntervalSince(markers[0]))
        #expect(summary.tasks[1].seconds == markers[2].timeIntervalSince(markers[1]))

        let lines = summary.lines(theme: .plain)
        let table = try #require(lines.first { $0.hasPrefix("Find the release date of top #4") })
        #expect(table.hasSuffix("4        1      1"), "\(table)")
        #expect(lines.contains { $0.contains("inf 4") })
        let help = try #require(lines.firstIndex { $0.hasSuffix("help info  (help)") })
        #expect(lines[help + 1].hasSuffix("# hesitated at inf"), "\(lines[help + 1])")
        #expect(lines.contains("      Unknown command \"inf\". Did you mean \"info\"?"))
        #expect(!lines.joined().contains("1234"))

        // In Swedish: the headings and totals; the columns keep their places under the longer headings.
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let swedish = summary.lines(theme: .plain)
        #expect(swedish[0].hasPrefix("Inspelning \(file) · "), "\(swedish[0])")
        #expect(swedish[0].hasSuffix("8 kommandon, 1 fel, hjälp en gång"), "\(swedish[0])")
        let heading = try #require(swedish.first { $0.hasPrefix("Uppgift") })
        #expect(heading.hasSuffix("   Tid på uppgift   Kommandon   Fel   Hjälp"), "\(heading)")
        let row = try #require(swedish.first { $0.hasPrefix("Find the release date of top #4") })
        #expect(row.hasSuffix("4     1       1"), "\(row)")
        #expect(swedish.contains { $0.hasPrefix("(utanför uppgifter)") })
        // The think time before each line has a decimal comma: +2,0 s.
        let commands = swedish.filter { $0.contains("info 4") || $0.contains("borrow 1") }
        #expect(!commands.isEmpty && commands.allSatisfy { $0.contains(/\+\d+,\d s\b/) }, "\(commands)")
        #expect(lines.filter { $0.contains("info 4") }.allSatisfy { $0.contains(/\+\d+\.\d s\b/) }, "\(lines)")
    }

    @Test("A PIN typed by mistake at the prompt is recorded as ••••")
    func pinTypedAsCommand() async throws {
        let (file, recording) = try await record(["top 1", "borrow 1", "1234", "quit"])
        defer { try? FileManager.default.removeItem(atPath: file) }
        let mistyped = try #require(recording.events.first { $0.event == .command && $0.line == "••••" })
        #expect(mistyped.errors?.isEmpty == false)
        #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("1234"))
        let summary = RecordingSummary(recording).lines(theme: .plain).joined(separator: "\n")
        #expect(!summary.contains("1234"))
    }

    @Test("An existing recording is never overwritten, and a file that is not a recording is refused by line")
    func refusals() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "{\"event\":\"start\",\"at\":\"2026-11-21T10:00:00.000Z\"}\nnot json\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let overwrite = try #require(throws: UserError.self) {
            try SessionRecorder(file: file, forwardingTo: CapturingPrinter())
        }
        #expect(overwrite.message.contains("already exists"))
        // A link, even one to nothing, is not written through.
        let link = temporaryFile()
        let target = temporaryFile()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(throws: UserError.self) { try SessionRecorder(file: link, forwardingTo: CapturingPrinter()) }
        #expect(!FileManager.default.fileExists(atPath: target))
        let bad = try #require(throws: UserError.self) { try Recording.read(file: file) }
        #expect(bad.message == "\(file):2: not a line bok --record writes. Is this a recording?")
    }

    @Test("A # line is a comment at the prompt: nothing runs and nothing is printed")
    func commentLine() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(await h.run("# task: anything").isEmpty)
    }
}

/// `bok study replay`: a recording played back, and exported as an asciicast.
extension RecordingTests {
    @Test("A recording exports as an asciicast asciinema plays: prompt, typed line and answer in order, PIN masked")
    func asciicast() async throws {
        let (file, recording) = try await record(["top 1", "borrow 1", "# hesitated at the PIN", "quit"])
        defer { try? FileManager.default.removeItem(atPath: file) }
        let playback = RecordingPlayback(recording)
        let cast = playback.asciicast(speed: 1, idleLimit: 1)
        #expect(!cast.contains("1234"))
        let lines = cast.split(separator: "\n").map(String.init)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any], "\(lines[0])")
        #expect(header["version"] as? Int == 2 && (header["width"] as? Int ?? 0) >= 80)
        // Every event an array of time, "o" and text; times never run back, no pause over the limit.
        let events = try lines.dropFirst().map { line -> (Double, String) in
            let array = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
            #expect(array.count == 3 && array[1] as? String == "o")
            return (array[0] as? Double ?? -1, array[2] as? String ?? "")
        }
        let times = events.map(\.0)
        #expect(times == times.sorted() && times.first! >= 0)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 1.0001 }, "\(times)")
        let text = events.map(\.1).joined()
        let prompt = try #require(libraryName(recording)) + "> "
        #expect(text.contains(prompt + "top 1\r\n"), "\(text)")
        #expect(text.contains("PIN for card 1001: ••••\r\n"), "\(text)")
        #expect(text.contains(prompt + "# hesitated at the PIN\r\n"))

        // asciinema's own reader of the format takes it back (its cat and play want a terminal).
        let python = "/usr/bin/python3"
        guard Process.succeeds(python, ["-c", "import asciinema.asciicast.v2"]) else { return }
        let castFile = FileManager.default.temporaryDirectory.appendingPathComponent("bok-\(UUID().uuidString).cast")
        defer { try? FileManager.default.removeItem(at: castFile) }
        try Data(cast.utf8).write(to: castFile)
        let played = try Process.output(
            python,
            [
                "-c",
                """
                import sys
                from asciinema.asciicast import v2
                with open(sys.argv[1]) as f:
                    with v2.open_from_file(f.readline(), f) as cast:
                        assert cast.v2_header['version'] == 2
                        sys.stdout.write(''.join(e[2] for e in cast.events() if e[1] == 'o'))
                """, castFile.path,
            ])
        #expect(played.contains("Everything You Need to Know About the Brain"), "\(played)")
        #expect(played.contains("PIN for card 1001: ••••") && !played.contains("1234"))
    }

    @Test("A recording that carries terminal controls plays back without them")
    func hostileRecordingPlaysInert() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        // As JSON writes them: escaped controls, which decode to the real ones.
        let evil = #"\u001b]0;owned\u0007\u001b[2J"#
        try """
        {"event":"start","at":"2026-11-21T10:00:00.000Z","bok":"0.1.0","library":"Bib\(evil)"}
        {"event":"command","at":"2026-11-21T10:00:02.000Z","line":"top 1","think":2,"shown":["Title \(evil)"]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let cast = RecordingPlayback(try Recording.read(file: file)).asciicast(speed: 1, idleLimit: 2)
        #expect(!cast.contains("\\u001b]") && !cast.contains("\\u001b[2J"), "\(cast)")
    }

    private func libraryName(_ recording: Recording) -> String? {
        recording.events.first { $0.event == .start }?.library
    }
}
