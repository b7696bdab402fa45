import Testing

@testable import Client

/// Shelf and grid rows lose their trailing spaces; the trim works on bytes, and must cut where
/// cutting whole characters cuts.
@Suite("Shelf rows trimmed of trailing spaces")
struct ShelfRowTrimTests {
    @Test(
        "Trailing spaces go, and only they, as when cut a character at a time",
        arguments: [
            "", " ", "   ", "Fritt fall", "Fritt fall   ", "  Åre ↓  42%  ", "Sample ", "a\u{0301} ", "e \u{0301}",
            "x\u{0600} ", "x\u{0600}  ", "👩‍💻  ", "tab\t ", "\u{00A0} ",
        ])
    func trimsLikeCharacters(_ line: String) {
        var expected = line
        while expected.hasSuffix(" ") { expected.removeLast() }
        #expect(line.trimmingTrailingSpaces() == expected)
        #expect(line.trimmingTrailingSpaces().utf8.elementsEqual(expected.utf8))
    }
}
