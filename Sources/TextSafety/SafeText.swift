/// Text that someone else wrote, made safe to draw on a terminal: the one boundary every piece
/// of outside text (a server's titles and errors, a book's pages and metadata, file names,
/// scenario and config files) passes before bok shows it.
///
/// A terminal obeys control characters in the text it is sent: ESC and the 8-bit C1 introducers
/// start sequences that set the window title (OSC 0), write the clipboard (OSC 52), clear the
/// screen or switch mouse reporting on; bidirectional controls reorder whatever is drawn after
/// them on the line. So:
/// - C0 controls (except tab and newline, which are laid out) become their Control Pictures
///   (ESC → `␛`, BEL → `␇`), DEL becomes `␡`, and C1 controls (U+0080–U+009F, which have no
///   pictures) become U+FFFD `�`: the patron sees that something was there, and nothing acts.
/// - Bidirectional embeddings, overrides and isolates are balanced (an unmatched closer is
///   dropped, an unclosed opener is closed) and the whole text is put in one isolate (FSI … PDI),
///   so it cannot reorder bok's own words around it (a title cannot make "✗ unavailable" read
///   as "✓").
///
/// Text without any of these comes back unchanged (the check is one pass over the UTF-8 bytes),
/// so calling this on every title costs next to nothing.
public enum SafeText {
    /// One line of outside text (a title, a name, a label): tabs, newlines and other line breaks
    /// (CR, form feed, vertical tab, U+2028/U+2029) become single spaces; controls become
    /// visible replacements.
    public static func line(_ text: String) -> String {
        guard needsWork(text, keepingLineBreaks: false) else { return text }
        return clean(text, keepingLineBreaks: false)
    }

    /// One line of outside text, as ``line(_:)``, of at most `limit` Unicode scalars: cut there with
    /// an ellipsis, any bidirectional control opened before the cut closed at it.
    ///
    /// Only the first `limit` scalars are looked at, so a megabyte of text (or one character with a
    /// megabyte of combining marks) costs what a short one does, and stays off the screen.
    public static func line(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
            cut != scalars.endIndex
        else { return line(text) }
        let kept = scalars.index(scalars.startIndex, offsetBy: max(0, limit - 1))
        return line(String(scalars[..<kept])) + "…"
    }

    /// Outside text that may run over several lines (a description, an error body, a book's
    /// page): newlines and tabs stay for the layout (CR LF, lone CR, form feed, vertical tab and
    /// U+2028/U+2029 become a newline); controls become visible replacements.
    public static func text(_ text: String) -> String {
        guard needsWork(text, keepingLineBreaks: true) else { return text }
        return clean(text, keepingLineBreaks: true)
    }

    /// Whether `text` would come back from ``line(_:)`` unchanged.
    public static func isSafeLine(_ text: String) -> Bool { !needsWork(text, keepingLineBreaks: false) }

    /// The visible stand-in for a control scalar, or nil when `scalar` is not a control.
    public static func replacement(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let v = scalar.value
        switch v {
        case 0x00...0x1F: return Unicode.Scalar(0x2400 + v)  // ␀ … ␟ (␛ for ESC)
        case 0x7F: return "\u{2421}"  // ␡
        case 0x80...0x9F: return "\u{FFFD}"
        default: return nil
        }
    }

    // MARK: - Output guard

    /// A last guard on a line bok is about to write to a terminal: keeps bok's own colour codes
    /// (SGR, `ESC [ digits ; … m`) and makes every other control visible, as ``text(_:)`` does.
    ///
    /// Outside text is cleaned where it enters bok; this catches anything that slipped past
    /// (a file name in a message, a path from the environment) so that no screen can forget it.
    /// Bidirectional controls left open at the end of the line (outside text wrapped over
    /// several lines) are closed there, so nothing carries over into the next line bok writes.
    public static func guardingOutput(_ line: String) -> String {
        // Nearly every line holds nothing to guard: one fast pass (which sees every control the
        // two below look for) says so, where those two passes cost a shelf of thousands of lines.
        guard needsWork(line, keepingLineBreaks: true) else { return line }
        let line = balancingBidi(line)
        guard hasControls(line) else { return line }
        let scalars = Array(line.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var plain = String.UnicodeScalarView()
        func flush() {
            kept.append(contentsOf: visibleControls(String(plain)).unicodeScalars)
            plain.removeAll()
        }
        var i = 0
        while i < scalars.count {
            if let end = sgrEnd(scalars, from: i) {
                flush()
                kept.append(contentsOf: scalars[i..<end])
                i = end
            } else {
                plain.append(scalars[i])
                i += 1
            }
        }
        flush()
        return String(kept)
    }

    /// Every control but tab and newline made visible, ESC included; bidi controls untouched.
    ///
    /// For text that should hold no escape code at all (a row of the reader is styled by its
    /// segments, never by codes in its text): a guard for anything that slipped past entry.
    public static func visibleControls(_ text: String) -> String {
        guard hasControls(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            out.append(scalar == "\n" || scalar == "\t" ? scalar : replacement(for: scalar) ?? scalar)
        }
        return String(out)
    }

    /// The text with every bidirectional embedding, override and isolate closed at its end and
    /// every closer without an opener dropped; text without bidi controls comes back unchanged.
    ///
    /// Layout calls this where it cuts outside text short (an ellipsis, a column, a line end),
    /// so that an isolate opened in the text cannot run on over what bok draws after the cut.
    public static func balancingBidi(_ text: String) -> String {
        guard hasBidiControls(text) else { return text }
        var out = String.UnicodeScalarView()
        var openers: [Opener] = []
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x202A, 0x202B, 0x202D, 0x202E:
                openers.append(.embedding)
                out.append(scalar)
            case 0x2066, 0x2067, 0x2068:
                openers.append(.isolate)
                out.append(scalar)
            case 0x202C:
                if openers.last == .embedding {
                    openers.removeLast()
                    out.append(scalar)
                }
            case 0x2069:
                if let index = openers.lastIndex(of: .isolate) {
                    openers.removeSubrange(index...)
                    out.append(scalar)
                }
            default: out.append(scalar)
            }
        }
        guard !openers.isEmpty || out.count != text.unicodeScalars.count else { return text }
        for opener in openers.reversed() { out.append(opener == .embedding ? "\u{202C}" : "\u{2069}") }
        return String(out)
    }

    /// Whether the text holds an embedding, override or isolate control (U+202A–E, U+2066–9).
    private static func hasBidiControls(_ text: String) -> Bool {
        var b1: UInt8 = 0
        var b2: UInt8 = 0
        for b in text.utf8 {
            if b1 == 0xE2, b2 == 0x80, (0xAA...0xAE).contains(b) { return true }
            if b1 == 0xE2, b2 == 0x81, (0xA6...0xA9).contains(b) { return true }
            b1 = b2
            b2 = b
        }
        return false
    }

    /// The index after an SGR sequence starting at `i` (`ESC [`, digits, `;` or `:`, then `m`).
    private static func sgrEnd(_ scalars: [Unicode.Scalar], from i: Int) -> Int? {
        guard scalars[i] == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" else { return nil }
        var j = i + 2
        while j < scalars.count {
            switch scalars[j] {
            case "0"..."9", ";", ":": j += 1
            case "m": return j + 1
            default: return nil
            }
        }
        return nil
    }

    // MARK: - Cleaning

    private enum Opener { case embedding, isolate }

    private static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    private static func clean(_ text: String, keepingLineBreaks: Bool) -> String {
        var out = String.UnicodeScalarView()
        var openers: [Opener] = []
        var sawBidi = false
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let wasCR = previousWasCR
            previousWasCR = false
            switch v {
            case 0x0A:
                if keepingLineBreaks { if !wasCR { out.append("\n") } } else if !wasCR { out.append(" ") }
            case 0x0D:
                out.append(keepingLineBreaks ? "\n" : " ")
                previousWasCR = true
            case 0x0B, 0x0C, 0x2028, 0x2029:
                out.append(keepingLineBreaks ? "\n" : " ")
            case 0x09:
                out.append(keepingLineBreaks ? "\t" : " ")
            case 0x202A, 0x202B, 0x202D, 0x202E:  // LRE RLE LRO RLO
                sawBidi = true
                openers.append(.embedding)
                out.append(scalar)
            case 0x2066, 0x2067, 0x2068:  // LRI RLI FSI
                sawBidi = true
                openers.append(.isolate)
                out.append(scalar)
            case 0x202C:  // PDF: only closes an embedding
                sawBidi = true
                if openers.last == .embedding {
                    openers.removeLast()
                    out.append(scalar)
                }
            case 0x2069:  // PDI: closes an isolate and what it holds
                sawBidi = true
                if let index = openers.lastIndex(of: .isolate) {
                    openers.removeSubrange(index...)
                    out.append(scalar)
                }
            case 0x200E, 0x200F, 0x061C:  // LRM RLM ALM: harmless inside the isolate
                sawBidi = true
                out.append(scalar)
            default:
                if let picture = replacement(for: scalar) { out.append(picture) } else { out.append(scalar) }
            }
        }
        for opener in openers.reversed() {
            out.append(opener == .embedding ? "\u{202C}" : "\u{2069}")
        }
        guard sawBidi else { return String(out) }
        return "\u{2068}" + String(out) + "\u{2069}"
    }

    /// Whether the text holds a control other than tab and newline (C0, DEL, C1).
    private static func hasControls(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for b in text.utf8 {
            if b < 0x20, b != 0x0A, b != 0x09 { return true }
            if b == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(b)) { return true }
            previous = b
        }
        return false
    }

    /// Whether any scalar needs cleaning; one pass over UTF-8 bytes, no decoding. Every text of
    /// a chapter passes here, so printable ASCII, nearly all of it, costs one comparison a byte.
    private static func needsWork(_ text: String, keepingLineBreaks: Bool) -> Bool {
        let contiguous = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let count = bytes.count
            let raw = UnsafeRawPointer(bytes.baseAddress)
            var index = 0
            while index < count {
                // Eight bytes at a time while they are all printable ASCII (0x20–0x7E).
                if let raw, index + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    let high: UInt64 = 0x8080_8080_8080_8080
                    if (word &- ones &* 0x20) & ~word & high == 0, (word | (word &+ ones)) & high == 0 {
                        index += 8
                        continue
                    }
                }
                let b = bytes[index]
                index += 1
                if b >= 0x20, b < 0x7F { continue }
                if b < 0x20 {
                    if keepingLineBreaks, b == 0x0A || b == 0x09 { continue }
                    return true
                }
                if b == 0x7F { return true }
                // A lead byte: look at the bytes after it (UTF-8 in a String is valid).
                let next = index < count ? bytes[index] : 0
                let third = index + 1 < count ? bytes[index + 1] : 0
                if b == 0xC2, (0x80...0x9F).contains(next) { return true }  // C1
                if b == 0xD8, next == 0x9C { return true }  // U+061C ALM
                if b == 0xE2, next == 0x80, (0x8E...0x8F).contains(third) || (0xA8...0xAE).contains(third) {
                    return true
                }
                if b == 0xE2, next == 0x81, (0xA6...0xA9).contains(third) { return true }  // U+2066–U+2069
            }
            return false
        }
        if let contiguous { return contiguous }
        var utf8 = text.utf8.makeIterator()
        var b1: UInt8 = 0
        var b2: UInt8 = 0  // the two bytes before the current one
        while let b = utf8.next() {
            defer {
                b1 = b2
                b2 = b
            }
            if b < 0x20 {
                if keepingLineBreaks, b == 0x0A || b == 0x09 { continue }
                return true
            }
            if b == 0x7F { return true }
            if b2 == 0xC2, (0x80...0x9F).contains(b) { return true }  // C1
            if b2 == 0xD8, b == 0x9C { return true }  // U+061C ALM
            if b1 == 0xE2, b2 == 0x80, (0x8E...0x8F).contains(b) || (0xA8...0xAE).contains(b) { return true }
            if b1 == 0xE2, b2 == 0x81, (0xA6...0xA9).contains(b) { return true }  // U+2066–U+2069
        }
        return false
    }
}
