public import Foundation

/// Where a book lives in a calibre content server: the server, the calibre library and the book's
/// id there, and the format bok reads. calibre keeps reading places per (library, book, format).
///
/// A book got from a calibre catalogue knows this from its acquisition link, which calibre writes
/// as `…/get/EPUB/3/Calibre_Library` (a server mounted under a prefix keeps the prefix).
public struct CalibreBookLink: Sendable, Hashable, Codable {
    /// The server's address up to where calibre's own paths begin (`http://host:8080` or
    /// `http://host/calibre`), without a trailing slash.
    public var server: URL
    /// The calibre library's id (`Calibre_Library`).
    public var library: String
    /// The book's id in that library.
    public var bookID: Int
    /// The format, in capitals (`EPUB`).
    public var format: String

    public init(server: URL, library: String, bookID: Int, format: String) {
        self.server = server
        self.library = library
        self.bookID = bookID
        self.format = format.uppercased()
    }

    /// The link an acquisition URL of calibre's names, or nil when it is not one of calibre's.
    public init?(acquisition url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        let parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        // …/get/FORMAT/ID/LIBRARY: the last four parts.
        guard parts.count >= 5, parts[parts.count - 4] == "get", let id = Int(parts[parts.count - 2]), id > 0,
            Self.isName(parts[parts.count - 3]), Self.isName(parts[parts.count - 1])
        else { return nil }
        var base = components
        base.percentEncodedPath = parts.dropLast(4).joined(separator: "/")
        base.query = nil
        base.fragment = nil
        guard let server = base.url,
            let library = String(parts[parts.count - 1]).removingPercentEncoding
        else { return nil }
        self.init(server: server, library: library, bookID: id, format: String(parts[parts.count - 3]))
    }

    /// A name calibre gives a format or a library: letters, digits, `_`, `-`, `.`, `%` escapes.
    private static func isName(_ part: Substring) -> Bool {
        !part.isEmpty && part.count <= 200
            && part.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "_-.%".unicodeScalars.contains($0)
            }
    }

    /// `{server}/{route}/{library}/{rest}`, each part escaped for a path.
    func url(_ route: String, _ rest: String) -> URL {
        let library = self.library.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"]))
        return URL(string: server.absoluteString + "/\(route)/\(library ?? self.library)/\(rest)")!
    }
}
