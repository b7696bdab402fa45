import Terminal
import Testing

@Suite("Display width")
struct DisplayWidthTests {
    @Test(
        "Cells per string",
        arguments: [
            ("", 0),
            ("hello", 5),
            ("漢字", 4),
            ("日本語のテキスト", 16),
            ("한국어", 6),
            ("ｆｕｌｌ", 8),
            ("e\u{301}", 1),
            ("a\u{0308}o\u{0308}", 2),
            ("Å Ä Ö", 5),
            ("Åsa Öberg går", 13),
            ("😀", 2),
            ("👍🏽", 2),
            ("👩‍💻", 2),
            ("👨‍👩‍👧‍👦", 2),
            ("🇸🇪", 2),
            ("❤️", 2),
            ("1️⃣", 2),
            ("✓ ✗ → …", 7),
            ("soft\u{AD}hyphen", 10),
            ("zero\u{200B}width", 9),
            ("tab\there", 7),
            ("bell\u{07}", 4),
            ("\u{1B}[1;31mred\u{1B}[0m", 3),
            ("\u{1B}]8;;https://x.org\u{1B}\\漢\u{1B}]8;;\u{1B}\\", 2),
            ("Straße – “quote”", 16),
        ])
    func widths(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected)
    }

    @Test("The width of a string is the sum of its characters' widths")
    func sumOfCharacters() {
        let samples = ["Åsa 漢字 e\u{301} 👩‍💻 🇸🇪 ❤️ 1️⃣ 👍🏽 ok", "한국어 テキスト ｆｕｌｌ", "mixed ✓ ascii"]
        for sample in samples {
            #expect(sample.reduce(0) { $0 + DisplayWidth.of($1) } == DisplayWidth.of(sample), "\(sample)")
        }
    }

    @Test("Truncation never goes over the width and never splits a character", arguments: Array(0...14))
    func truncateFits(width: Int) {
        let samples = [
            "Astrid Lindgren: Bröderna Lejonhjärta", "漢字かな交じり文の本のタイトル",
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", "👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻", "short",
        ]
        for sample in samples {
            let cut = DisplayWidth.truncate(sample, to: width)
            #expect(DisplayWidth.of(cut) <= width, "\(sample) → \(cut)")
            let kept = cut.hasSuffix("…") ? String(cut.dropLast()) : cut
            #expect(sample.hasPrefix(kept), "\(sample) → \(cut)")
        }
    }

    @Test("Truncation examples")
    func truncateExamples() {
        #expect(DisplayWidth.truncate("Pippi Långstrump", to: 10) == "Pippi Lån…")
        #expect(DisplayWidth.truncate("Pippi Långstrump", to: 10, ellipsis: "...") == "Pippi L...")
        #expect(DisplayWidth.truncate("Pippi", to: 10) == "Pippi")
        #expect(DisplayWidth.truncate("漢字漢字", to: 4) == "漢…")
        #expect(DisplayWidth.truncate("漢字漢字", to: 6) == "漢字…")  // 5 cells: the third 漢 would not fit
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.truncate("abcdef", to: 2, ellipsis: "...") == "..")
    }

    @Test("Truncating coloured text keeps the codes and cuts only the text")
    func truncateStyled() {
        let caps = TerminalCapabilities(isTTY: true, colorDepth: .ansi16, unicode: true)
        let styled = Ansi.paint("Bröderna Lejonhjärta", .color(.green), caps: caps)
        let cut = DisplayWidth.truncate(styled, to: 8)
        #expect(Ansi.strip(cut) == "Brödern…")
        #expect(cut.hasPrefix("\u{1B}[32m"))
        #expect(cut.hasSuffix(Ansi.reset))
    }

    @Test("Padded and fitted columns line up whatever the script")
    func columnsAlign() {
        let titles = [
            "Nils Holgersson", "漢字の本", "Åke", "e\u{301}te\u{301}", "👩‍💻 code", "A very long title that is cut",
        ]
        let rows = titles.map { DisplayWidth.fit($0, to: 12) + " | " + DisplayWidth.pad("7", to: 3, align: .right) }
        for row in rows {
            #expect(DisplayWidth.of(row) == 18, "\(row)")
            // The separator sits in the same cell column on every row.
            let beforeBar = row.prefix { $0 != "|" }
            #expect(DisplayWidth.of(String(beforeBar)) == 13, "\(row)")
        }
        #expect(DisplayWidth.pad("ab", to: 6, align: .center) == "  ab  ")
        #expect(DisplayWidth.pad("too wide", to: 3) == "too wide")
    }

    @Test("Measuring a long ASCII line is fast enough to do on every render")
    func asciiFastPath() {
        let line = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40)
        var total = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<1_000 { total &+= DisplayWidth.of(line) }
        }
        #expect(total == 1_000 * line.utf8.count)
        #expect(elapsed < .seconds(2))
    }
}
