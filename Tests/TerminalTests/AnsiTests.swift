import Terminal
import Testing

@Suite("Styling with escape codes")
struct AnsiTests {
    static let colour = TerminalCapabilities(isTTY: true, colorDepth: .ansi16, unicode: true)

    @Test(
        "Without colour, painted text is the text itself",
        arguments: [
            TextStyle(foreground: .red, bold: true),
            TextStyle(foreground: .rgb(10, 200, 30), underline: true, inverse: true),
            TextStyle.dim,
        ])
    func noColorNoEscapes(style: TextStyle) {
        let caps = TerminalCapabilities.detect(environment: ["NO_COLOR": "1", "TERM": "xterm-256color"], isTTY: true)
        let text = "Tillgänglig ✓"
        #expect(Ansi.paint(text, style, caps: caps) == text)
        #expect(!Ansi.paint(text, style, caps: caps).contains("\u{1B}"))
    }

    @Test("Painting wraps the text in the style's codes and a reset")
    func paintSixteenColours() {
        #expect(
            Ansi.paint("ok", TextStyle(foreground: .green, bold: true), caps: Self.colour) == "\u{1B}[1;32mok\u{1B}[0m")
        #expect(Ansi.paint("note", TextStyle(foreground: .gray), caps: Self.colour) == "\u{1B}[90mnote\u{1B}[0m")
        #expect(
            Ansi.paint("x", TextStyle(italic: true, underline: true, inverse: true), caps: Self.colour)
                == "\u{1B}[3;4;7mx\u{1B}[0m")
    }

    @Test("A plain style or empty text adds no codes")
    func plainStyle() {
        #expect(Ansi.paint("text", .plain, caps: Self.colour) == "text")
        #expect(Ansi.paint("", .bold, caps: Self.colour) == "")
    }

    @Test("RGB is exact at 24 bits and approximated with fewer colours")
    func rgbFallback() {
        let orange = TextStyle(foreground: .rgb(255, 135, 0))
        let depths: [(ColorDepth, String)] = [
            (.trueColor, "\u{1B}[38;2;255;135;0mA\u{1B}[0m"),
            (.ansi256, "\u{1B}[38;5;208mA\u{1B}[0m"),
            (.ansi16, "\u{1B}[33mA\u{1B}[0m"),  // orange is nearest to yellow of the 16
        ]
        for (depth, expected) in depths {
            let caps = TerminalCapabilities(isTTY: true, colorDepth: depth, unicode: true)
            #expect(Ansi.paint("A", orange, caps: caps) == expected)
        }
        let gray = TerminalCapabilities(isTTY: true, colorDepth: .ansi256, unicode: true)
        #expect(Ansi.paint("g", TextStyle(background: .rgb(128, 128, 128)), caps: gray) == "\u{1B}[48;5;244mg\u{1B}[0m")
    }

    @Test("Named colours keep the 16-colour codes so they follow the user's theme")
    func namedColoursAtTrueColor() {
        let caps = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)
        #expect(Ansi.paint("r", .color(.red), caps: caps) == "\u{1B}[31mr\u{1B}[0m")
    }

    @Test("A painted part inside painted text keeps the outer style after it")
    func nestedPaint() {
        let inner = Ansi.paint("3 days", .bold, caps: Self.colour)
        let outer = Ansi.paint("Due in \(inner)!", .color(.yellow), caps: Self.colour)
        #expect(outer == "\u{1B}[33mDue in \u{1B}[1m3 days\u{1B}[0m\u{1B}[33m!\u{1B}[0m")
        #expect(Ansi.strip(outer) == "Due in 3 days!")
    }

    @Test(
        "strip removes CSI, OSC and other escapes and keeps the text",
        arguments: [
            ("\u{1B}[1;31mRed\u{1B}[0m text", "Red text"),
            ("\u{1B}]8;;https://example.org\u{07}link\u{1B}]8;;\u{07}", "link"),
            ("\u{1B}]0;title\u{1B}\\after", "after"),
            ("\u{1B}[38;2;1;2;3mÅäö 漢字\u{1B}[m", "Åäö 漢字"),
            ("\u{9B}31mC1\u{9B}0m", "C1"),
            ("\u{1B}7saved\u{1B}8", "saved"),
            ("\u{1B}(Bcharset", "charset"),
            ("no escapes at all", "no escapes at all"),
            ("e\u{301} 👩‍💻", "e\u{301} 👩‍💻"),
        ])
    func strip(input: String, expected: String) {
        #expect(Ansi.strip(input) == expected)
    }

    @Test("Stripping painted text gives back the text at every depth", arguments: ColorDepth.allCases)
    func stripRoundTrip(depth: ColorDepth) {
        let caps = TerminalCapabilities(isTTY: true, colorDepth: depth, unicode: true)
        let text = "Selma Lagerlöf – Nils Holgerssons underbara resa"
        let style = TextStyle(foreground: .rgb(200, 100, 50), background: .blue, bold: true, underline: true)
        #expect(Ansi.strip(Ansi.paint(text, style, caps: caps)) == text)
    }
}
