import Terminal
import Testing

@Suite("Word wrap")
struct WrapTests {
    static let texts = [
        "Nils Holgersson is a boy who is turned into a tiny elf and travels across Sweden on the back of a goose.",
        "Ett litet ord, ett längre ord, och ett extraordinärtlångtordsomintegårattradbryta utan att dela det.",
        "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",
        "Mixed 漢字 and Åäö with e\u{301}mojis 👩‍💻 and flags 🇸🇪🇳🇴 here.",
        "short",
    ]

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    @Test("No line is wider than the width", arguments: [4, 7, 10, 20, 33, 80])
    func linesFit(width: Int) {
        for text in Self.texts {
            for indent in [0, 2] {
                for line in DisplayWidth.wrap(text, width: width, indent: indent) {
                    #expect(DisplayWidth.of(line) <= width, "width \(width): \(line)")
                }
            }
        }
    }

    @Test("No word is lost: the lines put back together give the text", arguments: [4, 7, 10, 20, 33, 80])
    func noWordLost(width: Int) {
        for text in Self.texts {
            let lines = DisplayWidth.wrap(text, width: width)
            // Long words are broken without a hyphen, so joining by characters must give them back.
            let rejoined = lines.joined()
            #expect(rejoined.filter { $0 != " " } == text.filter { $0 != " " }, "width \(width)")
            for word in Self.words(text) where DisplayWidth.of(word) <= width {
                #expect(lines.contains { Self.words($0).contains(word) }, "\(word) was split at width \(width)")
            }
        }
    }

    @Test("Words that fit are kept whole and lines are filled greedily")
    func greedy() {
        #expect(DisplayWidth.wrap("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
        #expect(DisplayWidth.wrap("a  b\t\tc", width: 80) == ["a b c"])
    }

    @Test("Indent goes before every line and counts in the width")
    func indent() {
        let lines = DisplayWidth.wrap("one two three four five", width: 11, indent: 2)
        #expect(lines == ["  one two", "  three", "  four five"])
        let hanging = DisplayWidth.wrap("one two three four five", width: 11, indent: 3, firstLineIndent: 0)
        #expect(hanging == ["one two", "   three", "   four", "   five"])
    }

    @Test("Line breaks in the text are kept, blank lines too")
    func paragraphs() {
        #expect(DisplayWidth.wrap("first para\n\nsecond", width: 20) == ["first para", "", "second"])
        #expect(DisplayWidth.wrap("ends with newline\n", width: 40) == ["ends with newline"])
        #expect(DisplayWidth.wrap("", width: 10) == [])
    }

    @Test("Over-long words are broken at the cell limit, wide characters kept whole")
    func longWords() {
        #expect(DisplayWidth.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("漢字漢字漢", width: 5) == ["漢字", "漢字", "漢"])
    }

    @Test("A no-break space keeps its words together")
    func noBreakSpace() {
        #expect(DisplayWidth.wrap("page 10\u{A0}km away", width: 9) == ["page", "10\u{A0}km", "away"])
    }
}

extension WrapTests {
    @Test("Coloured words wrap by their visible width and keep their codes")
    func styledWords() {
        let caps = TerminalCapabilities(isTTY: true, colorDepth: .ansi16, unicode: true)
        let text = "Available: " + Ansi.paint("Ronja Rövardotter", .color(.green), caps: caps) + " by Astrid Lindgren"
        let lines = DisplayWidth.wrap(text, width: 17)
        #expect(lines.map(Ansi.strip) == ["Available: Ronja", "Rövardotter by", "Astrid Lindgren"])
        #expect(lines.joined(separator: " ").contains("\u{1B}[32mRonja"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 17 })
    }
}
