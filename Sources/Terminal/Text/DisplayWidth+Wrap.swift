extension DisplayWidth {
    /// The one way bok's output lines meet the terminal's edge: a line that fits is left as it
    /// is (its spacing and columns kept); a longer one is wrapped at word boundaries, its
    /// continuation lines indented as far as the line itself, so the terminal never breaks a
    /// word ("Type b⏎orrow"). A width of 0 or less means no limit (piped output).
    public static func wrapLine(_ line: String, width: Int) -> [String] {
        guard width > 0, of(line) > width else { return [line] }
        let indent = line.prefix { $0 == " " }.count
        return wrap(line, width: width, indent: indent < width / 2 ? indent : 0)
    }

    /// Word-wraps `text` into lines of at most `width` cells, each starting with `indent` spaces.
    ///
    /// Words are separated by spaces and tabs (runs of them collapse to one space; a no-break
    /// space does not separate); a line break in `text` starts a new line and an empty line
    /// stays empty. A word longer than a line is broken at the cell limit, never inside a
    /// grapheme cluster, so text without spaces (CJK) wraps too. No line exceeds `width`,
    /// except that a single wide character is kept whole when `width - indent` is 1.
    /// Escape codes count zero cells and stay with their words; a style that spans a break
    /// is not closed and re-opened, so paint after wrapping where that matters.
    /// - Parameters:
    ///   - text: The text to wrap.
    ///   - width: The most cells a line may take, indent included.
    ///   - indent: Spaces before every line; ignored when it leaves no room for text.
    ///   - firstLineIndent: Spaces before the first line, for hanging indents; defaults to `indent`.
    /// - Returns: The lines, without line breaks; empty for empty text.
    public static func wrap(_ text: String, width: Int, indent: Int = 0, firstLineIndent: Int? = nil) -> [String] {
        let width = max(1, width)
        func usableIndent(_ n: Int) -> Int { n > 0 && n < width ? n : 0 }
        let restIndent = usableIndent(indent)
        let firstIndent = usableIndent(firstLineIndent ?? indent)

        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var currentIndent: Int { lines.isEmpty ? firstIndent : restIndent }
        var available: Int { width - currentIndent }

        func finishLine() {
            lines.append(line.isEmpty ? "" : String(repeating: " ", count: currentIndent) + line)
            line = ""
            lineWidth = 0
        }

        for words in paragraphs(of: text) {
            if words.isEmpty {
                finishLine()
                continue
            }
            for var word in words {
                var wordWidth = of(word)
                if !line.isEmpty {
                    if lineWidth + 1 + wordWidth <= available {
                        line += " " + word
                        lineWidth += 1 + wordWidth
                        continue
                    }
                    finishLine()
                }
                // The line is empty here: break the word while it is longer than a line.
                while wordWidth > available {
                    let (head, tail) = splitPrefix(word, fitting: available)
                    guard !tail.isEmpty else { break }
                    line = head
                    finishLine()
                    word = tail
                    wordWidth = of(word)
                }
                line = word
                lineWidth = wordWidth
            }
            finishLine()
        }
        return lines
    }

    /// The words of each paragraph (a line of `text`); a final line break adds no paragraph.
    ///
    /// Splits on scalars rather than Characters: grapheme breaking the whole text twice
    /// (lines, then words) was most of the cost of wrapping.
    static func paragraphs(of text: String) -> [[String]] {
        var paragraphs: [[String]] = []
        var words: [String] = []
        let scalars = text.unicodeScalars
        var wordStart: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        var previousWasCR = false
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let isNewline = isLineBreak(scalar)
            if isNewline || isBreakingSpace(scalar) {
                if let start = wordStart {
                    words.append(String(scalars[start..<index]))
                    wordStart = nil
                }
                // CR LF is one line break.
                if isNewline, !(previousWasCR && scalar == "\n") {
                    paragraphs.append(words)
                    words = []
                }
            } else if wordStart == nil {
                wordStart = index
            }
            previousWasCR = scalar == "\r"
            index = scalars.index(after: index)
        }
        if let start = wordStart { words.append(String(scalars[start...])) }
        if let last = scalars.last, !isLineBreak(last) { paragraphs.append(words) }
        return paragraphs
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Whether a scalar separates words: spaces and tabs, but not no-break spaces.
    private static func isBreakingSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09: return true
        case 0x00A0, 0x2007, 0x202F: return false
        case ..<0x80: return false
        default: return scalar.properties.isWhitespace && !isLineBreak(scalar)
        }
    }
}
