internal import Foundation
import Synchronization
internal import Terminal

/// Draws a book's pictures: at the terminal's real resolution where it speaks a graphics
/// protocol (kitty's, iTerm2's inline images, Sixel), else as upper half-blocks `▀` whose
/// foreground is the upper pixel and background the lower one (24-bit colour, or the nearest of
/// 256). Which one is found the first time a picture is drawn (``PictureDetection``), so that a
/// book without pictures never asks the terminal or loads an encoder. Decoded, scaled and
/// encoded pictures are kept, so that turning back to a page costs nothing again.
final class ImageCells: ImageRows, Sendable {
    /// How pictures reach the screen.
    enum Method: Sendable, Hashable {
        case halfBlocks
        /// The kitty graphics protocol: the picture is sent once and placed over blank cells by its id.
        case kitty
        /// Sixel, encoded by Chafa, written over blank cells.
        case sixel
        /// iTerm2's inline images, encoded by Chafa, written over blank cells.
        case iterm
    }

    let book: EPUBBook
    private struct Key: Hashable {
        let path: String
        let columns: Int
        let rows: Int
        let background: [UInt8]
    }
    private struct EncodedKey: Hashable {
        let drawn: Key
        let method: Method
        let cell: PixelSize
    }
    private struct Cache {
        var decoded: [String: RasterImage?] = [:]
        var drawn: [Key: [StyledRow]] = [:]
        var encoded: [EncodedKey: String?] = [:]
        var kittyIDs: [String: UInt32] = [:]
        var setting: ImagesSetting
        var detection: PictureDetection?
        /// While the page's text goes first: pictures not ready are left out, and noted.
        var deferring = false
        var deferred = false
    }
    private let cache: Mutex<Cache>
    /// Decides how pictures are drawn for a setting; asked once, when the first picture is drawn.
    private let detect: @Sendable (ImagesSetting) -> PictureDetection

    /// A drawer that decides how to draw with `detect`, for `setting`.
    init(
        book: EPUBBook, setting: ImagesSetting = .auto,
        detect: @escaping @Sendable (ImagesSetting) -> PictureDetection
    ) {
        self.book = book
        self.detect = detect
        self.cache = Mutex(Cache(setting: setting))
    }

    /// A drawer that always draws one way (tests).
    convenience init(book: EPUBBook, method: Method, cell: PixelSize = .assumed) {
        let chosen: PictureProtocol =
            switch method {
            case .halfBlocks: .blocks
            case .kitty: .kitty
            case .sixel: .sixel
            case .iterm: .iterm
            }
        self.init(book: book) { _ in PictureDetection(method: chosen, cell: cell, reason: "test") }
    }

    /// The drawer for this terminal, or `nil` when it cannot show pictures (no colour, or
    /// `images = off`): then images keep their `[image: …]` labels.
    /// - Parameters:
    ///   - capabilities: the terminal's; its ``TerminalCapabilities/images`` is the setting.
    ///   - environment: the process environment, for the hints of ``PictureDetection``.
    ///   - ask: asks the terminal what it draws, once, when the first picture is drawn.
    static func make(
        book: EPUBBook, capabilities: TerminalCapabilities, environment: [String: String],
        ask: @escaping @Sendable () -> TerminalReplies = { TerminalQuery.askOnce() }
    ) -> ImageCells? {
        guard capabilities.usesColor, capabilities.images != .forced(.off) else { return nil }  // piped, NO_COLOR, dumb
        // Half-blocks need 256 colours; a terminal named for its pixels draws them with fewer.
        let named: PictureProtocol? =
            if case .forced(let method) = capabilities.images { method } else {
                PictureDetection.hint(environment: environment)?.method
            }
        guard capabilities.colorDepth >= .ansi256 || named?.drawsPixels == true else { return nil }
        let isTTY = capabilities.isTTY
        return ImageCells(book: book, setting: capabilities.images) { setting in
            PictureDetection.detect(
                setting: setting, environment: environment, isTTY: isTTY, window: TerminalSize.current(), ask: ask)
        }
    }

    /// How pictures are drawn: decided now if no picture has been drawn yet.
    var detection: PictureDetection {
        cache.withLock { cache in
            if let known = cache.detection { return known }
            let found = detect(cache.setting)
            cache.detection = found
            return found
        }
    }

    /// Runs `draw` with the pictures that are not ready (the terminal not asked yet, a Sixel or
    /// iTerm2 picture not encoded) left as blank cells, so that the page's text is on screen
    /// first; returns whether any were, and then the page is to be drawn again for them.
    func deferringNewPictures(_ draw: () -> Void) -> Bool {
        cache.withLock { cache in
            cache.deferring = true
            cache.deferred = false
        }
        draw()
        return cache.withLock { cache in
            cache.deferring = false
            return cache.deferred
        }
    }

    /// Whether the picture in the cells of `key` can be drawn now without asking or encoding;
    /// if not, and drawing defers, it is noted.
    private func deferred(_ key: Key) -> Bool {
        cache.withLock { cache in
            guard cache.deferring else { return false }
            if let detection = cache.detection {
                let method = Self.method(for: detection.method)
                guard method == .sixel || method == .iterm,
                    cache.encoded[EncodedKey(drawn: key, method: method, cell: detection.cell)] == nil
                else { return false }
            }
            cache.deferred = true
            return true
        }
    }

    /// How pictures are drawn, or nil while no picture has been drawn (nothing asked yet).
    var decidedMethod: Method? { cache.withLock { $0.detection }.map { Self.method(for: $0.method) } }

    /// How pictures are drawn.
    var method: Method { Self.method(for: detection.method) }

    /// Draws pictures as `setting` says from now on (`:images sixel`); returns how.
    @discardableResult
    func use(_ setting: ImagesSetting) -> PictureDetection {
        cache.withLock { cache in
            cache.setting = setting
            cache.detection = nil
        }
        return detection
    }

    private static func method(for chosen: PictureProtocol) -> Method {
        switch chosen {
        case .kitty: .kitty
        case .sixel: PictureEncoder.isAvailable ? .sixel : .halfBlocks
        case .iterm: PictureEncoder.isAvailable ? .iterm : .halfBlocks
        case .blocks, .off: .halfBlocks
        }
    }

    func rows(
        for image: ImageReference, spineIndex: Int, line: LayoutLine, width: Int,
        background: (UInt8, UInt8, UInt8), room: Int
    ) -> ImageDrawing? {
        guard let path = image.path, let picture = decoded(path) else { return nil }
        // The layout chose the width (it knew the page height and kept the rows).
        var cells = LayoutSettings(width: width, rows: 1_000, margin: 0).imageCells(
            pixels: (picture.width, picture.height))
        if line.width > 0 { cells.columns = min(width, line.width) }
        cells.rows = LayoutSettings.textRows(pixels: (picture.width, picture.height), columns: cells.columns)
        let key = Key(
            path: path, columns: cells.columns, rows: cells.rows,
            background: [background.0, background.1, background.2])
        // A picture the page cuts (scrolling) is drawn in text cells, which stop at the page's foot.
        guard cells.rows <= room else {
            return ImageDrawing(rows: halfBlocks(key, picture: picture, background: background), overlay: nil)
        }
        if deferred(key) { return ImageDrawing(rows: blank(key), overlay: nil) }
        let detection = detection
        let method = Self.method(for: detection.method)
        switch method {
        case .halfBlocks:
            return ImageDrawing(rows: halfBlocks(key, picture: picture, background: background), overlay: nil)
        case .kitty:
            return ImageDrawing(
                rows: blank(key),
                overlay: kittyPlacement(
                    path: path, picture: picture, columns: cells.columns, rows: cells.rows,
                    background: background))
        case .sixel, .iterm:
            guard let code = encoded(key, picture: picture, as: detection, background: background) else {
                return ImageDrawing(rows: halfBlocks(key, picture: picture, background: background), overlay: nil)
            }
            return ImageDrawing(rows: blank(key), overlay: code)
        }
    }

    /// The cells a picture is drawn over, in the page's colour (a Sixel picture may leave a few
    /// pixel rows of them at its foot).
    private func blank(_ key: Key) -> [StyledRow] {
        let page = TextStyle(background: .rgb(key.background[0], key.background[1], key.background[2]))
        return (0..<key.rows).map { _ in StyledRow(blank: key.columns, style: page) }
    }

    /// The Sixel or iTerm2 code for the picture in the cells of `key`, at the cells' pixel size:
    /// fitted inside them with its shape kept, on the page's colour.
    private func encoded(
        _ key: Key, picture: RasterImage, as detection: PictureDetection, background: (UInt8, UInt8, UInt8)
    ) -> String? {
        let method = Self.method(for: detection.method)
        let encodedKey = EncodedKey(drawn: key, method: method, cell: detection.cell)
        if let known = cache.withLock({ $0.encoded[encodedKey] }) { return known }
        let box = (width: key.columns * detection.cell.width, height: key.rows * detection.cell.height)
        let scale = min(Double(box.width) / Double(picture.width), Double(box.height) / Double(picture.height))
        let fitted = picture.scaled(
            width: min(box.width, max(1, Int((Double(picture.width) * scale).rounded()))),
            height: min(box.height, max(1, Int((Double(picture.height) * scale).rounded()))),
            background: background)
        let canvas = fitted.placed(onWidth: box.width, height: box.height, background: background)
        let bytes = PictureEncoder.encode(
            rgba: canvas.pixels, width: canvas.width, height: canvas.height, columns: key.columns, rows: key.rows,
            cell: detection.cell, as: detection.method)
        // Chafa writes only its own escape sequences and base64 or Sixel data: printable ASCII and ESC.
        let code = bytes.map { String(decoding: $0, as: UTF8.self) }
        cache.withLock { $0.encoded[encodedKey] = .some(code) }
        return code
    }

    func pixels(of image: ImageReference) -> (width: Int, height: Int)? {
        image.path.flatMap(decoded).map { ($0.width, $0.height) }
    }

    private func decoded(_ path: String) -> RasterImage? {
        if let known = cache.withLock({ $0.decoded[path] }) { return known }
        let picture = (try? book.resource(at: path)).flatMap { RasterImage.decode($0) }
        cache.withLock { $0.decoded[path] = .some(picture) }
        return picture
    }

    private func halfBlocks(_ key: Key, picture: RasterImage, background: (UInt8, UInt8, UInt8)) -> [StyledRow] {
        let (columns, rows) = (key.columns, key.rows)
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
    ///
    /// Written here rather than by Chafa: Chafa's kitty output sends the whole picture again at
    /// every placement and gives it no id, while kitty keeps a picture sent once by its id, so
    /// that placing it again on every redraw costs a few bytes and removing it is one code.
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

/// A picture as rows of cells, and for a graphics protocol the code that puts the picture over them.
struct ImageDrawing {
    var rows: [StyledRow]
    /// Written with the cursor at the picture's top-left cell, after the frame.
    var overlay: String?
}

/// Removes every picture kitty has placed on screen, before a new frame places its own.
let kittyDeleteAll = "\u{1B}_Ga=d,d=a,q=2\u{1B}\\"
