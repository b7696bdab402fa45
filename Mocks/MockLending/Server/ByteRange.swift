import Foundation

/// What a `Range` request header asks of a body of known length (RFC 9110 §14).
///
/// One range of bytes is served as 206 Partial Content; anything this server does not serve
/// (several ranges, another unit, a malformed header) is ignored and the whole body sent, as the
/// RFC allows. A range that starts at or beyond the end is 416.
enum ByteRange: Hashable, Sendable {
    /// Send everything (no header, or one that is ignored).
    case whole
    /// Send these bytes.
    case part(Range<Int>)
    /// 416 Range Not Satisfiable.
    case unsatisfiable

    /// Reads `header` (`bytes=0-499`, `bytes=500-`, `bytes=-500`) for a body of `length` bytes.
    init(header: String?, length: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(Self.isDigit), last.allSatisfy(Self.isDigit), !(first.isEmpty && last.isEmpty) else {
            self = .whole
            return
        }
        if first.isEmpty {
            // The last n bytes (all of them when n is larger than the body).
            let n = Int(last) ?? Int.max
            self = n > 0 && length > 0 ? .part(max(0, length - n)..<length) : .unsatisfiable
            return
        }
        // A start too large for Int is beyond any body.
        guard let start = Int(first), start < length else {
            self = .unsatisfiable
            return
        }
        let end = last.isEmpty ? Int.max : Int(last) ?? Int.max
        guard end >= start else {
            self = .whole
            return
        }  // "bytes=9-3" is invalid: ignored
        self = .part(start..<(min(end, length - 1) + 1))
    }

    private static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
}
