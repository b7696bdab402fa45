/// Adds up cell widths scalar by scalar, with the rules that join scalars into one glyph.
///
/// Working on scalars instead of grapheme clusters keeps measuring fast; the joining rules
/// (ZWJ sequences, VS16, skin tones, flag pairs, keycaps) give the same result as measuring
/// each cluster, so the sum over a string equals the sum over its Characters.
struct WidthMeasure {
    private(set) var width = 0
    private var escapes = EscapeScanner()
    /// Width of the last base glyph, so that VS16 can widen it.
    private var lastBaseWidth = 0
    /// The last base glyph, looked at only when a VS16 follows (the property lookup is slow).
    private var lastBase: Unicode.Scalar = " "
    /// The previous scalar was a zero-width joiner: the next emoji joins the last glyph.
    private var afterJoiner = false
    /// An odd regional indicator is waiting for its partner.
    private var openFlag = false

    mutating func add(_ scalar: Unicode.Scalar) {
        if escapes.consumes(scalar) { return }
        let v = scalar.value
        if v >= 0x20, v < 0x7F {
            width += 1
            lastBaseWidth = 1
            lastBase = scalar
            afterJoiner = false
            openFlag = false
            return
        }
        switch v {
        case 0x200D:  // zero-width joiner
            afterJoiner = true
            return
        case 0xFE0F:  // VS16: emoji presentation
            // Only a base that can be an emoji (❤, digits of keycaps) turns wide.
            if lastBaseWidth == 1, lastBase.properties.isEmoji {
                width += 1
                lastBaseWidth = 2
            }
            return
        case 0x1F3FB...0x1F3FF where lastBaseWidth == 2:  // skin tone on an emoji
            return
        default:
            break
        }
        if DisplayWidth.isRegionalIndicator(v) {
            afterJoiner = false
            if openFlag {
                // The pair is one flag, two cells: the first indicator already counted one.
                width += 1
                lastBaseWidth = 2
                openFlag = false
            } else {
                width += 1
                lastBaseWidth = 1
                openFlag = true
            }
            return
        }
        let w = DisplayWidth.width(of: scalar)
        if w == 0 { return }
        openFlag = false
        if afterJoiner, lastBaseWidth == 2 {
            // 👩‍💻: the joined emoji draws inside the first one's two cells.
            afterJoiner = false
            return
        }
        afterJoiner = false
        width += w
        lastBaseWidth = w
        lastBase = scalar
    }
}
