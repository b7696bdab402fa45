#if os(Linux)
import Foundation
import Glibc
import Testing
import TestSupport
import Terminal
@testable import Reader

/// Reading aloud in the real reader at a pseudo-terminal, with no sound device (as here): `r`
/// highlights the sentence the voice is in, the highlight moves on, the page turns by itself,
/// Esc stops, and `q` leaves the terminal as it was.
@Suite(
    .serialized,
    .enabled(
        if: ReaderTerminalTests.binary != nil && access("/dev/ptmx", R_OK | W_OK) == 0
            && FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/espeak-ng-data/sv_dict")))
struct ReadAloudTerminalTests {
    static let sentences =
        ["Första meningen handlar om en katt.", "Andra meningen handlar om en hund."]
        + (1...6).map { "Mening nummer \($0) handlar om en häst." } + ["Sista meningen handlar om en get."]

    /// The texts the reader painted underlined (the spoken sentence's style), in order.
    static func underlined(_ output: String) -> [String] {
        // A run of SGR codes (bok writes attributes and colours as separate codes), then text.
        let pattern = try! NSRegularExpression(pattern: "((?:\u{1B}\\[[0-9;]*m)+)([^\u{1B}]+)")
        let text = output as NSString
        return pattern.matches(in: output, range: NSRange(location: 0, length: text.length)).compactMap { match in
            let codes = text.substring(with: match.range(at: 1)).split(separator: "\u{1B}")
            let underlined = codes.contains { $0.dropFirst().dropLast().split(separator: ";").contains("4") }
            return underlined ? text.substring(with: match.range(at: 2)) : nil
        }
    }

    /// Opens the sentences' book in the real reader at a pty with `environment` changes, sets a
    /// fast Swedish voice, runs `steps`, then stops the voice, quits, and checks the terminal.
    private func withReader(
        rows: Int, environment changes: [String: String?],
        _ steps: (PseudoTerminal) async throws -> Void
    ) async throws {
        // One sentence a paragraph, on a screen small enough that they fill more than one page.
        // The builder's books say they are English; :voice sv reads this one in Swedish.
        let builder = EPUBBuilder(
            version: "3.0",
            chapters: [
                .init(href: "one.xhtml", title: "Ett", body: Self.sentences.map { "<p>\($0)</p>" }.joined())
            ])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aloud-\(getpid())-\(rows).epub").path
        try Data(builder.build()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let tty = try #require(PseudoTerminal(columns: 40, rows: rows))
        let before = tty.settings
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        for (name, value) in changes { environment[name] = value }
        let binary = try #require(ReaderTerminalTests.binary)
        let process = try #require(
            ChildProcess(binary, arguments: ["read", path], environment: environment, terminal: tty.device))
        _ = await tty.read(until: { Ansi.strip($0).contains("Första") })
        tty.type(":voice sv\r")
        tty.type(":rate 450\r")
        _ = await tty.read(until: { Ansi.strip($0).contains("450 words a minute") }, seconds: 5)
        try await steps(tty)
        tty.type("\u{1B}")
        _ = await tty.read(
            until: { Ansi.strip($0).contains("Stopped reading aloud") || Ansi.strip($0).contains("to the end") },
            seconds: 5)
        tty.type("q")
        _ = await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
        #expect(tty.settings == before)
    }

    @Test func rReadsAloudWithAMovingHighlightAndTurnsThePage() async throws {
        try await withReader(rows: 6, environment: ["COLORTERM": "truecolor", "NO_COLOR": nil]) { tty in
            tty.type("r")
            let spoken = await tty.read(until: { Ansi.strip($0).contains("Sista") }, seconds: 30)
            let marked = Self.underlined(spoken).joined(separator: " ")
            #expect(marked.contains("Första"), "the first sentence was highlighted: \(marked)")
            #expect(marked.contains("Andra"), "the highlight moved to the second: \(marked)")
            #expect(Ansi.strip(spoken).contains("Sista"), "the page turned by itself to the last sentence")
            #expect(Ansi.strip(spoken).contains("No sound device"), "one line says there is no sound output")
        }
    }

    @Test func withNoColourTheChosenParagraphIsReadAndStillMarked() async throws {
        try await withReader(rows: 8, environment: ["NO_COLOR": "1"]) { tty in
            // v lists the page's paragraphs; j moves to the second; r reads aloud from there.
            tty.type("v")
            _ = await tty.read(until: { Ansi.strip($0).contains("r aloud") }, seconds: 5)
            tty.type("j")
            tty.type("r")
            let spoken = await tty.read(
                until: { Self.underlined($0).joined().contains("Mening nummer 1") }, seconds: 20)
            let marked = Self.underlined(spoken)
            #expect(!spoken.contains("\u{1B}[38;") && !spoken.contains("\u{1B}[48;"), "NO_COLOR: no colour codes")
            #expect(
                marked.first?.contains("Andra") == true,
                "the voice starts at the chosen paragraph, marked without colour: \(marked)")
            #expect(
                !marked.contains { $0.contains("Första") }, "the paragraph before the chosen one is not read: \(marked)"
            )
        }
    }
}
#endif
