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
    static func make(index: Int, language: String) -> String {
        let group: [UInt8]
        switch language {
        case "sv": group = [9, 7, 8, 9, 1]
        case "en": group = [9, 7, 8, 1]
        case "da": group = [9, 7, 8, 8, 7]
        case "nb": group = [9, 7, 8, 8, 2]
        case "fi": group = [9, 7, 8, 9, 5, 1]
        case "de": group = [9, 7, 8, 3]
        case "fr": group = [9, 7, 9, 1, 0]
        default: group = [9, 7, 8, 8, 4]
        }
        // Plain integer arithmetic: `Character.wholeNumberValue` made this a quarter of generation time.
        var digits = group
        let width = 12 - group.count
        var modulus = 1
        for _ in 0..<width { modulus *= 10 }
        // 7 919 is prime and coprime to every power of ten, so i ↦ (i·7919 + c) mod 10^w is one-to-one.
        var serial = (index &* 7_919 &+ 104_729) % modulus
        var serialDigits = [UInt8](repeating: 0, count: width)
        for position in stride(from: width - 1, through: 0, by: -1) {
            serialDigits[position] = UInt8(serial % 10)
            serial /= 10
        }
        digits += serialDigits
        digits.append(UInt8(checkDigit(digits.map(Int.init))))
        return String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }
}
