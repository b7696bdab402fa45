import Terminal
import TestSupport
import Testing

@testable import Reader

#if os(Linux)
import Foundation
import Glibc
#endif

/// A book whose text carries terminal control sequences (raw, as character references, and as
/// 8-bit C1 codes): what the patron sees is visible and inert, and the terminal is never told to
/// change its title, clipboard, screen or mouse mode.
struct HostileBookTests {
    /// Sequences the book carries that bok itself never writes.
    static let injected = ["\u{1B}]0;PWNED", "\u{1B}]52;", "\u{9B}", "\u{1B}]8;;http://evil", "\u{1B}[5m", "\u{1B}P+q"]

    static func book() -> EPUBBuilder {
        var builder = EPUBBuilder(
            version: "3.0",
            chapters: [
                .init(
                    href: "one.xhtml", title: "Chapter\u{1B}]52;c;cHduZWQ=\u{07}One",
                    body: """
                        <h1>Chapter One</h1>
                        <p>Before\u{1B}[2J\u{1B}[?1049h\u{9B}31m&#27;]8;;http://evil.invalid/&#7;link&#x1B;]8;;&#7; \
                        after,\u{1B}[5m blinking\u{7F}\u{1B}P+q544e\u{1B}\\ done.</p>
                        <p>An override \u{202E}that never ends</p>
                        <p>The next paragraph reads left to right.</p>
                        """),
                .init(href: "two.xhtml", title: "Chapter Two", body: "<h1>Chapter Two</h1><p>Plain text.</p>"),
            ])
        builder.title = "Evil\u{1B}]0;PWNED\u{07}Book"
        return builder
    }

    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
    }

    @Test func metadataTOCAndPagesShowControlsAsVisibleCharacters() throws {
        let book = try Self.book().open()
        #expect(book.metadata.title == "Evil␛]0;PWNED␇Book")
        #expect(book.tableOfContents.first?.title == "Chapter␛]52;c;cHduZWQ=␇One")
        let text = book.document(at: 0).plainText
        #expect(
            text.contains(
                """
                Before␛[2J␛[?1049h\u{FFFD}31m␛]8;;http://evil.invalid/␇link␛]8;;␇ after,␛[5m blinking␡␛P+q544e␛\\ \
                done.
                """
            ))
        for piece in [book.metadata.title, text] + book.tableOfContents.map(\.title) {
            #expect(!Self.hasControls(piece), "\(piece.unicodeScalars.map { $0.escaped(asASCII: true) }.joined())")
        }
        // The override is closed inside the paragraph's isolate: the next paragraph is not reversed.
        let override = try #require(text.range(of: "An override"))
        let rest = text[override.lowerBound...]
        let paragraphEnd = try #require(rest.firstIndex(of: "\n") ?? rest.range(of: "The next")?.lowerBound)
        let paragraph = rest[..<paragraphEnd]
        #expect(paragraph.unicodeScalars.contains("\u{202C}"), "the override is closed before the paragraph ends")
    }

    #if os(Linux)
    @Test(.enabled(if: ReaderTerminalTests.binary != nil && access("/dev/ptmx", R_OK | W_OK) == 0))
    func theReaderNeverWritesTheBooksSequencesToTheTerminal() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid()).epub").path
        try Data(Self.book().build()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tty = try #require(PseudoTerminal(columns: 100, rows: 30))
        let before = tty.settings
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        let binary = try #require(ReaderTerminalTests.binary)
        let process = try #require(
            ChildProcess(binary, arguments: ["read", path], environment: environment, terminal: tty.device))
        var screen = await tty.read(until: { Ansi.strip($0).contains("done.") })
        tty.type("t")  // the table of contents, with its hostile label
        screen += await tty.read(until: { $0.contains("cHduZWQ=") }, seconds: 5)
        tty.type("\u{1B}")
        tty.type("q")
        screen += await tty.read(until: { $0.contains(ScreenCode.leaveAlternateScreen) })
        #expect(await process.waitForExit(seconds: 10))
        #expect(screen.contains("Before␛[2J"), "the page shows the codes as characters")
        #expect(screen.contains("␛]52;c;cHduZWQ="), "the TOC shows its label's codes as characters")
        for sequence in Self.injected {
            #expect(
                !screen.contains(sequence),
                "the book's \(sequence.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()) reached the terminal")
        }
        #expect(tty.settings == before)
    }
    #endif
}
