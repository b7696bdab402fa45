/// Turns the bytes a terminal sends in raw mode into ``Key``s: UTF-8 text, control keys, the
/// CSI and SS3 sequences of xterm-like terminals for arrows, Home/End, PgUp/PgDn and function
/// keys, and SGR (1006) mouse reports for the wheel.
///
/// Bytes may arrive split anywhere, so the decoder keeps an unfinished sequence until more
/// bytes come. A lone Escape is ambiguous (it starts every sequence too): ``feed(_:)`` holds it
/// back, and the caller calls ``flush()`` when no more bytes arrive within a short wait
/// (25–50 ms), which turns it into ``Key/escape``.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Whether bytes are held back waiting for the rest of a sequence (call ``flush()`` after a
    /// short wait if nothing comes).
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes as many keys as the bytes so far make, keeping an unfinished sequence.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decode(pending, from: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Ends whatever is pending: a lone Escape becomes ``Key/escape``; Escape followed by a
    /// character is Alt plus that character, given as Escape and the character.
    public mutating func flush() -> [Key] {
        guard !pending.isEmpty else { return [] }
        var keys: [Key] = []
        if pending[0] == 0x1B {
            keys.append(.escape)
            pending.removeFirst()
            keys += feed([])
        }
        if !pending.isEmpty {
            keys.append(.unknown(String(decoding: pending, as: UTF8.self)))
            pending.removeAll()
        }
        return keys
    }

    /// One key from `bytes[start...]` and the bytes it took, `(nil, n)` for bytes to skip, or
    /// `nil` when the sequence is not complete yet.
    static func decode(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        let byte = bytes[start]
        switch byte {
        case 0x1B:
            return decodeEscape(bytes, from: start)
        case 0x0D, 0x0A:
            // A CR LF pair (some terminals send both for Enter) is one Enter.
            if byte == 0x0D, start + 1 < bytes.count, bytes[start + 1] == 0x0A { return (.enter, 2) }
            return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x00: return (.ctrl(" "), 1)
        case 0x01...0x1A:
            return (.ctrl(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x1C...0x1F:
            return (nil, 1)
        case 0x20...0x7E:
            return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            return decodeUTF8(bytes, from: start)
        }
    }

    private static func decodeUTF8(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        let byte = bytes[start]
        let length: Int
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)  // a stray continuation or invalid byte
        }
        guard start + length <= bytes.count else {
            // Wait for the rest, unless what came already cannot continue this character.
            for index in (start + 1)..<bytes.count where bytes[index] & 0xC0 != 0x80 { return (nil, 1) }
            return nil
        }
        let slice = bytes[start..<(start + length)]
        guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
            let scalar = String(validating: slice, as: UTF8.self)?.first
        else { return (nil, 1) }
        return (.character(scalar), length)
    }

    private static func decodeEscape(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        guard start + 1 < bytes.count else { return nil }
        let next = bytes[start + 1]
        switch next {
        case UInt8(ascii: "["):
            return decodeCSI(bytes, from: start)
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.count else { return nil }
            let key: Key
            switch bytes[start + 2] {
            case UInt8(ascii: "A"): key = .up
            case UInt8(ascii: "B"): key = .down
            case UInt8(ascii: "C"): key = .right
            case UInt8(ascii: "D"): key = .left
            case UInt8(ascii: "H"): key = .home
            case UInt8(ascii: "F"): key = .end
            case UInt8(ascii: "M"): key = .enter
            case UInt8(ascii: "P"): key = .function(1)
            case UInt8(ascii: "Q"): key = .function(2)
            case UInt8(ascii: "R"): key = .function(3)
            case UInt8(ascii: "S"): key = .function(4)
            default: key = .unknown("\u{1B}O" + String(UnicodeScalar(bytes[start + 2])))
            }
            return (key, 3)
        case 0x1B:
            // Escape pressed twice: the first is a key of its own.
            return (.escape, 1)
        default:
            // Alt plus a key: report Escape; the key follows as itself.
            return (.escape, 1)
        }
    }

    /// `ESC [` parameters (0x30–0x3F), intermediates (0x20–0x2F), then a final byte (0x40–0x7E).
    private static func decodeCSI(_ bytes: [UInt8], from start: Int) -> (Key?, Int)? {
        var index = start + 2
        while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else {
            // An endless run of parameter bytes is garbage, not a sequence to wait for.
            return index - start > 64 ? (.unknown("\u{1B}["), 2) : nil
        }
        let final = bytes[index]
        let length = index - start + 1
        let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        if parameters.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return (mouse(parameters.dropFirst(), pressed: final == UInt8(ascii: "M")), length)
        }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 }
        let key: Key
        switch final {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "Z"): key = .backTab
        case UInt8(ascii: "P"): key = .function(1)
        case UInt8(ascii: "Q"): key = .function(2)
        case UInt8(ascii: "S"): key = .function(4)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: key = .home
            case 2: key = .insert
            case 3: key = .delete
            case 4, 8: key = .end
            case 5: key = .pageUp
            case 6: key = .pageDown
            case 11, 12, 13, 14, 15: key = .function(first! - 10)
            case 17, 18, 19, 20, 21: key = .function(first! - 11)
            case 23, 24: key = .function(first! - 12)
            default: key = .unknown("\u{1B}[" + parameters + "~")
            }
        default:
            key = .unknown("\u{1B}[" + parameters + String(UnicodeScalar(final)))
        }
        return (key, length)
    }

    /// An SGR mouse report: `button;column;row`, `M` for press and `m` for release.
    private static func mouse(_ parameters: Substring, pressed: Bool) -> Key? {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3 else { return .unknown("\u{1B}[<" + parameters) }
        let (code, column, row) = (numbers[0], numbers[1], numbers[2])
        // Bits 2–4 are Shift, Meta, Ctrl; 32 is motion; 64 marks the wheel.
        let base = code & ~(4 | 8 | 16)
        switch base {
        case 64: return .wheelUp(row: row, column: column)
        case 65: return .wheelDown(row: row, column: column)
        case 0, 1, 2: return pressed ? .mousePress(button: base, row: row, column: column) : nil
        default: return nil  // releases, motion, other buttons
        }
    }
}
