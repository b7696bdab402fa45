internal import Foundation

/// Paths inside the book: normalising zip entry names and resolving hrefs relative to a document.
///
/// Every path the reader looks up goes through here, and a path that is absolute or climbs out of
/// the archive's root with `..` normalises to `nil`, so it is never read.
enum BookPath {
    /// Normalises a path inside the archive (`a/./b/../c` → `a/c`), or `nil` when it is absolute or
    /// leaves the root.
    ///
    /// With `clampingAtRoot`, a `..` at the root is dropped instead: the EPUB 3.3 rule for URLs
    /// inside the container, where the container's root is as far up as a path can go.
    static func normalize(_ path: String, clampingAtRoot: Bool = false) -> String? {
        // Most names in a book are plain already: no need to take them apart.
        if !needsNormalizing(path) { return path }
        if path.hasPrefix("/") || path.hasPrefix("\\") { return nil }
        // A Windows drive letter ("C:...") is as absolute as a leading slash.
        let utf8 = Array(path.utf8.prefix(2))
        if utf8.count == 2, utf8[1] == UInt8(ascii: ":"), (utf8[0] | 0x20) >= 97, (utf8[0] | 0x20) <= 122 {
            return nil
        }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty {
                    if clampingAtRoot { continue }
                    return nil
                }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        if parts.isEmpty { return nil }
        return parts.joined(separator: "/")
    }

    /// Whether a path has empty, `.` or `..` segments, or characters that make it absolute.
    static func needsNormalizing(_ path: String) -> Bool {
        var length = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (length == dots && dots <= 2) { return true }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
                if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "\\") { return true }
            }
        }
        return length == 0 || (length == dots && dots <= 2)
    }

    /// The folder part of a path (`OEBPS/text/ch1.xhtml` → `OEBPS/text`), empty at the root.
    /// (These look at UTF-8 bytes, not Characters: a book's manifest, spine, nav and zip directory
    /// bring them hundreds of paths before its first page, and a Character search cost microseconds
    /// each; a path's separators are ASCII, so the bytes say the same.)
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// Whether an href names something outside the book (`http:`, `mailto:`, ...): it starts with a
    /// URL scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`) of more than one letter
    /// (`C:` is a drive) and a colon.
    static func isExternal(_ href: String) -> Bool {
        var length = 0
        for byte in href.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return length > 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): break
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                if length == 0 { return false }
            default: return false
            }
            length += 1
        }
        return false
    }

    /// Resolves an href found in the document at `base` to a path in the archive and a fragment.
    ///
    /// Paths follow the EPUB 3.3 rules for URLs in the container: one starting with `/` starts at
    /// the container's root, and `..` above the root stays at the root, so the resource is still
    /// found and nothing outside the container is ever named.
    ///
    /// - Returns: `nil` for external links (and `//host/…` references). An href that is only a
    ///   fragment (`#note3`) resolves to `base` itself.
    static func resolve(_ href: String, relativeTo base: String) -> (path: String, fragment: String?)? {
        let trimmed = href.trimmed
        if isExternal(trimmed) { return nil }
        var pathPart = Substring(trimmed)
        var fragment: String?
        if let hash = pathPart.utf8.firstIndex(of: UInt8(ascii: "#")) {
            let raw = String(pathPart[pathPart.utf8.index(after: hash)...])
            fragment = raw.utf8.contains(UInt8(ascii: "%")) ? (raw.removingPercentEncoding ?? raw) : raw
            if fragment?.isEmpty == true { fragment = nil }
            pathPart = pathPart[..<hash]
        }
        if let query = pathPart.utf8.firstIndex(of: UInt8(ascii: "?")) { pathPart = pathPart[..<query] }
        if pathPart.isEmpty { return (base, fragment) }
        let decoded =
            pathPart.utf8.contains(UInt8(ascii: "%"))
            ? (String(pathPart).removingPercentEncoding ?? String(pathPart)) : String(pathPart)
        if decoded.hasPrefix("//") { return nil }
        let dir = directory(of: base)
        let joined = decoded.hasPrefix("/") ? String(decoded.dropFirst()) : dir.isEmpty ? decoded : dir + "/" + decoded
        // Most hrefs are plain relative names; only normalise those that need it.
        if !needsNormalizing(joined) { return (joined, fragment) }
        guard let path = normalize(joined, clampingAtRoot: true) else { return nil }
        return (path, fragment)
    }
}
