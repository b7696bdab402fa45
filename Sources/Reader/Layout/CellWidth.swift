internal import Terminal

/// Terminal cell widths for the layout: Terminal's `DisplayWidth`, behind an ASCII fast path
/// because the line breaker asks once per grapheme cluster of the whole book.
enum CellWidth {
    /// The number of terminal cells a grapheme cluster takes: 2 for wide East Asian characters
    /// and emoji, 0 for combining marks, format characters and the soft hyphen, 1 otherwise.
    @inline(__always)
    static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        return DisplayWidth.of(character)
    }

    /// The width of a whole string.
    static func of(_ text: String) -> Int { DisplayWidth.of(text) }

    /// The width of a slice of a string.
    static func of(_ text: Substring) -> Int { DisplayWidth.of(text) }
}
