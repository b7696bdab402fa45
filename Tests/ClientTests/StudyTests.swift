import Catalog
import Foundation
import Localization
import MockLending
import Reader
import ReadingState
import Shelf
import Testing

@testable import Client

/// `bok study run` and `bok study report`: participants sit a study's tasks, and the report sums
/// them up (docs/studies.md).
@Suite("Usability studies", .serialized)
@MainActor
struct StudyTests {
    /// A clock that moves only when a participant pauses, so times on task are known exactly.
    final class ManualClock {
        var now = Date(timeIntervalSince1970: 1_795_000_000)
        func read() -> Date { now }
    }

    /// A participant's lines, each after a pause of so many seconds on the clock.
    final class Participant: LineSource {
        let clock: ManualClock
        var lines: [(pause: Double, line: String)]

        init(_ clock: ManualClock, _ lines: [(Double, String)]) {
            self.clock = clock
            self.lines = lines
        }

        func readLine(prompt: String) -> String? {
            guard !lines.isEmpty else { return nil }
            let (pause, line) = lines.removeFirst()
            clock.now.addTimeInterval(pause)
            return line
        }

        func remember(_ line: String) {}
    }

    static let studyFile = ScenarioTests.root.appendingPathComponent("studies/borrow-and-read.study").path
    static var pin: String { MockLendingServer.seededPIN(card: "1001")! }

    /// Whether the PIN is in `text` as a number of its own (`borrow id:12345` in a hint is not it).
    static func showsPIN(_ text: String) -> Bool {
        text.contains(try! Regex("(^|[^0-9])" + pin + "([^0-9]|$)"))
    }

    func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bok-study-\(UUID().uuidString)").path
    }

    /// Every SUS answer the same but for the even items: `odd` for 1, 3, 5…, `even` for 2, 4, 6….
    static func sus(odd: Int, even: Int) -> [(Double, String)] {
        (0..<10).map { (0, String($0 % 2 == 0 ? odd : even)) }
    }

    /// Three participants sit the sample study: P1 succeeds at every task, P2 gives up, P3 errs twice.
    func sitThree(into folder: String) async throws {
        let study = try StudyParser.parse(file: Self.studyFile)
        let scripts: [String: [(Double, String)]] = [
            "P1": [
                (5, "top 1"), (10, "borrow 1"), (5, "done"),
                (5, "search author:Å* category:Thriller"), (5, "sort author"), (5, "borrow 3"), (5, "done"),
                (5, "top 2"), (5, "reserve 2"), (5, "done"),
            ] + Self.sus(odd: 4, even: 2),
            "P2": [
                (12, "top 1"), (0, "# hesitated at the top list"), (8, "give up"),
                (30, "help"), (5, "give up"),
                (4, Self.pin), (6, "ge upp"),
            ] + Self.sus(odd: 3, even: 3),
            "P3": [
                (5, "serch brain"), (5, "borrow 99"), (5, "top 1"), (5, "borrow 1"), (5, "done"),
                (5, "done"),
                (400, "top 2"),
            ] + Self.sus(odd: 5, even: 1),
        ]
        for name in ["P1", "P2", "P3"] {
            let clock = ManualClock()
            let printer = CapturingPrinter()
            let status = try await StudyCommand.run(
                study, participant: name, out: folder, environment: ["LANG": "C.UTF-8"], printer: printer,
                source: Participant(clock, scripts[name]!), clock: clock.read)
            #expect(status == 0)
        }
    }

    @Test("Three participants (one succeeds, one gives up, one errs twice) give the report's numbers exactly")
    func threeParticipants() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await sitThree(into: folder)
        let report = try StudyReport.read(folder: folder)
        #expect(report.study == "Borrow and reserve")
        #expect(report.participants.map(\.participant) == ["P1", "P2", "P3"])
        #expect(
            report.participants.map { $0.attempts.map(\.outcome) } == [
                [.success, .success, .success], [.gaveUp, .gaveUp, .gaveUp], [.success, .failed, .timedOut],
            ])
        #expect(
            report.participants.map { $0.attempts.map(\.seconds) } == [[20, 20, 15], [20, 35, 10], [25, 5, 400]])
        #expect(report.participants.map(\.susScore) == [75, 50, 100])
        #expect(report.meanSUS == 75)

        let t = report.tasks
        #expect(t.map(\.title) == ["Borrow the top book", "A thriller by Å", "Join a queue"])
        #expect(t.map(\.successes) == [2, 1, 1] && t.map(\.attempts) == [3, 3, 3])
        #expect(t.map(\.median) == [20, 20, 15])
        #expect(t.map(\.shortest) == [20, 5, 10] && t.map(\.longest) == [25, 35, 400])
        // P3's serch and borrow 99; P2's PIN typed at the prompt.
        #expect(t.map(\.errors) == [2, 0, 1])
        #expect(t.map(\.unknown) == [1, 0, 1] && t.map(\.suggested) == [1, 0, 0])
        #expect(t.map(\.help) == [0, 1, 0])
        // P2's 12 s before top 1 and 30 s before help; P3's 400 s.
        #expect(t.map(\.hesitations) == [1, 1, 1])
        #expect(t[2].outcomes == ["success": 1, "gave up": 1, "timed out": 1])
        #expect(report.participants[1].attempts[0].notes == ["# hesitated at the top list"])

        let markdown = report.markdown(charts: ("r-time.svg", "r-success.svg"))
        #expect(
            markdown.contains("| Borrow the top book | 2/3 (67 %) | 20 s (20 s–25 s) | 2 | 1 | 0 | 1 |"), "\(markdown)")
        #expect(markdown.contains("| Join a queue | 1/3 (33 %) | 15 s (10 s–6 min 40 s) | 1 | 1 | 0 | 1 |"))
        #expect(markdown.contains("| P3 | 1/3 | 7 min 10 s | 2 | 1 | 0 | 1 | 100.0 |"), "\(markdown)")
        #expect(markdown.contains("![Time on task per task](r-time.svg)"))
        #expect(markdown.contains("Notes:\n- Borrow the top book: # hesitated at the top list\n"), "\(markdown)")
        #expect(markdown.contains("3 participants · 3 tasks · mean SUS 75.0"))
        let csv = report.csv()
        #expect(csv.contains("P2,Join a queue,gave up,10.000,1,1,1,0,0,0,50.0,\r\n"), "\(csv)")
        #expect(csv.contains(",# hesitated at the top list\r\n"), "\(csv)")

        // In Swedish, the report's words (the study's own titles stay as written).
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let swedish = report.markdown()
        #expect(swedish.contains("3 deltagare · 3 uppgifter · medel-SUS 75,0"), "\(swedish)")
        #expect(swedish.contains("| Join a queue | 1/3 (33 %) | 15 s (10 s–6 min 40 s) |"))
        #expect(swedish.contains("| Join a queue | gav upp |"), "\(swedish)")
    }

    @Test("Two runs side by side: each task's success and median time, and the differences, exactly")
    func twoRunsCompared() async throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await sitThree(into: root + "/before")
        let study = try StudyParser.parse(file: Self.studyFile)
        let scripts: [(String, [(Double, String)])] = [
            (
                "Q1",
                [
                    (2, "top 1"), (4, "borrow 1"), (2, "done"),
                    (5, "search author:Å* category:Thriller"), (5, "sort author"), (5, "borrow 3"), (5, "done"),
                    (3, "top 2"), (3, "reserve 2"), (2, "done"),
                ] + Self.sus(odd: 5, even: 1)
            ),
            (
                "Q2",
                [(5, "top 1"), (5, "borrow 1"), (2, "done"), (10, "give up"), (20, "give up")]
                    + Self.sus(odd: 4, even: 2)
            ),
        ]
        for (name, lines) in scripts {
            let clock = ManualClock()
            _ = try await StudyCommand.run(
                study, participant: name, out: root + "/after", environment: ["LANG": "C.UTF-8"],
                printer: CapturingPrinter(), source: Participant(clock, lines), clock: clock.read)
        }
        let comparison = StudyComparison(
            try StudyReport.read(folder: root + "/before"), folder: root + "/before",
            try StudyReport.read(folder: root + "/after"), folder: root + "/after")
        #expect(
            comparison.tasks.map(\.a?.median) == [20, 20, 15] && comparison.tasks.map(\.b?.median) == [10, 15, 14])
        #expect(comparison.tasks.map(\.medianDifference) == [-10, -5, -1])
        let markdown = comparison.markdown()
        #expect(
            markdown.contains("- **A**: before (`\(root)/before`) · 3 participants · mean SUS 75.0\n"), "\(markdown)")
        #expect(markdown.contains("- **B**: after (`\(root)/after`) · 2 participants · mean SUS 87.5\n"))
        #expect(markdown.contains("SUS difference: +12.5."))
        #expect(
            markdown.contains("| Borrow the top book | 2/3 (67 %) | 2/2 (100 %) | +33 points | 20 s | 10 s | −10 s |"))
        #expect(markdown.contains("| A thriller by Å | 1/3 (33 %) | 1/2 (50 %) | +17 points | 20 s | 15 s | −5 s |"))
        #expect(markdown.contains("| Join a queue | 1/3 (33 %) | 1/2 (50 %) | +17 points | 15 s | 14 s | −1 s |"))
        #expect(
            comparison.csv().contains("Borrow the top book,3,2,0.667,20.000,2,2,1.000,10.000,0.333,-10.000\r\n"),
            "\(comparison.csv())")

        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let swedish = comparison.markdown()
        #expect(
            swedish.contains("| Borrow the top book | 2/3 (67 %) | 2/2 (100 %) | +33 procentenheter |"), "\(swedish)")
        #expect(swedish.contains("Skillnad i SUS: +12,5."))
    }

    @Test("No PIN in any recording or report; the recordings are private and the mistyped PIN shows as ••••")
    func noPIN() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await sitThree(into: folder)
        let report = try StudyReport.read(folder: folder)
        for name in ["P1", "P2", "P3"] {
            let file = folder + "/\(name).jsonl"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!Self.showsPIN(text), "\(name)")
            let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?
                .intValue
            #expect(mode == 0o600)
        }
        let p1 = try Recording.read(file: folder + "/P1.jsonl")
        #expect(p1.events.contains { $0.shown?.contains("PIN for card 1001: ••••") == true })
        let p2 = try Recording.read(file: folder + "/P2.jsonl")
        #expect(p2.events.contains { $0.event == .command && $0.line == "••••" })
        for text in [report.markdown(), report.csv(), JSONOutput.encode(report.json)] {
            #expect(!Self.showsPIN(text))
        }
    }

    @Test("SUS scores are the published arithmetic: odd items score − 1, even items 5 − score, sum × 2.5")
    func susArithmetic() {
        #expect(SystemUsabilityScale.score(Array(repeating: 3, count: 10)) == 50)
        #expect(SystemUsabilityScale.score([5, 1, 5, 1, 5, 1, 5, 1, 5, 1]) == 100)
        #expect(SystemUsabilityScale.score([1, 5, 1, 5, 1, 5, 1, 5, 1, 5]) == 0)
        // Brooke's worked example: 4, 1, 4, 1, 3, 2, 5, 1, 4, 2 → (3+4+3+4+2+3+4+4+3+3) × 2.5.
        #expect(SystemUsabilityScale.score([4, 1, 4, 1, 3, 2, 5, 1, 4, 2]) == 82.5)
        #expect(SystemUsabilityScale.score([3, 3, 3]) == nil)
        #expect(SystemUsabilityScale.score(Array(repeating: 6, count: 10)) == nil)
        #expect(SystemUsabilityScale.statements.count == 10)
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        #expect(SystemUsabilityScale.statements[0] == "Jag tror att jag skulle vilja använda det här systemet ofta.")
    }

    @Test(
        "A chart renders to PNG with rsvg-convert at its size, and is not blank",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"),
            "rsvg-convert is not installed (Debian librsvg2-bin; scripts/install-test-tools.sh)"))
    func chartRenders() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await sitThree(into: folder)
        var report = try StudyReport.read(folder: folder)
        // A title a chart must escape.
        report.tasks[0].title = "Borrow <b>“top”</b> & \"read\""
        for (name, svg) in [("time", StudyChart.time(report)), ("success", StudyChart.success(report))] {
            #expect(svg.contains("Borrow &lt;b&gt;“top”&lt;/b&gt; &amp; &quot;read&quot;"))
            let svgFile = folder + "/\(name).svg"
            let pngFile = folder + "/\(name).png"
            try Data(svg.utf8).write(to: URL(fileURLWithPath: svgFile))
            _ = try Process.output("/usr/bin/rsvg-convert", ["-o", pngFile, svgFile])
            let png = try #require(RasterImage.decode(Array(try Data(contentsOf: URL(fileURLWithPath: pngFile)))))
            #expect(png.width == StudyChart.width && png.height == StudyChart.height(rows: 3))
            // Not blank: the white ground, the bars' colours and dark text.
            var colours = Set<UInt32>()
            for i in stride(from: 0, to: png.pixels.count, by: 4) {
                colours.insert(
                    UInt32(png.pixels[i]) << 16 | UInt32(png.pixels[i + 1]) << 8 | UInt32(png.pixels[i + 2]))
            }
            #expect(colours.count > 10, "\(name): \(colours.count) colours")
            let dark = stride(from: 0, to: png.pixels.count, by: 4).filter { png.pixels[$0] < 100 }.count
            #expect(dark > 500, "\(name)")
        }
    }

    @Test("A sitting plays back with each task's instruction where the participant saw it")
    func replay() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await sitThree(into: folder)
        let playback = RecordingPlayback(try Recording.read(file: folder + "/P1.jsonl"))
        let text = playback.frames.map(\.text).joined()
        #expect(text.contains("\r\nBorrow the top book\r\n  The library keeps a list of its most popular e-books."))
        #expect(!text.contains("# task:"))
        #expect(text.contains("> done\r\n"))
        // Frames keep the participant's pace: 20 s from the first instruction to the second.
        let instructions = playback.frames.filter { $0.text.hasPrefix("\r\n") }.map(\.time)
        #expect(instructions.prefix(2) == [0, 20])
    }

    @Test("A recording's titles cannot act on the terminal or break the report's tables")
    func hostileTitles() throws {
        let file = temporaryFolder() + ".jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let lines = [
            #"{"at":"2026-11-24T10:00:00.000Z","event":"start","study":"S\u001b]0;owned\u0007","participant":"P1"}"#,
            #"{"at":"2026-11-24T10:00:00.000Z","event":"marker","task":"A | B\nC\u001b[31m","instruction":"x"}"#,
            #"{"at":"2026-11-24T10:00:10.000Z","event":"marker","outcome":"success","think":10}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let report = StudyReport([try Recording.read(file: file)])
        #expect(report.tasks.map(\.median) == [10])
        for text in [report.markdown(), report.csv()] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text)")
        }
        #expect(report.markdown().contains("| A \\| B C"), "\(report.markdown())")
    }

    @Test("A sitting that ended abruptly counts its open task as given up, timed to its last event")
    func abruptEnd() throws {
        let file = temporaryFolder() + ".jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let lines = [
            #"{"at":"2026-11-24T10:00:00.000Z","event":"start","study":"S","participant":"P4"}"#,
            #"{"at":"2026-11-24T10:00:00.000Z","event":"marker","task":"One","instruction":"x"}"#,
            #"{"at":"2026-11-24T10:00:42.000Z","event":"command","line":"top 1","think":42,"errors":[]}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let attempt = try #require(StudyReport([try Recording.read(file: file)]).participants.first?.attempts.first)
        #expect(attempt.outcome == .gaveUp && attempt.seconds == 42 && attempt.commands == 1)
        #expect(attempt.hesitations == 1)
    }

    @Test("A task may ask where the reader is and for a highlight, not only for the shelf")
    func readingAndHighlightConditions() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: [Self.pin])
        await h.run("top 1")
        await h.run("borrow 1")
        let item = try #require(h.session.lists.list?.byNumber[1])
        let title = String(item.title.prefix(12))
        let store = try h.session.shelfStore()
        let file = try #require(try store.download(productID: item.id)?.path)
        let book = try EPUBBook.open(path: file)
        let content = BookContent(book: book)
        // The chapter the task asks for, as the reader's status line names it: the last with a title.
        let chapter = try #require((0..<book.spine.count).last { content.document(at: $0).title?.isEmpty == false })
        let chapterTitle = try #require(content.document(at: chapter).title)
        let text = [
            "study: Reading", "task: Read on", "instruction: Go to the last chapter and highlight a paragraph.",
            "success: reading: \(title) | \(chapterTitle)", "success: highlight: \(title)",
        ].joined(separator: "\n")
        let study = try StudyParser.parse(text, file: "reading.study")
        let runner = StudyRunner(study: study, participant: "P1")
        let conditions = study.tasks[0].success
        // Not opened yet: neither holds.
        #expect(await !runner.holds(conditions, session: h.session))
        // Opened and read to the chapter: the place holds, the highlight not yet.
        let id = BookID.opening(book, in: store)
        try store.recordBookIdentity(productID: item.id, bookID: id)
        let place = Locator(spineIndex: chapter, offset: 0)
        try store.savePosition(place, percent: 90, bookID: id)
        #expect(await runner.holds([conditions[0]], session: h.session))
        #expect(await !runner.holds(conditions, session: h.session))
        try store.saveHighlight(Highlight(start: place, end: place, color: .yellow, text: "x"), bookID: id)
        #expect(await runner.holds(conditions, session: h.session))
        // Back in the first chapter, the place no longer holds.
        try store.savePosition(Locator(spineIndex: 0, offset: 0), percent: 1, bookID: id)
        #expect(await !runner.holds(conditions, session: h.session))
        #expect(throws: ScenarioParseError.self) {
            try StudyParser.parse(
                "study: S\ntask: T\ninstruction: I\nsuccess: reading: only a title\n", file: "s.study")
        }
    }

    @Test("Both sample studies read; a study's mistakes are told with their lines")
    func studyFiles() throws {
        let english = try StudyParser.parse(file: Self.studyFile)
        #expect(english.tasks.count == 3 && english.setup.language == "en")
        #expect(english.tasks[1].instruction.hasSuffix("If there are several, take “Huset vid havet”."))
        #expect(english.tasks[1].timeLimit == 480)
        let swedish = try StudyParser.parse(
            file: ScenarioTests.root.appendingPathComponent("studies/lana-och-reservera.study").path)
        #expect(swedish.tasks.count == 3 && swedish.setup.language == "sv")
        let bad = """
            study: Bad
            seed: x
            task: One
            time limit: soon
            success: contains: Borrowed
            """
        #expect(throws: ScenarioParseError.self) { try StudyParser.parse(bad, file: "bad.study") }
        do {
            _ = try StudyParser.parse(bad, file: "bad.study")
        } catch let error as ScenarioParseError {
            #expect(error.lines.contains("bad.study:2: seed: takes a whole number, e.g. seed: 1."), "\(error.lines)")
            #expect(error.lines.contains { $0.hasPrefix("bad.study:4: time limit: takes minutes or seconds") })
            #expect(error.lines.contains { $0.hasPrefix("bad.study:5: success: takes shelf:") })
            #expect(error.lines.contains { $0.hasPrefix("bad.study:3: task \"One\" has no instruction.") })
        }
    }
}
