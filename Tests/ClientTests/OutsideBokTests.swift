import Catalog
import Foundation
import Localization
import MockLending
import Reader
import Shelf
import TestSupport
import Testing

@testable import Client

/// `loans --ics`: the loans' last days as an iCalendar file that a calendar program reads.
@Suite("Loans in a calendar", .serialized)
struct LoanCalendarTests {
    @Test("bok loans --ics is a calendar python3-icalendar reads: an event on each loan's last day, a reminder before")
    func readByACalendarProgram() async throws {
        let python = "/usr/bin/python3"
        try #require(
            FileManager.default.isExecutableFile(atPath: python)
                && Process.succeeds(python, ["-c", "import icalendar"]),
            "python3-icalendar is installed by scripts/install-test-tools.sh")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8", "LANGUAGE": "",
        ]
        let runner = OneShotProcessTests()
        // Card 1003 has two loans, one ending in 2 days (README).
        let loans = try await runner.bok(
            ["--mock", "loans", "--card", "1003", "--pin-stdin", "--json"], stdin: "3456\n", environment: environment)
        let listed = try #require(
            (try JSONSerialization.jsonObject(with: Data(loans.stdout.utf8)) as? [String: Any])?["loans"]
                as? [[String: Any]], "\(loans.stdout)\(loans.stderr)")
        let ics = try await runner.bok(
            ["--mock", "loans", "--ics", "--card", "1003", "--pin-stdin"], stdin: "3456\n", environment: environment)
        #expect(ics.status == 0, "\(ics.stderr)")
        #expect(ics.stdout.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"), "\(ics.stdout.prefix(80))")
        #expect(ics.stdout.hasSuffix("END:VCALENDAR\r\n"))
        #expect(ics.stdout.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 }, "lines fold at 75 octets")

        let file = home.appendingPathComponent("loans.ics")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data(ics.stdout.utf8).write(to: file)
        let read = try Process.output(
            python,
            [
                "-c",
                """
                import sys, icalendar
                cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
                for e in cal.walk('VEVENT'):
                    alarm = e.walk('VALARM')[0]
                    print(e['DTSTART'].dt.isoformat(), e['DTEND'].dt.isoformat(), alarm['TRIGGER'].dt, e['SUMMARY'])
                """, file.path,
            ])
        let expected = listed.map { loan -> String in
            let day = DayDate(string: loan["expiryDate"] as? String ?? "")!
            let end = day.adding(days: 1)
            return "\(loan["expiryDate"]!) \(String(format: "%04d-%02d-%02d", end.year, end.month, end.day)) "
                + "-1 day, 0:00:00 Last day of “\(loan["title"]!)”"
        }
        #expect(!expected.isEmpty)
        #expect(read.split(separator: "\n").map(String.init) == expected, "\(read)")
    }

    @Test("Text is escaped and long lines fold inside no character")
    func escapingAndFolding() {
        #expect(LoanCalendar.escaped("a,b;c\\d\ne\u{1B}f") == "a\\,b\\;c\\\\d\\nef")
        let long = "SUMMARY:" + String(repeating: "å", count: 60)
        let folded = LoanCalendar.folded(long)
        #expect(folded.count == 2 && folded.allSatisfy { $0.utf8.count <= 75 }, "\(folded)")
        #expect(folded[1].hasPrefix(" å"))
        #expect(folded[0] + folded[1].dropFirst() == long)
    }
}

extension Process {
    /// True when the program exits with 0.
    static func succeeds(_ program: String, _ arguments: [String]) -> Bool {
        (try? output(program, arguments)) != nil
    }

    /// The program's standard output; throws when it fails.
    static func output(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `status` and `status --prompt`: the shelf in a line, without the library.
@Suite("status for a shell prompt", .serialized)
@MainActor
struct StatusTests {
    @Test("status says the loans and the next last day; --prompt in a few words, and nothing with nothing to tell")
    func status() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(await h.text("status --prompt").isEmpty)
        #expect(await h.text("status") == "status knows no library card yet: log in once with login --remember.")
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 1")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
        let days = try #require(h.session.currentShelf().entries(.loans).first?.daysLeft)
        #expect(await h.text("status") == "You have 1 loan; the next one ends in \(days) days.")
        #expect(await h.text("status --prompt") == "1 loan, \(days) days left")
        // Answered from the shelf alone: the library out of reach changes nothing.
        await h.server.stop()
        #expect(await h.text("status --prompt") == "1 loan, \(days) days left")
    }
}

/// `history`: every loan recorded on this computer, however long ago, and its CSV export.
@Suite("Loan history", .serialized)
@MainActor
struct LoanHistoryTests {
    @Test("history keeps a loan long after the shelf's month of ended loans; --csv is a file a spreadsheet reads")
    func historyAndCSV() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 2")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
        let first = try #require(h.session.lists.list?.byNumber[1]?.title)
        // Two months on: the loan ran out long ago and the shelf no longer shows it.
        await h.run("mock clock +9w")
        #expect(!(await h.text("shelf")).contains(first))
        await h.run("search thriller")
        await h.run("filter available")
        let borrowed = await h.text("borrow 1")
        #expect(borrowed.hasPrefix("Borrowed"), "\(borrowed)")
        let second = try #require(h.session.lists.list?.byNumber[1]?.title)

        let screen = await h.run("history")
        #expect(screen.first?.hasPrefix("Loan history · card 1001 · 2 loans") == true, "\(screen)")
        let titles = screen.filter { $0.hasPrefix(first) || $0.hasPrefix(second) }
        #expect(titles.count == 2 && titles[0].hasPrefix(second), "newest first: \(screen)")
        #expect(screen.contains { $0.contains("on loan until") }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("  21 November 2026 – ") && !$0.contains("on loan") }, "\(screen)")

        let csv = await h.run("history --csv")
        #expect(csv.first == "title,authors,borrowed,lastDay,ended,percentRead,productID", "\(csv)")
        #expect(csv.count == 3)
        #expect(csv[2].hasPrefix(HistoryCommand.field(first) + ",") && csv[2].contains(",2026-11-21,"), "\(csv)")
    }

    @Test("A CSV field with a comma or quote is quoted; one a spreadsheet would run as a formula is not run")
    func csvFields() {
        #expect(HistoryCommand.field("Ek, Bo") == "\"Ek, Bo\"")
        #expect(HistoryCommand.field("Säg \"hej\"") == "\"Säg \"\"hej\"\"\"")
        #expect(HistoryCommand.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(HistoryCommand.field("-1") == "'-1")
        #expect(HistoryCommand.field("Vintern 1953") == "Vintern 1953")
    }
}

/// `watch`: told when a book that is out can be borrowed, as Libby's "notify me".
@Suite("Watching a book that is out", .serialized)
@MainActor
struct WatchTests {
    @Test("watch N, then the clock passes until a copy is free: told once, by the sync; watch rm stops it")
    func toldWhenItCanBeBorrowed() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        #expect(await h.text("login").contains("1001"))
        // A book whose copies are all out and nobody waits: a copy comes back when a loan ends.
        var target: (number: Int, product: Product)?
        for query in ["thriller", "roman", "deckare", "barn", "historia"] where target == nil {
            await h.run("search \(query)")
            target = h.session.lists.list?.byNumber.sorted { $0.key < $1.key }.first {
                $0.value.availability?.available == false && $0.value.availability?.waiting == 0
                    && ($0.value.availability?.copies ?? 0) > 0
            }.map { ($0.key, $0.value) }
        }
        let (number, book) = try #require(target)
        #expect(await h.text("watch \(number)") == "Watching “\(book.title)”: bok tells you when it can be borrowed.")
        #expect(await h.text("watch \(number)") == "You watch “\(book.title)” already.")
        let list = await h.run("watch")
        #expect(list.first == "Watching (1)" && list.contains { $0.hasPrefix(" 1  ✗") && $0.hasSuffix(book.title) })

        let moved = await h.run("mock clock +8w")
        let told = "Notice: “\(book.title)”, which you watch, can be borrowed now: borrow id:\(book.id)."
        #expect(moved.contains(told), "\(moved)")
        #expect(!(await h.run("shelf --sync")).contains(told), "told once")
        #expect(await h.text("notices").contains("which you watch, can be borrowed now"))
        #expect(await h.text("watch rm 1") == "You no longer watch “\(book.title)”.")
        #expect(await h.text("watch") == "You watch no books. watch N watches a book of the last list.")
    }
}

/// `define WORD` against a real dictd on loopback with Debian's FreeDict dictionaries.
@Suite("Words looked up in a dictionary", .serialized)
struct DefineTests {
    @Test("A Swedish word gives the Swedish–English entry; in Swedish, an English word the English–Swedish one")
    func lookUp() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-dict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try Dictd.start(in: folder)
        try #require(started != nil, "dictd and dict-freedict-swe-eng/-eng-swe: scripts/install-test-tools.sh")
        let (port, stop) = started!
        defer { stop() }
        let runner = OneShotProcessTests()
        let english = ["BOK_DICT_SERVER": "127.0.0.1:\(port)", "LANG": "C.UTF-8", "LANGUAGE": ""]
        let swedish = english.merging(["LANG": "sv_SE.UTF-8", "LANGUAGE": "sv"]) { $1 }

        let lasa = try await runner.bok(["--mock", "define", "läsa"], environment: english)
        #expect(lasa.status == 0 && lasa.stdout.contains("(fd-swe-eng)") && lasa.stdout.contains("  read"), "\(lasa)")
        // An inflected form finds its base form, and says so.
        let huset = try await runner.bok(["--mock", "define", "huset"], environment: english)
        #expect(huset.stdout.hasPrefix("“huset” is not in the dictionaries; “hus” is:"), "\(huset)")
        #expect(huset.stdout.contains("  house"))
        let read = try await runner.bok(["--mock", "define", "read"], environment: swedish)
        #expect(read.stdout.contains("(fd-eng-swe)") && read.stdout.contains("  läsa"), "\(read)")
        let none = try await runner.bok(["--mock", "define", "xyzzyq"], environment: english)
        #expect(none.status == 1 && none.stderr.contains("No dictionary here knows “xyzzyq”"), "\(none)")
        let json = try await runner.bok(["--mock", "--json", "define", "bil"], environment: english)
        #expect(json.stdout.contains(#""found":"bil""#) && json.stdout.contains("car"), "\(json)")
    }

    @Test("Without a dictionary server, define says what to install, in one line")
    func noServer() async throws {
        let result = try await OneShotProcessTests().bok(
            ["--mock", "define", "hus"], environment: ["BOK_DICT_SERVER": "127.0.0.1:9", "LANG": "C.UTF-8"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("sudo apt install dictd dict-freedict-eng-swe"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("Endings come off to find a base form")
    func stems() {
        #expect(Stems.forms(of: "huset").contains("hus"))
        #expect(Stems.forms(of: "books").contains("book"))
        #expect(Stems.forms(of: "stories").contains("story"))
        #expect(Stems.forms(of: "läsa").first == "läsa")
    }
}
