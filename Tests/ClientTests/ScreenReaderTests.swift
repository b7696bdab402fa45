#if os(Linux)
import Foundation
import Glibc
import Terminal
import TestSupport
import Testing

/// `--screen-reader` (issue 32): the reader writes lines once, for a screen reader or braille
/// display, with no alternate screen, no box drawing and no repaint; a page turn writes its
/// text once with the cursor put at its start; every panel answers a number; and the prompt's
/// marks are words.
@Suite(
    "The screen-reader mode", .serialized,
    .enabled(if: access("/dev/ptmx", R_OK | W_OK) == 0, "needs /dev/ptmx"))
struct ScreenReaderTests {
    /// The most a page turn of an 80 × 24 window may write for a screen reader: the page's text
    /// (at most 20 lines of 80 characters) with its place line and the cursor's moves.
    static let pageTurnBound = 1_900

    /// Box drawing (U+2500–U+257F) and block elements (U+2580–U+259F): read out as noise.
    static func hasBoxDrawing(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x2500...0x259F).contains($0.value) }
    }

    /// A three-chapter EPUB 3 with headings, lists, a link, a footnote and a picture, and
    /// enough text for several pages, written with Python's zipfile.
    static func book(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("harbour.epub")
        let script = #"""
            import sys, zipfile
            path = sys.argv[1]
            para = ("The ferry left the harbour at dawn, and the gulls followed it out past the lighthouse "
                    "while the town was still asleep behind its shutters. ")
            def chapter(n, title, extra):
                body = "".join(f"<p>{para * 3}</p>" for _ in range(9))
                return (f'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
                        f'<head><title>{title}</title></head><body><h1>{title}</h1>{extra}{body}</body></html>')
            first = ('<p>Read the <a href="c2.xhtml">second chapter</a> first, or the note'
                     '<a epub:type="noteref" href="#n1">1</a>.</p>'
                     '<ul><li>Bread</li><li>Salt</li></ul><ol><li>Row out</li><li>Come back</li></ol>'
                     '<img src="map.png" alt="A map of the harbour"/>'
                     '<aside epub:type="footnote" id="n1"><p>The note says the ferry was late.</p></aside>')
            with zipfile.ZipFile(path, "w") as z:
                z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
                z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
                    'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" '
                    'media-type="application/oebps-package+xml"/></rootfiles></container>')
                items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
                                for i in (1, 2, 3))
                spine = "".join(f'<itemref idref="c{i}"/>' for i in (1, 2, 3))
                z.writestr("c.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
                    'unique-identifier="i"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier '
                    'id="i">urn:uuid:32</dc:identifier><dc:title>Harbour</dc:title><dc:language>en</dc:language>'
                    '</metadata><manifest><item id="n" href="nav.xhtml" media-type="application/xhtml+xml" '
                    f'properties="nav"/>{items}</manifest><spine>{spine}</spine></package>')
                z.writestr("nav.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml" '
                    'xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>'
                    '<li><a href="c1.xhtml">The Ferry</a></li><li><a href="c2.xhtml">The Island</a></li>'
                    '<li><a href="c3.xhtml">The Return</a></li></ol></nav></body></html>')
                z.writestr("c1.xhtml", chapter(1, "The Ferry", first))
                z.writestr("c2.xhtml", chapter(2, "The Island", ""))
                z.writestr("c3.xhtml", chapter(3, "The Return", ""))
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return url
    }

    /// `bok ARGUMENTS` on `tty`, in a home of its own under `folder`, at a colour terminal.
    static func start(_ arguments: [String], on tty: PseudoTerminal, home: URL) throws -> ChildProcess {
        let environment = BokProcess.environment(
            home: home,
            ["TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8", "SWIFT_BACKTRACE": "enable=no"])
        return try #require(
            ChildProcess(
                OneShotProcessTests.binary.path, arguments: arguments, environment: environment,
                terminal: tty.device))
    }

    /// The folder a test works in, removed after it.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-sr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The bytes of one page turn (Space) once the reader shows `ready`, and what it wrote up to then.
    static func pageTurn(
        _ arguments: [String], ready: String, turned: String
    ) async throws -> (
        opening: String, turn: String
    ) {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.book(in: folder)
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let process = try Self.start(arguments + [book.path], on: tty, home: folder)
        let opening = await tty.read(until: { Ansi.strip($0).contains(ready) })
        try await Task.sleep(for: .milliseconds(300))
        _ = tty.screen()  // a redraw once the contents are read
        tty.type(" ")
        let turn = await tty.read(until: { Ansi.strip($0).contains(turned) })
        try await Task.sleep(for: .milliseconds(200))
        let rest = turn + tty.screen()
        tty.type("q")
        #expect(await process.waitForExit(seconds: 10))
        return (opening, rest)
    }

    @Test("A page turn writes the new text once as lines, with the cursor at its start, and no screen codes")
    func pageTurnIsLinear() async throws {
        let (opening, turn) = try await Self.pageTurn(
            ["--screen-reader", "read"], ready: "Page 1 of", turned: "Page 2 of")
        #expect(!opening.contains(ScreenCode.enterAlternateScreen), "no alternate screen")
        #expect(!opening.contains(ScreenCode.hideCursor), "the cursor stays: it is the focus")
        #expect(!Self.hasBoxDrawing(opening + turn))
        let text = Ansi.strip(opening)
        #expect(text.contains("Heading: The Ferry"), "\(text)")
        #expect(text.contains("Link 1: second chapter"), "\(text)")
        #expect(text.contains("Footnote link 2: 1"), "\(text)")
        #expect(text.contains("List item: Bread"), "\(text)")
        #expect(text.contains("List item 2: Come back"), "\(text)")
        #expect(text.contains("Image: A map of the harbour"), "\(text)")
        #expect(text.contains("Footnote: The note says the ferry was late."), "\(text)")

        for code in [ScreenCode.clearScreen, "\u{1B}[2J", ScreenCode.home, "\u{1B}[?1049"] {
            #expect(!turn.contains(code), "a page turn wrote \(code.debugDescription)")
        }
        #expect(turn.utf8.count < Self.pageTurnBound, "a page turn wrote \(turn.utf8.count) bytes")
        // Written below what was there, then the cursor up to the first new line (`Page 2 of 6.`).
        let lines = turn.components(separatedBy: "\r\n")
        let up = try #require(lines.last?.firstMatch(of: /\x1B\[(\d+)A$/), "\(turn.debugDescription)")
        let written = lines.dropLast().drop { !$0.contains("Page 2 of") }
        #expect(Int(up.1) == written.count, "the cursor goes up \(up.1) rows to the page's \(written.count) lines")
        let first = try #require(written.first?.split(separator: "\r").last.map(String.init))
        #expect(first.hasPrefix("The Ferry. Page 2 of") && first.hasSuffix("."), "\(first.debugDescription)")
    }

    @Test("The contents, the links, the bookmarks and the keys are numbered lists a number answers")
    func panelsByNumber() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.book(in: folder)
        let tty = try #require(PseudoTerminal(columns: 80, rows: 24))
        let process = try Self.start(["--screen-reader", "read", book.path], on: tty, home: folder)
        _ = await tty.read(until: { Ansi.strip($0).contains("Page 1 of") })
        try await Task.sleep(for: .milliseconds(300))
        _ = tty.screen()

        /// Types `keys` and returns what the reader said until `text` showed.
        func type(_ keys: String, until text: String) async -> String {
            tty.type(keys)
            return Ansi.strip(await tty.read(until: { Ansi.strip($0).contains(text) }))
        }
        var said = await type("t", until: "3. The Return")
        #expect(said.contains("Contents, 3 entries. Type a number and Enter"), "\(said)")
        #expect(said.contains("1. The Ferry"), "\(said)")
        #expect(!Self.hasBoxDrawing(said))
        said = await type("3\r", until: "Heading: The Return")
        #expect(said.contains("The Return. Page 1 of"), "\(said)")

        _ = await type("g", until: "Heading: The Ferry")
        said = await type("f", until: "2. Note 1")
        #expect(said.contains("Links on this page, 2 entries."), "\(said)")
        #expect(said.contains("1. second chapter"), "\(said)")
        said = await type("1\r", until: "Heading: The Island")
        #expect(said.contains("The Island. Page 1 of"), "\(said)")

        _ = await type("m", until: "Bookmark")
        _ = await type("g", until: "Heading: The Ferry")
        said = await type("'", until: "1. “")
        #expect(said.contains("Bookmarks, 1 entry."), "\(said)")
        said = await type("1\r", until: "Heading: The Island")
        #expect(said.contains("The Island. Page 1 of"), "\(said)")

        said = await type("?", until: "close the book")
        #expect(said.contains("Keys. Esc closes."), "\(said)")
        #expect(said.contains("1 2 3: in a list: the number of an entry, then Enter to go there"), "\(said)")
        tty.type("\u{1B}")
        tty.type("q")
        #expect(await process.waitForExit(seconds: 10))
        #expect(process.exitCode == 0)
    }

    @Test("Bytes per page turn, full-screen and for a screen reader (figures for docs/accessibility.md)")
    func bytesPerPageTurn() async throws {
        let full = try await Self.pageTurn(["read"], ready: "The Ferry", turned: "2/")
        let linear = try await Self.pageTurn(["--screen-reader", "read"], ready: "Page 1 of", turned: "Page 2 of")
        print(
            "bytes per page turn, 80 × 24: full-screen \(full.turn.utf8.count), screen reader \(linear.turn.utf8.count)"
        )
        #expect(full.turn.contains("\u{1B}["), "the full-screen reader moves the cursor to draw")
        #expect(linear.turn.utf8.count < full.turn.utf8.count, "a screen reader gets fewer bytes a turn")
    }

    @Test("At the prompt the marks are words, and a slow library is said once on a line of its own")
    func promptInWords() async throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            patronScript(arguments: ["\"--mock\"", "\"--screen-reader\""]) + """
                until("> ")
                type("mock fault latency 1500"); until("1500")
                out[0] = b""
                type("top 3"); until("Top 3")
                until("> ", 5)
                type("view grid"); until("Top 3"); until("> ", 5)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let output = try await runPatronScript(script, binary: OneShotProcessTests.binary, home: home)
        let text = Ansi.strip(output)
        #expect(text.contains("Waiting for the library… Ctrl-C stops waiting\r\n"), "\(text)")
        #expect(text.components(separatedBy: "Waiting for the library").count == 2, "said once: \(text)")
        #expect(!output.contains("\r\u{1B}[K"), "nothing is cleared or redrawn: \(output.debugDescription)")
        #expect(!text.contains { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏✓✗·".contains($0) }, "no spinner frames or marks: \(text)")
        #expect(text.contains(" 1  Available - "), "\(text)")
        #expect(!Self.hasBoxDrawing(text))
        // view grid: still a list, a line a book, for a screen reader.
        #expect(text.components(separatedBy: " 1  Available - ").count == 3, "\(text)")
    }

    @Test("A screen reader found turns the mode on and the banner says why; screen-reader = off in the config wins")
    func foundByItself() async throws {
        let script =
            patronScript(environment: ["GNOME_ACCESSIBILITY": "1"]) + """
                until("> ")
                type("top 1"); until("Top 1"); until("> ", 5)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        var text = Ansi.strip(try await runPatronScript(script, binary: OneShotProcessTests.binary, home: home))
        #expect(text.contains("Written for a screen reader, found by Orca (GNOME_ACCESSIBILITY=1)"), "\(text)")
        #expect(text.contains(" 1  Available - "), "\(text)")

        let config = home.appendingPathComponent("config/bok")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "screen-reader = off\n".write(
            to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        text = Ansi.strip(try await runPatronScript(script, binary: OneShotProcessTests.binary, home: home))
        #expect(!text.contains("Written for a screen reader"), "\(text)")
        #expect(text.contains(" 1  ✓ Available · "), "\(text)")
    }
}
#endif
