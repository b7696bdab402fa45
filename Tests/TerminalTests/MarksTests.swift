import Terminal
import Testing

@Suite("Marks")
struct MarksTests {
    @Test("A UTF-8 locale gets the Unicode marks")
    func unicodeMarks() {
        let marks = Marks(TerminalCapabilities.detect(environment: ["LANG": "sv_SE.UTF-8"], isTTY: true))
        #expect(
            [marks.check, marks.cross, marks.arrow, marks.ellipsis, marks.bullet, marks.downArrow, marks.middleDot]
                == ["✓", "✗", "→", "…", "•", "↓", "·"])
        #expect(marks.quoted("Röda rummet") == "“Röda rummet”")
    }

    @Test("LANG=C gets plain ASCII marks, with nothing outside ASCII")
    func asciiMarks() {
        let marks = Marks(TerminalCapabilities.detect(environment: ["LANG": "C"], isTTY: true))
        let all = [
            marks.check, marks.cross, marks.arrow, marks.ellipsis, marks.bullet, marks.downArrow,
            marks.middleDot, marks.openQuote, marks.closeQuote,
        ]
        #expect(all == ["+", "x", "->", "...", "*", "v", "-", "\"", "\""])
        #expect(all.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
    }

    @Test("Unicode marks take one cell each, so columns with them line up")
    func marksAreNarrow() {
        let marks = Marks(unicode: true)
        for mark in [
            marks.check, marks.cross, marks.arrow, marks.ellipsis, marks.bullet, marks.downArrow, marks.middleDot,
        ] {
            #expect(DisplayWidth.of(mark) == 1, "\(mark)")
        }
    }
}
