/// The block being filled: its runs of styled text, their length, its soft hyphens, and whether
/// white space is pending.
struct BlockText {
    /// The block's state at one moment, to take what was added since out again.
    struct Mark {
        let runs: Int
        let lastRunLength: Int?
        let length: Int
        let pendingSpace: Bool
    }

    private(set) var runs: [TextRun] = []
    /// The length of the runs' text, in UTF-16 units.
    private(set) var length = 0
    /// Where the text may break with a hyphen (U+00AD), as UTF-16 offsets into the block.
    private(set) var softHyphens: [Int] = []
    /// Whether the last character written is a collapsible space (or a line break), so more white space adds nothing.
    private(set) var pendingSpace = false
    /// Whether a `pre` block has had content, after which a newline is kept.
    private var sawPreContent = false

    /// The block's text.
    var text: String { runs.map(\.text).joined() }

    /// The block as it is now.
    var mark: Mark {
        Mark(runs: runs.count, lastRunLength: runs.last?.text.utf16.count, length: length, pendingSpace: pendingSpace)
    }

    /// Appends character data, collapsing white space (unless `preserve`, in `pre`) and setting
    /// soft hyphens aside. Works on UTF-8 bytes: this runs for every character of the book, so
    /// stretches with neither white space nor a soft hyphen are copied whole.
    mutating func append(_ raw: String, style: InlineStyle, link: LinkDestination?, preserve: Bool) {
        var text =
            style.isDisjoint(with: [.smallCaps, .lowercase, .capitalized])
            ? raw
            : TextRules.letters(
                raw, style: style,
                afterLetter: !pendingSpace && runs.last?.text.last.map { $0.isLetter || $0.isNumber } == true)
        var out: [UInt8] = []
        var added = 0  // UTF-16 units in `out`
        text.withUTF8 { bytes in
            out.reserveCapacity(bytes.count)
            let count = bytes.count
            var index = 0
            while index < count {
                // Bytes kept as they are, up to white space, a control or U+00AD's first byte;
                // outside `pre`, a single space after a word is kept as it is too.
                let start = index
                var units = 0
                while index < count {
                    let byte = bytes[index]
                    if byte <= 0x20 || byte == 0xC2 {
                        guard byte == 0x20, !preserve, index > start, bytes[index - 1] != 0x20 else { break }
                    }
                    if byte < 0x80 || byte >= 0xC0 { units += byte >= 0xF0 ? 2 : 1 }
                    index += 1
                }
                if index > start {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    added += units
                    pendingSpace = bytes[index - 1] == 0x20
                    sawPreContent = true
                }
                guard index < count else { break }
                index = appendByte(at: index, of: bytes, to: &out, added: &added, preserve: preserve)
            }
        }
        if !out.isEmpty { appendRun(String(decoding: out, as: UTF8.self), length: added, style: style, link: link) }
    }

    /// ``append(_:style:link:preserve:)``'s work on one byte that may be white space or a soft
    /// hyphen; returns the index of the byte after what it took.
    private mutating func appendByte(
        at index: Int, of bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], added: inout Int, preserve: Bool
    ) -> Int {
        let byte = bytes[index]
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xAD {  // U+00AD soft hyphen
            softHyphens.append(length + added)
            return index + 2
        }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
            if preserve {
                if byte == 0x0D { return index + 1 }
                if byte == 0x0A, length + added == 0, !sawPreContent {
                    // HTML drops a newline right after `<pre>`.
                    sawPreContent = true
                    return index + 1
                }
                if byte == 0x09 {
                    out.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
                    added += 4
                } else {
                    out.append(byte == 0x0C ? 0x20 : byte)
                    added += 1
                }
                sawPreContent = true
            } else if length + added > 0, !pendingSpace {
                // The collapsed space goes where the white space began, in that run's style.
                out.append(0x20)
                added += 1
                pendingSpace = true
            }
            return index + 1
        }
        pendingSpace = false
        sawPreContent = true
        out.append(byte)
        if byte < 0x80 { added += 1 } else if byte >= 0xF0 { added += 2 } else if byte >= 0xC0 { added += 1 }
        return index + 1
    }

    /// Appends text as it is, but for a leading space where one is pending.
    mutating func appendLiteral(_ text: String, style: InlineStyle) {
        let literal = pendingSpace && text.hasPrefix(" ") ? String(text.dropFirst()) : text
        pendingSpace = literal.hasSuffix(" ")
        appendRun(literal, length: literal.utf16.count, style: style, link: nil)
    }

    /// Appends text that the next word follows without a space (an opening quotation mark).
    mutating func appendOpening(_ text: String, style: InlineStyle) {
        appendLiteral(text, style: style)
        pendingSpace = false
    }

    /// Appends text glued to the word before it (a closing quotation mark, a ruby's parentheses).
    mutating func appendClosing(_ text: String, style: InlineStyle) {
        if pendingSpace { trimTrailingSpace() }
        appendLiteral(text, style: style)
        pendingSpace = false
    }

    /// A forced line break (`<br>`), unless the block has no text yet; white space after it
    /// collapses into it.
    mutating func appendLineBreak(style: InlineStyle) {
        guard length > 0 else { return }
        if pendingSpace { trimTrailingSpace() }
        appendLiteral("\n", style: style)
        pendingSpace = true
    }

    /// A space between words, where a block ends inside a table cell.
    mutating func appendWordSeparator() {
        if length > 0, !pendingSpace { appendLiteral(" ", style: []) }
    }

    /// Appends text of `length` UTF-16 units as it is, to the last run if it has the same style and link.
    mutating func appendRun(_ text: String, length: Int, style: InlineStyle, link: LinkDestination?) {
        if let last = runs.last, last.style == style, last.link == link {
            // In place: a copy of the run would copy its text on every append.
            runs[runs.count - 1].text += text
        } else {
            runs.append(TextRun(text: text, style: style, link: link))
        }
        self.length += length
    }

    private mutating func trimTrailingSpace() {
        guard let last = runs.last, last.text.unicodeScalars.last == " " else { return }
        runs[runs.count - 1].text.unicodeScalars.removeLast()
        length -= 1
        if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
    }

    /// Trims trailing spaces and line breaks, which carry nothing; whether anything is left worth
    /// a block (in `pre`, any text; elsewhere, more than spaces).
    mutating func trim(preformatted: Bool) -> Bool {
        while let last = runs.last, let trailing = last.text.unicodeScalars.last, trailing == "\n" || trailing == " " {
            runs[runs.count - 1].text.unicodeScalars.removeLast()
            length -= 1
            if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
        }
        guard !preformatted else { return !runs.isEmpty }
        return runs.contains { run in
            run.text.unicodeScalars.contains { $0 != " " && $0 != "\u{A0}" && $0 != "\n" }
        }
    }

    /// Keeps only the soft hyphens inside the text, not at its ends, as the block is committed.
    mutating func keepInnerSoftHyphens() {
        softHyphens.removeAll { $0 <= 0 || $0 >= length }
    }

    /// Takes the text added since `start` out again when it is only a line or verse number
    /// ("city directors;180"): in a terminal it would be glued to the verse. A drop cap or a
    /// floated word stays.
    mutating func dropIfLineNumber(since start: Mark) {
        guard start.runs <= runs.count, start.runs > 0 || start.lastRunLength == nil else { return }
        var added = ""
        if let kept = start.lastRunLength, start.runs > 0 {
            added = String(decoding: runs[start.runs - 1].text.utf16.dropFirst(kept), as: UTF16.self)
        }
        added += runs[start.runs...].map(\.text).joined()
        let number = added.trimmed
        guard !number.isEmpty, number.count <= 6,
            number.allSatisfy({ $0.isNumber }) || number.lowercased().allSatisfy({ "ivxlcdm".contains($0) })
        else { return }
        runs.removeSubrange(start.runs...)
        if let kept = start.lastRunLength, start.runs > 0 {
            let text = runs[start.runs - 1].text
            runs[start.runs - 1].text = String(decoding: text.utf16.prefix(kept), as: UTF16.self)
        }
        softHyphens.removeAll { $0 >= start.length }
        length = start.length
        pendingSpace = start.pendingSpace
    }
}
