/// How many terminal cells text takes, and layout helpers built on that: truncate, pad, wrap.
///
/// Widths follow what terminals draw: East Asian Wide and Fullwidth characters (CJK, kana,
/// Hangul, fullwidth forms) and emoji take two cells; combining marks, joiners, variation
/// selectors, the soft hyphen, other format characters and control characters take none;
/// escape sequences take none. A tab counts zero: expand tabs before measuring.
public enum DisplayWidth {
    /// How a shorter text is placed in a wider column by ``pad(_:to:align:)``.
    public enum Alignment: Sendable, Hashable {
        /// Text at the left, spaces after it.
        case left
        /// Text at the right, spaces before it (numbers, counts).
        case right
        /// Text in the middle; an odd space goes after it.
        case center
    }

    /// The number of terminal cells `s` takes when printed.
    public static func of(_ s: String) -> Int {
        measure(s)
    }

    /// The number of terminal cells a slice of a string takes when printed.
    public static func of(_ s: Substring) -> Int {
        measure(s)
    }

    // Concrete public entry points: a generic public function would run unspecialized
    // from other modules, and this is called for every rendered line.
    private static func measure(_ s: some StringProtocol) -> Int {
        // Fast path: printable ASCII is one cell a byte, and most lines are just that.
        let printableASCII = s.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            return bytes.count
        }
        if let count = printableASCII ?? nil { return count }

        var measure = WidthMeasure()
        for scalar in s.unicodeScalars {
            measure.add(scalar)
        }
        return measure.width
    }

    /// The number of terminal cells one grapheme cluster takes (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        var measure = WidthMeasure()
        for scalar in character.unicodeScalars {
            measure.add(scalar)
        }
        return measure.width
    }

    /// The cells a single scalar takes on its own, before any joining rules.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0xA0 { return 0 }  // DEL and C1 controls
        if v == 0xAD { return 0 }  // soft hyphen
        if v < 0x300 { return 1 }  // Latin-1, Latin Extended: Å Ä Ö é
        // Common narrow blocks first, to skip the property lookup: dashes and quotes,
        // box drawing and block elements (borders, progress bars).
        if (0x2010...0x2027).contains(v) || (0x2500...0x259F).contains(v) { return 1 }
        // The big wide blocks, also without a lookup: CJK ideographs, Hangul syllables, kana.
        if (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0x3041...0x3096).contains(v) || (0x309B...0x30FF).contains(v)
        {
            return 2
        }
        if isWide(v) {
            // The only marks inside the wide ranges: ideographic tone marks, kana voicing marks.
            let isMark = (0x302A...0x302D).contains(v) || v == 0x3099 || v == 0x309A || v == 0x16FE4
            return isMark ? 0 : 2
        }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) {
            return 0  // Hangul medial vowels and final consonants
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        // Emoji newer than the generated table still take two cells.
        if v >= 0x1F000, scalar.properties.isEmojiPresentation, !isRegionalIndicator(v) { return 2 }
        return 1
    }

    static func isWide(_ v: UInt32) -> Bool {
        let ranges = WideCharacterTable.ranges
        guard v >= ranges[0].lowerBound else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < ranges[mid].lowerBound {
                high = mid - 1
            } else if v > ranges[mid].upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    static func isRegionalIndicator(_ v: UInt32) -> Bool {
        (0x1F1E6...0x1F1FF).contains(v)
    }
}
