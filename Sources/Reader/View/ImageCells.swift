internal import Foundation
import Synchronization
internal import Terminal

/// Draws a book's pictures as text cells: upper half-blocks `▀` whose foreground is the upper
/// pixel and background the lower one (24-bit colour, or the nearest of 256), or, on kitty,
/// the real picture through its graphics protocol. Decoded and scaled pictures are kept.
final class ImageCells: ImageRows, Sendable {
    /// How pictures reach the screen.
    enum Method: Sendable {
        case halfBlocks
        /// The kitty graphics protocol: the picture is sent once and placed over blank cells.
        case kitty
    }

    let book: EPUBBook
    let method: Method
    private struct Key: Hashable {
        let path: String
        let columns: Int
        let rows: Int
        let background: [UInt8]
    }
    private struct Cache {
        var decoded: [String: RasterImage?] = [:]
        var drawn: [Key: [StyledRow]] = [:]
        var kittyIDs: [String: UInt32] = [:]
    }
    private let cache = Mutex(Cache())

    init(book: EPUBBook, method: Method) {
        self.book = book
        self.method = method
    }

    /// The drawer for this terminal, or `nil` when it cannot show pictures (no colour): then
    /// images keep their `[image: …]` labels.
    static func make(book: EPUBBook, capabilities: TerminalCapabilities, environment: [String: String]) -> ImageCells? {
        guard capabilities.usesColor else { return nil }  // piped, NO_COLOR or TERM=dumb: labels
        if environment["TERM"] == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil {
            return ImageCells(book: book, method: .kitty)
        }
        guard capabilities.colorDepth >= .ansi256 else { return nil }
        return ImageCells(book: book, method: .halfBlocks)
    }

    func rows(
        for image: ImageReference, spineIndex: Int, line: LayoutLine, width: Int,
        background: (UInt8, UInt8, UInt8)
    ) -> ImageDrawing? {
        guard let path = image.path, let picture = decoded(path) else { return nil }
        // The layout chose the width (it knew the page height and kept the rows).
        var cells = LayoutSettings(width: width, rows: 1_000, margin: 0).imageCells(
            pixels: (picture.width, picture.height))
        if line.width > 0 { cells.columns = min(width, line.width) }
        cells.rows = LayoutSettings.textRows(pixels: (picture.width, picture.height), columns: cells.columns)
        switch method {
        case .halfBlocks:
            return ImageDrawing(
                rows: halfBlocks(
                    path: path, picture: picture, columns: cells.columns, rows: cells.rows,
                    background: background), overlay: nil)
        case .kitty:
            let blank = (0..<cells.rows).map { _ in StyledRow(blank: cells.columns, style: .plain) }
            return ImageDrawing(
                rows: blank,
                overlay: kittyPlacement(
                    path: path, picture: picture, columns: cells.columns, rows: cells.rows,
                    background: background))
        }
    }

    private func decoded(_ path: String) -> RasterImage? {
        if let known = cache.withLock({ $0.decoded[path] }) { return known }
        let picture = (try? book.resource(at: path)).flatMap { RasterImage.decode($0) }
        cache.withLock { $0.decoded[path] = .some(picture) }
        return picture
    }

    private func halfBlocks(
        path: String, picture: RasterImage, columns: Int, rows: Int,
        background: (UInt8, UInt8, UInt8)
    ) -> [StyledRow] {
        let key = Key(path: path, columns: columns, rows: rows, background: [background.0, background.1, background.2])
        if let drawn = cache.withLock({ $0.drawn[key] }) { return drawn }
        let scaled = picture.scaled(width: columns, height: rows * 2, background: background)
        var result: [StyledRow] = []
        for row in 0..<rows {
            var line = StyledRow()
            for column in 0..<columns {
                let top = scaled.rgb(x: column, y: row * 2)
                let bottom = scaled.rgb(x: column, y: row * 2 + 1)
                line.append(
                    "▀",
                    style: TextStyle(
                        foreground: .rgb(top.0, top.1, top.2), background: .rgb(bottom.0, bottom.1, bottom.2)), width: 1
                )
            }
            result.append(line)
        }
        cache.withLock { $0.drawn[key] = result }
        return result
    }

    /// Sends the picture once (as RGBA, at most 800 pixels wide) and returns the code that
    /// places it over `columns × rows` cells at the cursor.
    private func kittyPlacement(
        path: String, picture: RasterImage, columns: Int, rows: Int,
        background: (UInt8, UInt8, UInt8)
    ) -> String {
        var transmit = ""
        let id: UInt32 = cache.withLock { cache in
            if let id = cache.kittyIDs[path] { return id }
            let id = UInt32(cache.kittyIDs.count + 1)
            cache.kittyIDs[path] = id
            return id
        }
        if cache.withLock({ $0.drawn[Key(path: path, columns: -1, rows: -1, background: [])] == nil }) {
            let scale = min(1, 800.0 / Double(picture.width))
            let sent =
                scale < 1
                ? picture.scaled(
                    width: Int(Double(picture.width) * scale), height: Int(Double(picture.height) * scale),
                    background: background)
                : picture
            let payload = Data(sent.pixels).base64EncodedString()
            var index = payload.startIndex
            var first = true
            while index < payload.endIndex {
                let end = payload.index(index, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
                let more = end < payload.endIndex ? 1 : 0
                let control =
                    first ? "a=t,f=32,s=\(sent.width),v=\(sent.height),i=\(id),q=2,m=\(more)" : "m=\(more),q=2"
                transmit += "\u{1B}_G\(control);\(payload[index..<end])\u{1B}\\"
                first = false
                index = end
            }
            cache.withLock { $0.drawn[Key(path: path, columns: -1, rows: -1, background: [])] = [] }
        }
        return transmit + "\u{1B}_Ga=p,i=\(id),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\"
    }
}

/// A picture as rows of cells, and for kitty the code that puts the picture over them.
struct ImageDrawing {
    var rows: [StyledRow]
    /// Written with the cursor at the picture's top-left cell, after the frame.
    var overlay: String?
}

/// Removes every picture kitty has placed on screen, before a new frame places its own.
let kittyDeleteAll = "\u{1B}_Ga=d,d=a,q=2\u{1B}\\"
