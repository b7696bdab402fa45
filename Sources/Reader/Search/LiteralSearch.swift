/// Finding plain words without a regular expression: what most searches are.
///
/// A byte scan over the chapters' UTF-8 finds an ASCII phrase (ignoring ASCII case unless told
/// otherwise) several times faster than the expression engine, which first copies each chapter
/// to UTF-16; offsets are still reported in UTF-16 code units, counted along the way.
enum LiteralSearch {
    /// Whether `pattern` can be searched for as plain text: ASCII without regex syntax (or any
    /// ASCII when `literal`), and not empty.
    static func applies(to pattern: String, literal: Bool) -> Bool {
        guard !pattern.isEmpty, pattern.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
        if literal { return true }
        return !pattern.utf8.contains { "\\^$.|?*+()[]{}".utf8.contains($0) }
    }

    /// Every match of `pattern` in `text` as (UTF-16 offset, UTF-16 length), up to `limit`.
    static func matches(
        of pattern: String, in text: String, caseSensitive: Bool, limit: Int
    ) -> [(offset: Int, length: Int)] {
        let needle = Array(pattern.utf8).map { caseSensitive ? $0 : lower($0) }
        var text = text
        return text.withUTF8 { bytes -> [(offset: Int, length: Int)] in
            var found: [(offset: Int, length: Int)] = []
            let count = bytes.count
            let length = needle.count
            guard length <= count else { return found }
            let first = needle[0]
            var utf16 = 0  // UTF-16 offset of byte `index`
            var index = 0
            while index <= count - length {
                let byte = bytes[index]
                if (caseSensitive ? byte : lower(byte)) == first {
                    var matched = 1
                    while matched < length,
                        (caseSensitive ? bytes[index + matched] : lower(bytes[index + matched])) == needle[matched]
                    {
                        matched += 1
                    }
                    if matched == length {
                        found.append((utf16, length))  // an ASCII needle: bytes are UTF-16 units
                        if found.count >= limit { return found }
                        utf16 += length
                        index += length
                        continue
                    }
                }
                // A lead byte starts a scalar: four-byte scalars are two UTF-16 units.
                if byte & 0xC0 != 0x80 { utf16 += byte >= 0xF0 ? 2 : 1 }
                index += 1
            }
            return found
        }
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
