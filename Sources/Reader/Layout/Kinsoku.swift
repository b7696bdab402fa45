/// What Japanese line breaking (kinsoku shori) forbids around a character: the JIS X 4051
/// classes a line may not start with (closing brackets, hyphens, dividing punctuation, middle
/// dots, full stops, commas, iteration marks, the prolonged sound mark, small kana) and those it
/// may not end with (opening brackets). The same holds for their ASCII forms beside wide text.
struct Kinsoku: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let none: Kinsoku = []
    /// A line may not start with this character (JIS X 4051 cl-02 to cl-07, cl-09 to cl-11).
    static let notAtLineStart = Kinsoku(rawValue: 1)
    /// A line may not end with this character (cl-01, opening brackets).
    static let notAtLineEnd = Kinsoku(rawValue: 2)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The rules for the character whose first scalar is `scalar`.
    init(_ scalar: UInt32) {
        // Laid out for every character that is not ASCII: most (Cyrillic, accented Latin, kanji)
        // are in none of the blocks these characters come from, and need no look-up.
        guard
            scalar == 0xAB || scalar == 0xBB || (0x2010...0x2049).contains(scalar)
                || (0x3001...0x31FF).contains(scalar) || (0xFF01...0xFF70).contains(scalar)
        else {
            self = .none
            return
        }
        if Self.lineStartProhibited.contains(scalar) || (0x31F0...0x31FF).contains(scalar) {
            self = .notAtLineStart
        } else if Self.lineEndProhibited.contains(scalar) {
            self = .notAtLineEnd
        } else {
            self = .none
        }
    }

    /// The rules for an ASCII character.
    init(ascii byte: UInt8) {
        switch byte {
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "."),
            UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ";"):
            self = .notAtLineStart
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
            self = .notAtLineEnd
        default:
            self = .none
        }
    }

    private static let lineStartProhibited: Set<UInt32> = Set(
        [
            // cl-02 closing brackets
            "’”）〕］｝〉》」』】〙〗〟｠»", "\u{FF63}",
            // cl-03 hyphens, cl-04 dividing punctuation, cl-05 middle dots
            "‐〜゠–", "！？‼⁇⁈⁉", "・：；",
            // cl-06 full stops, cl-07 commas
            "。．", "、，", "\u{FF61}\u{FF64}",
            // cl-09 iteration marks, cl-10 the prolonged sound mark, cl-11 small kana
            "ヽヾゝゞ々〻", "ー", "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ",
            "\u{FF67}\u{FF68}\u{FF69}\u{FF6A}\u{FF6B}\u{FF6C}\u{FF6D}\u{FF6E}\u{FF6F}\u{FF70}",
        ].flatMap { $0.unicodeScalars.map(\.value) })

    private static let lineEndProhibited: Set<UInt32> = Set(
        ["‘“（〔［｛〈《「『【〘〖〝｟«", "\u{FF62}"].flatMap { $0.unicodeScalars.map(\.value) })
}
