/// ISBN-13 numbers for generated books: valid check digits, unique within a catalogue.
enum ISBN {
    /// The check digit of the first twelve digits (weights 1, 3, 1, 3, …).
    static func checkDigit(_ twelve: [Int]) -> Int {
        var sum = 0
        for (position, digit) in twelve.enumerated() { sum += position % 2 == 0 ? digit : 3 * digit }
        return (10 - sum % 10) % 10
    }

    /// True when `text` is thirteen digits with a correct check digit.
    static func isValid(_ text: String) -> Bool {
        let digits = text.compactMap(\.wholeNumberValue)
        guard digits.count == 13, text.count == 13 else { return false }
        return checkDigit(Array(digits.prefix(12))) == digits[12]
    }

    /// The ISBN of book `index`: a registration group by language (978-91 Swedish, 978-1 English,
    /// 979-10 French…) and a serial that is a bijection of the index, so no two books share one
    /// and neighbours do not look sequential.
    static func make(index: Int, language: String) -> String { String(number(index: index, language: language)) }

    /// The ISBN of book `index` as a number (thirteen digits, the first a 9).
    static func number(index: Int, language: String) -> UInt64 {
        let group: UInt64
        let groupDigits: Int
        switch language {
        case "sv": (group, groupDigits) = (97891, 5)
        case "en": (group, groupDigits) = (9781, 4)
        case "da": (group, groupDigits) = (97887, 5)
        case "nb": (group, groupDigits) = (97882, 5)
        case "fi": (group, groupDigits) = (978951, 6)
        case "de": (group, groupDigits) = (9783, 4)
        case "fr": (group, groupDigits) = (97910, 5)
        default: (group, groupDigits) = (97884, 5)
        }
        // Plain integer arithmetic: `Character.wholeNumberValue` made this a quarter of generation
        // time, arrays of digits a twentieth of the index pass.
        let width = 12 - groupDigits
        var modulus = 1
        for _ in 0..<width { modulus *= 10 }
        // 7 919 is prime and coprime to every power of ten, so i ↦ (i·7919 + c) mod 10^w is one-to-one.
        let twelve = group * UInt64(modulus) + UInt64((index &* 7_919 &+ 104_729) % modulus)
        var sum = 0
        var rest = twelve
        for position in stride(from: 11, through: 0, by: -1) {
            let digit = Int(rest % 10)
            rest /= 10
            sum += position % 2 == 0 ? digit : 3 * digit
        }
        return twelve * 10 + UInt64((10 - sum % 10) % 10)
    }
}
