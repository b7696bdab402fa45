/// Recognises terminal escape sequences one Unicode scalar at a time.
///
/// Handles CSI (`ESC [` … final byte, also the 8-bit U+009B), OSC and the other string
/// sequences (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`, ended by BEL or ST), and the short
/// `ESC` + final-byte forms. ``Ansi/strip(_:)`` and ``DisplayWidth`` share it so that what is
/// stripped is exactly what counts as zero cells.
struct EscapeScanner {
    private enum State {
        case ground
        case escape
        case escapeIntermediate
        case csi
        case string
        case stringEscape
    }

    private var state = State.ground

    /// Whether the scanner is between sequences (nothing started and unfinished).
    var isInGround: Bool { state == .ground }

    /// Feeds the next scalar and tells whether it belongs to an escape sequence.
    mutating func consumes(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch state {
        case .ground:
            switch v {
            case 0x1B: state = .escape
            case 0x9B: state = .csi
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
            default: return false
            }
            return true
        case .escape:
            switch v {
            case 0x5B: state = .csi  // [
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
            case 0x20...0x2F: state = .escapeIntermediate
            case 0x30...0x7E: state = .ground
            default:
                // A lone ESC: it is consumed, the scalar after it is ordinary text.
                state = .ground
                return consumes(scalar)
            }
            return true
        case .escapeIntermediate:
            switch v {
            case 0x20...0x2F: return true
            case 0x30...0x7E:
                state = .ground
                return true
            default:
                state = .ground
                return consumes(scalar)
            }
        case .csi:
            switch v {
            case 0x20...0x3F: return true  // parameters, intermediates
            case 0x40...0x7E:
                state = .ground
                return true  // final byte
            default:
                state = .ground
                return consumes(scalar)  // malformed: give the text back
            }
        case .string:
            switch v {
            case 0x07, 0x9C: state = .ground  // BEL or 8-bit ST
            case 0x1B: state = .stringEscape
            default: break
            }
            return true
        case .stringEscape:
            if v == 0x5C {
                state = .ground
                return true
            }  // ESC \ is ST
            // Any other ESC ends the string and starts a new sequence.
            state = .escape
            return consumes(scalar)
        }
    }

    /// Whether the string may contain an escape sequence (ESC or an 8-bit introducer).
    static func mightContainEscapes(_ s: some StringProtocol) -> Bool {
        // U+0090–U+009F are C2 90 … C2 9F in UTF-8.
        var previousWasC2 = false
        for byte in s.utf8 {
            if byte == 0x1B { return true }
            if previousWasC2, byte >= 0x90, byte <= 0x9F { return true }
            previousWasC2 = byte == 0xC2
        }
        return false
    }
}
