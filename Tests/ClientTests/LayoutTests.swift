import Foundation
import Localization
import Terminal
import Testing

@testable import Client

/// Every line bok prints meets the terminal's edge at a word boundary, in both languages (and a
/// third made at test time, ``PseudoLanguage``) and at every common width, and a result page fits
/// the window's height (issue 13).
@Suite("Laid out for any terminal", .serialized)
@MainActor
struct LayoutTests {
    /// The words of a text, as a reader sees them (escape codes and spacing aside).
    static func words(_ text: String) -> [Substring] {
        Ansi.strip(text).split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    /// What a session of a patron's commands prints, line by line, before the terminal's edge.
    static func session(width: Int, height: Int = 0, language: String) async throws -> [(String, [String])] {
        Localization.use(language, environment: PseudoLanguage.environment(for: language))
        defer { Localization.use("en", environment: [:]) }
        let h = try await Harness(theme: Theme(caps: .plain, width: width, height: height))
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        var lines = ["help", "guide"] + CommandTable().commands.map { "help \($0.name)" }
        lines += [
            "search the", "more", "back", "sort author", "sort author", "view grid", "view list", "filter available",
            "filter clear", "info 1", "top", "new", "borrow 1", "loans", "reservations", "shelf", "tbr", "whoami",
            "borrow 999", "frobnicate", "sort nonsense", "search", "return 9", "notes 9", "mock", "language",
        ]
        var screens: [(String, [String])] = []
        for line in lines { screens.append((line, await h.run(line))) }
        return screens
    }

    @Test(
        "No line of a message, help page or list breaks inside a word at 40, 60, 80, 120 columns, in every language",
        arguments: [40, 60, 80, 120], ["en", "sv", PseudoLanguage.code])
    func wordsStayWhole(width: Int, language: String) async throws {
        for (command, screen) in try await Self.session(width: width, language: language) {
            for line in screen {
                let shown = DisplayWidth.wrapLine(line, width: width)
                #expect(Self.words(shown.joined(separator: "\n")) == Self.words(line), "\(command): \(line)")
                for row in shown where DisplayWidth.of(row) > width {
                    // Only a single word wider than the window (none of bok's own) may run over.
                    Issue.record("\(language) \(width) columns, \(command): wider than the window: \(row)")
                }
            }
        }
    }

    @Test(
        "Lists and the help overview are laid out to fit the width themselves, not wrapped",
        arguments: [40, 60, 80, 120])
    func listsFit(width: Int) async throws {
        for language in ["en", "sv", PseudoLanguage.code] {
            let screens = try await Self.session(width: width, language: language)
            for (command, screen) in screens
            where ["help", "search the", "more", "sort author", "top", "new", "view grid", "loans", "shelf"]
                .contains(command)
            {
                // Rows (hits, bylines, cards, help rows) start with a space; headings and
                // messages above and below them may wrap.
                for line in screen where line.hasPrefix(" ") && DisplayWidth.of(line) > width {
                    Issue.record("\(language) \(width) columns, \(command): \(line)")
                }
            }
        }
    }

    @Test("A result page fits the window: the count line stays on screen above the last hit", arguments: [24, 40])
    func pageFitsTheHeight(rows: Int) async throws {
        let h = try await Harness(theme: Theme(caps: .plain, width: 80, height: rows))
        defer { Task { await h.stop() } }
        for command in ["search the", "view grid", "more", "view list", "back"] {
            let screen = await h.run(command)
            // The window shows the prompt line as well.
            #expect(screen.count <= rows - 1, "\(command) printed \(screen.count) lines in \(rows) rows: \(screen)")
            #expect(screen.first?.contains(" hits for “the”") == true, "\(command): \(screen.first ?? "")")
            let hits =
                h.session.lists.view == .list ? hitLines(screen).count : screen.count { $0.first?.isNumber == true }
            #expect(hits >= 3, "\(command)")
        }
        // Numbers run on across pages of the fitted size.
        let list = try #require(h.session.lists.list)
        #expect(list.pageSize < 20)
        #expect(await h.text("info \(list.pageSize + 1)").contains("Language"))
    }

    @Test(
        "After the shelf or the loans list, a result page with its 'numbers now mean' line still fits the window",
        arguments: [24, 40])
    func pageFitsAfterAnotherList(rows: Int) async throws {
        let h = try await Harness(theme: Theme(caps: .plain, width: 80, height: rows), wrapsToTheme: true)
        defer { Task { await h.stop() } }
        // A patron with loans: an empty list would leave the numbers to the search before it.
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1002"], secrets: ["2345"])
        _ = await h.run("login")
        for before in ["shelf", "loans"] {
            _ = await h.run(before)
            let screen = await h.run("search deckare")
            #expect(screen.contains { $0.contains("Numbers now mean these books.") }, "\(before): \(screen)")
            // The window shows the prompt line as well: the count line is still on screen.
            #expect(screen.count <= rows - 1, "after \(before): \(screen.count) lines in \(rows) rows: \(screen)")
            #expect(screen.first?.contains(" hits for “deckare”") == true, "\(screen.first ?? "")")
        }
    }

    @Test("Piped output and scenarios keep pages of 20")
    func pipedPages() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(hitLines(await h.run("search the")).count == 20)
    }

    @Test("A long message is wrapped at word boundaries, its continuation indented as the line is")
    func wrapLine() {
        let line = "  Type borrow 3 to borrow it, or reserve 3 to join the queue of patrons waiting for it."
        let shown = DisplayWidth.wrapLine(line, width: 40)
        #expect(
            shown == [
                "  Type borrow 3 to borrow it, or reserve", "  3 to join the queue of patrons waiting",
                "  for it.",
            ])
        #expect(
            DisplayWidth.wrapLine("Showing 1–20 of 94.   Type more", width: 40) == ["Showing 1–20 of 94.   Type more"])
        #expect(DisplayWidth.wrapLine("Hämtar ”Sjöns hemlighet” …", width: 0) == ["Hämtar ”Sjöns hemlighet” …"])
    }
}

#if os(Linux)
import Glibc
import TestSupport

/// bok started by a Swedish patron at a real (pseudo-)terminal: Swedish words, lines that end at
/// the window's edge between words, and a result page that fits the window.
@Suite(
    "A Swedish patron at a 60×24 terminal", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct SwedishTerminalTests {
    @Test("LANG=sv_SE.UTF-8 at a pty: Swedish banner and list, every line within 60 columns, the count line on screen")
    func swedishAtATerminal() async throws {
        let tty = try #require(PseudoTerminal(columns: 60, rows: 24))
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-sv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        // A fresh patron account; the locale says Swedish, and no LANGUAGE or LC_* says otherwise.
        let environment = BokProcess.environment(
            home: home,
            ["TERM": "xterm-256color", "NO_COLOR": "1", "SWIFT_BACKTRACE": "enable=no", "LANG": "sv_SE.UTF-8"])
        let bok = try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: ["--mock"], environment: environment, terminal: tty.device))
        defer { if bok.isRunning { kill(bok.pid, SIGKILL) } }

        let banner = Ansi.strip(await tty.read(until: { $0.contains("> ") }))
        #expect(banner.contains("Skriv hjälp för kommandona"), "\(banner)")
        tty.type("sök the\r")
        let answer = Ansi.strip(await tty.read(until: { $0.contains("Visar 1–") && $0.hasSuffix("> ") }))
        let lines = answer.components(separatedBy: "\r\n")
        #expect(lines.contains { $0.hasSuffix("94 träffar för ”the” · sorterat på relevans, bäst träff") }, "\(answer)")
        for line in lines { #expect(DisplayWidth.of(line) <= 60, "wider than the window: \(line)") }
        // The count line, the hits, the footer and the prompt fit the 24 rows together.
        #expect(lines.count <= 24, "\(lines.count) lines: \(answer)")
        tty.type("avsluta\r")
        #expect(await bok.waitForExit(seconds: 10))
    }
}
#endif
