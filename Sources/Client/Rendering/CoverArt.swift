import Catalog
import Crypto
import Foundation
import Reader
import Terminal

/// A book's cover beside its details in `info`: fetched from the library once (bounded in time
/// and size), kept under `$XDG_CACHE_HOME/bok/covers`, decoded with the reader's decoders and
/// drawn in half-blocks (`▀`, two pixels a cell) in the answer's own colours.
///
/// Only at a terminal with colours, never piped, with `--json`, for a screen reader, in a
/// recording or scenario, or with `images = off`. The cover never holds up the details: a
/// library that does not send it in time leaves them as they are.
@MainActor
enum CoverArt {
    /// Cells across; the rows follow from the cover's proportions.
    static let columns = 14
    /// A cover larger than this is not a cover.
    static let maxBytes = 4 << 20
    /// The cache's size: the oldest covers go when it grows past it.
    static let cacheLimit = 64 << 20
    /// How long the library has to send a cover not yet kept.
    static let deadline: TimeInterval = 2

    /// Whether covers are drawn in `session`: at a terminal wide enough, with colours, pictures on.
    static func shown(in session: Session) -> Bool {
        let theme = session.theme
        return session.drawsCovers && theme.width >= 60 && !theme.screenReader && theme.caps.colorDepth != .none
            && theme.caps.images != .forced(.off)
    }

    /// `lines` with `picture` at their left, in half-blocks, and the lines after it indented as far.
    static func beside(_ lines: [String], picture: RasterImage, theme: Theme) -> [String] {
        let rows = max(1, picture.height * columns / max(1, picture.width) / 2)
        let cells = picture.scaled(width: columns, height: rows * 2, background: (0, 0, 0))
        var drawn: [String] = []
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let top = cells.rgb(x: column, y: row * 2)
                let bottom = cells.rgb(x: column, y: row * 2 + 1)
                line += theme.paint(
                    "▀",
                    TextStyle(foreground: .rgb(top.0, top.1, top.2), background: .rgb(bottom.0, bottom.1, bottom.2)))
            }
            drawn.append(line)
        }
        let blank = String(repeating: " ", count: columns)
        return (0..<max(drawn.count, lines.count)).map { index in
            let left = index < drawn.count ? drawn[index] : blank
            return index < lines.count ? left + "  " + lines[index] : left
        }
    }

    /// The cover, from the cache or the library; nil when there is none or it cannot be decoded.
    static func cover(of product: Product, session: Session) async -> RasterImage? {
        guard let address = product.coverImage,
            let url = URL(string: address, relativeTo: URL(string: session.library.identity.baseURL))?.absoluteURL,
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), let folder = session.paths?.cache
        else { return nil }
        let key = SHA256.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined()
        let file = folder.appendingPathComponent("covers").appendingPathComponent(key)
        if let kept = try? Data(contentsOf: file) {
            // Touched, so the oldest-used go first when the cache is full.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
            return RasterImage.decode(Array(kept), minimumWidth: 64)
        }
        let exchange = BoundedExchange(accept: "image/*", deadline: deadline, maxBytes: maxBytes)
        guard let (data, head) = try? await exchange.run(HTTPRequest(url: url)), (200..<300).contains(head.status),
            let picture = RasterImage.decode(Array(data), minimumWidth: 64)
        else { return nil }
        keep(data, at: file)
        return picture
    }

    /// Writes a cover into the cache whole (a temporary file renamed), then trims the cache.
    private static func keep(_ data: Data, at file: URL) {
        let folder = file.deletingLastPathComponent()
        let manager = FileManager.default
        guard (try? manager.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return }
        let partial = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid())")
        guard (try? data.write(to: partial)) != nil, rename(partial.path, file.path) == 0 else {
            try? manager.removeItem(at: partial)
            return
        }
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files = ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? [])
            .compactMap { url -> (url: URL, size: Int, used: Date)? in
                guard let values = try? url.resourceValues(forKeys: Set(keys)) else { return nil }
                return (url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
            }
            .sorted { $0.used > $1.used }
        var total = 0
        for kept in files {
            total += kept.size
            if total > cacheLimit { try? manager.removeItem(at: kept.url) }
        }
    }
}
