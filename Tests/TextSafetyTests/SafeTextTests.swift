import Testing
import TextSafety

/// What a hostile catalogue or book puts in its text, and what the patron must see instead.
struct SafeTextTests {
    static let hostileTitle = "Evil\u{1B}]0;PWNED\u{07}\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2JTitle"

    @Test func escapeSequencesBecomeVisibleAndInert() {
        let safe = SafeText.line(Self.hostileTitle)
        #expect(safe == "Evil␛]0;PWNED␇␛]52;c;cHduZWQ=␇␛[2JTitle")
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    /// A hostile input and what must be shown; named in escaped form so that the test log
    /// itself carries no raw control bytes.
    struct Case: CustomTestStringConvertible, Sendable {
        let input: String
        let expected: String
        var testDescription: String { input.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
    }

    @Test(arguments: [
        Case(input: "\u{9B}2J", expected: "\u{FFFD}2J"),  // C1 CSI
        Case(input: "\u{90}q\u{9C}", expected: "\u{FFFD}q\u{FFFD}"),  // C1 DCS … ST
        Case(input: "a\u{7F}b", expected: "a␡b"),
        Case(input: "nul\u{0}here", expected: "nul␀here"),
        Case(input: "\u{1B}", expected: "␛"),  // a lone escape byte
        Case(input: "\u{1B}P1$r\u{1B}\\", expected: "␛P1$r␛\\"),  // DCS
    ])
    func controlsOfEveryKindAreReplaced(_ c: Case) {
        #expect(SafeText.line(c.input) == c.expected)
        #expect(SafeText.text(c.input) == c.expected)
    }

    @Test func plainTextComesBackUnchanged() {
        for text in ["Vintern 1953", "Åsa Ärnlund – Ödets väg", "東京物語", "שלום עולם", "emoji 👩‍👩‍👧", ""] {
            #expect(SafeText.line(text) == text)
            #expect(SafeText.isSafeLine(text))
        }
    }

    @Test func lineBreaksAreLaidOut() {
        #expect(SafeText.line("one\ttwo\r\nthree\nfour\rfive\u{2028}six") == "one two three four five six")
        #expect(SafeText.text("one\ttwo\r\nthree\rfour\u{2029}five") == "one\ttwo\nthree\nfour\nfive")
    }

    @Test func bidiOverridesAreIsolatedAndBalanced() {
        // An override left open would reverse bok's own words after the title.
        let safe = SafeText.line("abc\u{202E}elbaliava")
        #expect(safe == "\u{2068}abc\u{202E}elbaliava\u{202C}\u{2069}")
        // A closer without an opener would end bok's isolate early: it is dropped.
        #expect(SafeText.line("x\u{2069}\u{202C}y") == "\u{2068}xy\u{2069}")
        // Balanced isolates stay as they are, inside the outer isolate.
        #expect(SafeText.line("a\u{2066}b\u{2069}c") == "\u{2068}a\u{2066}b\u{2069}c\u{2069}")
        // A PDI closes the embeddings opened inside its isolate.
        #expect(SafeText.line("\u{2067}\u{202B}x\u{2069}") == "\u{2068}\u{2067}\u{202B}x\u{2069}\u{2069}")
    }

    @Test func aLineWithALimitIsCutWithAnEllipsisAndStaysBalanced() {
        #expect(SafeText.line("Fritt fall", limit: 10) == "Fritt fall")
        #expect(SafeText.line("Fritt fall!", limit: 10) == "Fritt fal…")
        #expect(SafeText.line("a\nb", limit: 10) == "a b")
        // An override opened before the cut is closed at it, before the ellipsis.
        #expect(SafeText.line("ab\u{202E}cdefgh", limit: 5) == "\u{2068}ab\u{202E}c\u{202C}\u{2069}…")
        // One character of a megabyte (a letter and its combining marks) is cut as well.
        let heavy = "e" + String(repeating: "\u{301}", count: 1 << 20)
        #expect(SafeText.line(heavy, limit: 8).unicodeScalars.count == 8)
    }

    @Test func theOutputGuardKeepsColourAndStopsEverythingElse() {
        let bokLine = "\u{1B}[1mTitle\u{1B}[0m \u{1B}[38;5;208mmark\u{1B}[0m"
        #expect(SafeText.guardingOutput(bokLine) == bokLine)
        let slipped = "\u{1B}[1m" + Self.hostileTitle + "\u{1B}[0m \u{1B}[?1049h\u{1B}[?1000h"
        let guarded = SafeText.guardingOutput(slipped)
        #expect(guarded == "\u{1B}[1mEvil␛]0;PWNED␇␛]52;c;cHduZWQ=␇␛[2JTitle\u{1B}[0m ␛[?1049h␛[?1000h")
    }
}
