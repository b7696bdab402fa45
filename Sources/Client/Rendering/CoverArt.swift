import Catalog
import Crypto
import Foundation
import Reader
import SafeOutput
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
    nonisolated static let columns = 14
    /// The box of a cover on a card of `view grid`: a book cover's 2:3 in cells twice as tall as wide.
    nonisolated static let cardColumns = 12
    nonisolated static let cardRows = 9
    /// The box of a cover beside a line of `shelf --covers`.
    nonisolated static let shelfColumns = 6
    nonisolated static let shelfRows = 3
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
    nonisolated static func beside(_ lines: [String], picture: RasterImage, theme: Theme) -> [String] {
        let rows = besideRows(picture)
        let drawn = halfBlocks(picture, columns: columns, rows: rows, theme: theme)
        let blank = String(repeating: " ", count: columns)
        return (0..<max(drawn.count, lines.count)).map { index in
            let left = index < drawn.count ? drawn[index] : blank
            return index < lines.count ? left + "  " + lines[index] : left
        }
    }

    /// The rows a cover beside the details fills: its proportions at ``columns`` cells across.
    nonisolated static func besideRows(_ picture: RasterImage) -> Int {
        max(1, picture.height * columns / max(1, picture.width) / 2)
    }

    /// The cells a picture fills fitted in its proportions in a box of `columns × rows` cells.
    nonisolated static func fitted(_ picture: RasterImage, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        // A cell is twice as tall as wide: rows of the box hold twice as many pixels.
        let scale = min(Double(columns) / Double(picture.width), Double(rows * 2) / Double(picture.height))
        return (
            max(1, min(columns, Int((Double(picture.width) * scale).rounded()))),
            max(1, min(rows, Int((Double(picture.height) * scale / 2).rounded())))
        )
    }

    /// `picture` as `rows` lines of `columns` half-blocks, two pixels a cell.
    nonisolated static func halfBlocks(_ picture: RasterImage, columns: Int, rows: Int, theme: Theme) -> [String] {
        let cells = picture.scaled(width: columns, height: rows * 2, background: (0, 0, 0))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                let top = cells.rgb(x: column, y: row * 2)
                let bottom = cells.rgb(x: column, y: row * 2 + 1)
                return theme.paint(
                    "▀",
                    TextStyle(foreground: .rgb(top.0, top.1, top.2), background: .rgb(bottom.0, bottom.1, bottom.2)))
            }.joined()
        }
    }

    /// A cover in a box of `columns × rows` cells: the picture fitted in its proportions and
    /// centred, or for a book without one a card of its own (its title on a tint), never a hole.
    nonisolated static func boxed(
        _ picture: RasterImage?, title: String, columns: Int, rows: Int, theme: Theme
    ) -> [String] {
        guard let picture else { return card(title: title, columns: columns, rows: rows, theme: theme) }
        let (width, height) = fitted(picture, columns: columns, rows: rows)
        let left = String(repeating: " ", count: (columns - width) / 2)
        let right = String(repeating: " ", count: columns - width - left.count)
        let drawn = halfBlocks(picture, columns: width, rows: height, theme: theme).map { left + $0 + right }
        let blank = String(repeating: " ", count: columns)
        let above = (rows - height) / 2
        return Array(repeating: blank, count: above) + drawn + Array(repeating: blank, count: rows - height - above)
    }

    /// The cover at the top of a card `width` cells wide (``cardColumns`` × ``cardRows``, centred).
    nonisolated static func onCard(_ picture: RasterImage?, title: String, width: Int, theme: Theme) -> [String] {
        let box = min(width, cardColumns)
        let margin = String(repeating: " ", count: (width - box) / 2)
        return boxed(picture, title: title, columns: box, rows: cardRows, theme: theme).map {
            CardGrid.pad(margin + $0, to: width)
        }
    }

    /// A generated cover: the title, wrapped, on a tint the title chooses (the same book, the same tint).
    nonisolated static func card(title: String, columns: Int, rows: Int, theme: Theme) -> [String] {
        let hash = title.unicodeScalars.reduce(UInt32(2_166_136_261)) { ($0 ^ $1.value) &* 16_777_619 }
        let tint = TextStyle(
            foreground: .rgb(250, 250, 246),
            background: .rgb(60 + UInt8(hash & 0x5F), 60 + UInt8((hash >> 8) & 0x5F), 60 + UInt8((hash >> 16) & 0x5F)))
        let words = DisplayWidth.wrap(title, width: max(1, columns - 2)).prefix(max(1, rows - 2))
        let top = max(0, (rows - words.count) / 2)
        return (0..<rows).map { row in
            let index = row - top
            let text = index >= 0 && index < words.count ? words[words.startIndex + index] : ""
            return theme.paint(DisplayWidth.pad(" " + text, to: columns), tint)
        }
    }

    /// The cover, from the cache or the library; nil when there is none or it cannot be decoded.
    static func cover(of product: Product, session: Session) async -> RasterImage? {
        guard let url = address(of: product.coverImage, session: session) else { return nil }
        return await cover(at: url, session: session)
    }

    /// The absolute `http`/`https` address of a cover the library names (relative to its own), or nil.
    static func address(of cover: String?, session: Session) -> URL? {
        guard let cover,
            let url = URL(string: cover, relativeTo: URL(string: session.library.identity.baseURL))?.absoluteURL,
            ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        else { return nil }
        return url
    }

    /// The file a cover from `url` is kept in, or nil without a cache folder.
    private static func file(for url: URL, session: Session) -> URL? {
        guard let folder = session.paths?.cache else { return nil }
        let key = SHA256.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent("covers").appendingPathComponent(key)
    }

    /// The cover from `url` if it is in the cache (decoded, never fetched); nil otherwise.
    static func kept(at url: URL, session: Session) -> RasterImage? {
        guard let file = file(for: url, session: session), let kept = try? Data(contentsOf: file) else { return nil }
        // Touched, so the oldest-used go first when the cache is full.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return RasterImage.decode(Array(kept), minimumWidth: 64)
    }

    /// The cover from `url`, from the cache or the library; nil when there is none or it cannot be decoded.
    static func cover(at url: URL, session: Session) async -> RasterImage? {
        guard let file = file(for: url, session: session) else { return nil }
        if FileManager.default.fileExists(atPath: file.path) { return kept(at: url, session: session) }
        let exchange = BoundedExchange(accept: "image/*", deadline: deadline, maxBytes: maxBytes)
        guard let (data, head) = try? await exchange.run(HTTPRequest(url: url)), (200..<300).contains(head.status),
            let picture = RasterImage.decode(Array(data), minimumWidth: 64)
        else { return nil }
        keep(data, at: file)
        return picture
    }

    /// Writes a cover into the cache whole (``OutputFile``: a temporary file of bok's own, put in
    /// place at the end, removed if bok is stopped), then trims the cache.
    private static func keep(_ data: Data, at file: URL) {
        let folder = file.deletingLastPathComponent()
        let manager = FileManager.default
        guard (try? manager.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            let output = try? OutputFile(path: file.path, name: file.lastPathComponent, replace: true)
        else { return }
        do {
            try data.withUnsafeBytes { try output.append($0) }
            try output.commit()
        } catch {
            output.discard()
            return
        }
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files = ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)) ?? [])
            .compactMap { url -> (url: URL, size: Int, used: Date)? in
                // A cover being written by another bok (`.NAME.bok-…`) is not the cache's yet.
                guard !url.lastPathComponent.hasPrefix("."), let values = try? url.resourceValues(forKeys: Set(keys))
                else { return nil }
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
