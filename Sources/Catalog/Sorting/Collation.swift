internal import Foundation

/// Locale-aware text order for titles, names and publishers, computed as sort keys.
///
/// Swedish order puts Å, Ä, Ö after Z (Æ sorts as Ä, Ø as Ö, Ü as Y); English order reads them
/// as A and O with an accent. Keys are computed once per string, so sorting 10 000 titles is a
/// sort of integer arrays rather than 140 000 locale comparisons.
public struct Collation: Sendable, Hashable {
    /// Which alphabet the order follows.
    public enum Alphabet: String, Sendable, Hashable {
        /// Å, Ä, Ö are letters after Z (Swedish, also Finnish).
        case swedish
        /// Accented letters sort with their base letter.
        case english
    }

    /// The alphabet in use.
    public let alphabet: Alphabet

    /// Creates a collation for an alphabet.
    public init(_ alphabet: Alphabet) { self.alphabet = alphabet }

    /// The collation for a BCP 47 or POSIX locale (`sv-SE`, `sv_SE.UTF-8`, `fi`, `en-GB`).
    public init(locale: String?) {
        let language = String((locale ?? "").lowercased().prefix { $0.isLetter })
        self.init(Self.alphabets[language] ?? .english)
    }

    /// The languages whose alphabet is not English's, by their ISO 639 code: Finnish, like
    /// Swedish, puts Å, Ä, Ö after Z.
    static let alphabets: [String: Alphabet] = ["sv": .swedish, "fi": .swedish]

    /// A comparable key: primary letters, then accents, then case, as bytes compared with `memcmp`.
    public struct Key: Sendable, Hashable, Comparable {
        let bytes: [UInt8]
        public static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.bytes.withUnsafeBufferPointer { a in
                rhs.bytes.withUnsafeBufferPointer { b in
                    let common = min(a.count, b.count)
                    if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
                        let order = memcmp(pa, pb, common)
                        if order != 0 { return order < 0 }
                    }
                    return a.count < b.count
                }
            }
        }
    }

    /// The sort key of `text`.
    public func key(_ text: String) -> Key {
        var writer = KeyWriter(self)
        writer.add(text)
        var bytes: [UInt8] = []
        writer.finish(appendingTo: &bytes)
        return Key(bytes: bytes)
    }

    /// Appends the bytes of `text`'s sort key to `bytes`: keys compared as bytes (`memcmp`, then
    /// the shorter first) are in the order `key(_:)`'s are. For keeping many keys in one array.
    public func appendKey(_ text: String, to bytes: inout [UInt8]) {
        var writer = KeyWriter(self)
        writer.add(text)
        writer.finish(appendingTo: &bytes)
    }

    /// Writes sort keys, reusing its buffers from one key to the next.
    ///
    /// A key may be written from several texts, read as if they were one: the author key is
    /// written from the last name, a space and the first name, without building that string.
    /// ASCII takes a fast path with no Unicode property look-ups: titles and names are mostly
    /// ASCII, and sorting 10 000 of them must take milliseconds, not a tenth of a second.
    struct KeyWriter {
        /// The alphabet the keys follow.
        let collation: Collation
        /// The letters of the key being written, with word breaks (weight 1) between words.
        private var letters: [Letter] = []
        private var lastWasSpace = true

        /// One letter's weights at the three levels.
        private struct Letter {
            var weight: UInt32
            var accent: UInt32
            var upper: Bool
        }

        /// Creates a writer for `collation`'s keys.
        init(_ collation: Collation) { self.collation = collation }

        /// Adds the letters of `text` to the key being written.
        mutating func add(_ text: String) {
            // A scalar gives at most as many letters as it has UTF-8 bytes (æ gives a and e).
            letters.reserveCapacity(letters.count + text.utf8.count)
            for scalar in text.unicodeScalars { add(scalar) }
        }

        /// Adds one scalar to the key being written.
        @inline(__always)
        mutating func add(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if value < 0x80 {
                switch value {
                case 0x61...0x7A:
                    append(Collation.letterBase + value - 0x61, accent: 0, upper: false)
                case 0x41...0x5A:
                    append(Collation.letterBase + value - 0x41, accent: 0, upper: true)
                case 0x30...0x39:
                    append(10 + value - 0x30, accent: 0, upper: false)
                case 0x20, 0x09, 0x0A, 0x2D:
                    // Spaces separate words (so "Ek Anna" sorts before "Eka"); other punctuation is ignored.
                    appendWordBreak()
                default:
                    break
                }
                return
            }
            // Combining marks (from decomposed input) add an accent to the previous letter.
            if (0x300...0x36F).contains(value) {
                if !letters.isEmpty { letters[letters.count - 1].accent += value - 0x2FF }
                return
            }
            let (lower, isUpper) = Collation.lowercased(scalar)
            if !appendLetter(lower, upper: isUpper), scalar.properties.isWhitespace {
                appendWordBreak()
            }
        }

        /// Appends the key of everything added since the last call to `bytes`, and starts a new key.
        mutating func finish(appendingTo bytes: inout [UInt8]) {
            while letters.last?.weight == 1 { letters.removeLast() }
            // Primary weights big-endian in two bytes each, then a zero pair, accents, a zero, case.
            // Written in place: appending byte by byte costs more than computing the weights.
            var position = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: letters.count * 4 + 3))
            bytes.withUnsafeMutableBufferPointer { key in
                for letter in letters {
                    let clamped = min(letter.weight, 0xFFFF)
                    key[position] = UInt8(clamped >> 8)
                    key[position + 1] = UInt8(clamped & 0xFF)
                    position += 2
                }
                position += 2
                for letter in letters {
                    key[position] = UInt8(min(letter.accent, 0xFF))
                    position += 1
                }
                position += 1
                for letter in letters {
                    key[position] = letter.upper ? 1 : 0
                    position += 1
                }
            }
            letters.removeAll(keepingCapacity: true)
            lastWasSpace = true
        }

        private mutating func append(_ weight: UInt32, accent: UInt32, upper: Bool) {
            letters.append(Letter(weight: weight, accent: accent, upper: upper))
            lastWasSpace = false
        }

        private mutating func appendWordBreak() {
            if !lastWasSpace { letters.append(Letter(weight: 1, accent: 0, upper: false)) }
            lastWasSpace = true
        }

        /// Appends the weights of a lower-case non-ASCII letter; false if it is not one.
        private mutating func appendLetter(_ s: Unicode.Scalar, upper: Bool) -> Bool {
            // Some letters lower-case to ASCII (the Kelvin sign to k, İ to i).
            let v = s.value
            if v >= 0x61, v <= 0x7A {
                append(Collation.letterBase + v - 0x61, accent: 0, upper: upper)
                return true
            }
            if v >= 0x30, v <= 0x39 {
                append(10 + v - 0x30, accent: 0, upper: upper)
                return true
            }
            if v < 0x80 { return false }
            if collation.alphabet == .swedish {
                switch s {
                case "å":
                    append(Collation.swedishAring, accent: 0, upper: upper)
                    return true
                case "ä":
                    append(Collation.swedishAuml, accent: 0, upper: upper)
                    return true
                case "æ":
                    append(Collation.swedishAuml, accent: 20, upper: upper)
                    return true
                case "ö":
                    append(Collation.swedishOuml, accent: 0, upper: upper)
                    return true
                case "ø":
                    append(Collation.swedishOuml, accent: 20, upper: upper)
                    return true
                // ü sorts as y in Swedish.
                case "ü":
                    append(Collation.letterBase + 24, accent: 4, upper: upper)
                    return true
                default: break
                }
            }
            if let folded = Collation.latin[s] {
                for letter in folded.letters.unicodeScalars {
                    append(Collation.letterBase + letter.value - 0x61, accent: folded.accent, upper: upper)
                }
                return true
            }
            if s.properties.isAlphabetic || s.properties.numericType != nil {
                append(1000 + v, accent: 0, upper: upper)
                return true
            }
            return false
        }
    }

    /// The lower-case form of a letter and whether it was upper case; Latin-1 without look-ups.
    static func lowercased(_ scalar: Unicode.Scalar) -> (Unicode.Scalar, Bool) {
        let value = scalar.value
        if value >= 0xC0, value <= 0xDE, value != 0xD7 { return (Unicode.Scalar(value + 0x20)!, true) }
        if value >= 0xDF, value <= 0xFF { return (scalar, false) }
        guard scalar.properties.isUppercase else { return (scalar, false) }
        return (scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar, true)
    }

    /// True when `a` sorts before `b`.
    public func areInIncreasingOrder(_ a: String, _ b: String) -> Bool { key(a) < key(b) }

    /// Sorts `items` by the text `text` extracts, computing each key once.
    public func sorted<T>(_ items: [T], by text: (T) -> String, descending: Bool = false) -> [T] {
        let keyed = items.map { (key(text($0)), $0) }
        let sorted = keyed.sorted { descending ? $1.0 < $0.0 : $0.0 < $1.0 }
        return sorted.map(\.1)
    }

    // MARK: Weights

    // Primary weights: 1 word separator, 10–19 digits, 100–125 a–z, 126–128 å ä ö (Swedish),
    // 1000 + code point for letters of other scripts.
    private static let letterBase: UInt32 = 100
    private static let swedishAring: UInt32 = 126
    private static let swedishAuml: UInt32 = 127
    private static let swedishOuml: UInt32 = 128

    /// Folds one scalar for search matching (see `SearchQuery.fold`).
    static func foldForSearch(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
        let v = s.value
        if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { return [s] }
        if v >= 0x41, v <= 0x5A { return [Unicode.Scalar(v + 0x20)!] }
        let lower = s.properties.isUppercase ? (s.properties.lowercaseMapping.unicodeScalars.first ?? s) : s
        switch lower {
        case "å", "ä", "ö": return [lower]
        case "æ": return ["ä"]
        case "ø": return ["ö"]
        default: break
        }
        if let folded = latin[lower] { return Array(folded.letters.unicodeScalars) }
        if (0x300...0x36F).contains(v) { return [] }
        if lower.properties.isAlphabetic || lower.properties.numericType != nil { return [lower] }
        return [" "]
    }

    /// Latin letters with accents: their base letters and an accent number (for the secondary level).
    private static let latin: [Unicode.Scalar: (letters: String, accent: UInt32)] = {
        // accent numbers: 1 acute 2 grave 3 circumflex 4 diaeresis 5 ring 6 tilde 7 cedilla
        // 8 caron 9 stroke 10 macron 11 ogonek 12 dot 13 double acute 14 breve 15 ligature
        let table: [(String, String, UInt32)] = [
            ("á", "a", 1), ("à", "a", 2), ("â", "a", 3), ("ä", "a", 4), ("å", "a", 5), ("ã", "a", 6),
            ("ā", "a", 10), ("ą", "a", 11), ("ă", "a", 14), ("æ", "ae", 15),
            ("ç", "c", 7), ("ć", "c", 1), ("č", "c", 8), ("ď", "d", 8), ("đ", "d", 9), ("ð", "d", 9),
            ("é", "e", 1), ("è", "e", 2), ("ê", "e", 3), ("ë", "e", 4), ("ē", "e", 10), ("ę", "e", 11),
            ("ė", "e", 12), ("ě", "e", 8),
            ("í", "i", 1), ("ì", "i", 2), ("î", "i", 3), ("ï", "i", 4), ("ī", "i", 10), ("į", "i", 11),
            ("ı", "i", 12),
            ("ł", "l", 9), ("ľ", "l", 8), ("ĺ", "l", 1),
            ("ñ", "n", 6), ("ń", "n", 1), ("ň", "n", 8),
            ("ó", "o", 1), ("ò", "o", 2), ("ô", "o", 3), ("ö", "o", 4), ("õ", "o", 6), ("ø", "o", 9),
            ("ō", "o", 10), ("ő", "o", 13), ("œ", "oe", 15),
            ("ŕ", "r", 1), ("ř", "r", 8), ("ś", "s", 1), ("š", "s", 8), ("ş", "s", 7), ("ș", "s", 7),
            ("ß", "ss", 15), ("ť", "t", 8), ("ţ", "t", 7), ("ț", "t", 7), ("þ", "th", 15),
            ("ú", "u", 1), ("ù", "u", 2), ("û", "u", 3), ("ü", "u", 4), ("ů", "u", 5), ("ū", "u", 10),
            ("ű", "u", 13), ("ý", "y", 1), ("ÿ", "y", 4), ("ź", "z", 1), ("ž", "z", 8), ("ż", "z", 12),
        ]
        var map: [Unicode.Scalar: (String, UInt32)] = [:]
        for (letter, base, accent) in table { map[letter.unicodeScalars.first!] = (base, accent) }
        return map
    }()
}
