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
        for pair in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0]).lowercased()
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if values[name] == nil { values[name] = value }
        }
    }

    /// The value of `name` (case-insensitive), or nil when absent.
    subscript(name: String) -> String? { values[name.lowercased()] }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
