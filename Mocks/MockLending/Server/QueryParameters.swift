import Foundation

/// The query parameters of a request, percent-decoded, with `+` read as a space (form encoding).
///
/// Parsed here rather than with Hummingbird's `queryParameters` so that names are matched
/// case-insensitively (`serviceid` on GET, `ServiceID` in forms) and `+` is handled the way
/// HTML forms and curl send it; a real `+` arrives as `%2B`.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    /// Parses a raw query string (`a=1&b=x%20y`); the first occurrence of a name wins.
    init(_ rawQuery: String?) {
        guard let rawQuery, !rawQuery.isEmpty else { return }
        // An ASCII query (as clients escape them) is split by bytes; other text by characters, as
        // before, where a mark after `&` or `=` joins it into another character.
        if rawQuery.utf8.allSatisfy({ $0 < 0x80 }) {
            for pair in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                    add(Substring(pair), "")
                    continue
                }
                add(Substring(pair[..<equals]), Self.decode(Substring(pair[pair.index(after: equals)...])))
            }
            return
        }
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            add(parts[0], parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// Keeps `value` under the name written `rawName`, unless the name came before.
    private mutating func add(_ rawName: Substring, _ value: String) {
        let decoded = Self.decode(rawName)
        let name = Self.isLowercase(decoded) ? decoded : decoded.lowercased()
        if values[name] == nil { values[name] = value }
    }

    /// The value of `name` (case-insensitive), or nil when absent.
    subscript(name: String) -> String? { values[Self.isLowercase(name) ? name : name.lowercased()] }

    /// Whether `name` is already as `lowercased()` would make it: no ASCII capital, no other script.
    private static func isLowercase<S: StringProtocol>(_ name: S) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// `+` as a space, then percent-escapes decoded; text whose escapes are not UTF-8 stays as it
    /// is (with its spaces). Done over the bytes: Foundation's `replacingOccurrences` and
    /// `removingPercentEncoding` were an eighth of the server's CPU per search under load.
    private static func decode(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index != utf8.endIndex, let high = hexValue(utf8[index]),
                    case let next = utf8.index(after: index), next != utf8.endIndex, let low = hexValue(utf8[next])
                else { return foundationDecode(text) }
                bytes.append(high << 4 | low)
                index = utf8.index(after: next)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? foundationDecode(text)
    }

    /// What `decode` gives for text with an escape that is not one, or not UTF-8: as Foundation reads it.
    private static func foundationDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
