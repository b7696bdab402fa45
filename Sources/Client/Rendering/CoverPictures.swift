import Foundation
import Reader
import Terminal

/// How covers are drawn in real pixels at this terminal: the protocol, the cell size, and
/// whether through tmux's passthrough.
struct CoverPixels: Sendable, Hashable {
    var detection: PictureDetection
    /// Inside tmux: every picture is wrapped for passthrough (``TmuxPassthrough/wrap(_:)``).
    var throughTmux = false
}

/// A cover bok encoded itself, to be drawn over the half-block rows that stand for it in an
/// answer's lines: the printer finds `rows` in the lines, blanks them, and writes `code` over them.
///
/// `code` is made only by ``CoverArt/pictures(_:pixels:theme:)`` from decoded pixels: no byte of
/// a server's reaches it, so it is the one thing written past the output guard.
struct CoverPicture: Sendable, Equatable {
    /// The half-block rows it replaces, as the answer's lines hold them.
    let rows: [String]
    /// Its width in cells.
    let columns: Int
    /// The escape sequences that draw it at the cursor (Sixel, kitty's or iTerm2's).
    let code: [UInt8]

    /// A picture found in the lines: where its first row is.
    struct Placed: Equatable {
        let line: Int
        let column: Int
        let picture: CoverPicture
    }

    /// `lines` with the rows of each of `pictures` whose first row is at `firstLine` or later
    /// blanked, and where each is: in order, each the first of its rows not yet taken (two
    /// covers of one book side by side are found left, then right). A picture not found, or
    /// above `firstLine` (scrolled out of the window), keeps its half-blocks.
    static func place(
        _ pictures: [CoverPicture], in lines: [String], firstLine: Int = 0
    ) -> (
        lines: [String], placed: [Placed]
    ) {
        var lines = lines
        var placed: [Placed] = []
        for picture in pictures {
            guard let top = picture.rows.first, !top.isEmpty else { continue }
            for index in max(0, firstLine)..<lines.count where index + picture.rows.count <= lines.count {
                guard let range = lines[index].range(of: top),
                    picture.rows.indices.allSatisfy({ lines[index + $0].contains(picture.rows[$0]) })
                else { continue }
                let column = DisplayWidth.of(Ansi.strip(String(lines[index][..<range.lowerBound])))
                let blank = String(repeating: " ", count: picture.columns)
                for (offset, row) in picture.rows.enumerated() {
                    if let found = lines[index + offset].range(of: row) {
                        lines[index + offset].replaceSubrange(found, with: blank)
                    }
                }
                placed.append(Placed(line: index, column: column, picture: picture))
                break
            }
        }
        return (lines, placed)
    }

    /// The bytes that print `lines` (already guarded and fitted) and then draw each placed
    /// picture over its blank cells: once its last row is printed, the cursor is saved, moved up
    /// to its first row and across to its column, the picture drawn, and the cursor restored.
    /// Drawn over rows already on screen, a picture never scrolls the window.
    static func text(_ lines: [String], placed: [Placed]) -> [UInt8] {
        var bytes: [UInt8] = []
        let byLastRow = Dictionary(grouping: placed) { $0.line + $0.picture.rows.count - 1 }
        for (index, line) in lines.enumerated() {
            bytes += Array(line.utf8) + [0x0A]
            for each in byLastRow[index] ?? [] {
                bytes += Array("\u{1B}7\u{1B}[\(each.picture.rows.count)A\u{1B}[\(each.column + 1)G".utf8)
                bytes += each.picture.code
                bytes += Array("\u{1B}8".utf8)
            }
        }
        return bytes
    }
}

extension CoverArt {
    /// How covers are drawn in pixels in `session`, or nil for half-blocks: decided once a
    /// session, the first time a cover is drawn, as the reader decides (``PictureDetection``:
    /// `images = …`, the environment's hints, then the terminal asked, within its bound), and
    /// inside tmux only through passthrough it allows to a terminal that draws the protocol.
    static func pixels(in session: Session) -> CoverPixels? {
        if let decided = session.coverPixels { return decided }
        let found = detectPixels(in: session)
        session.coverPixels = .some(found)
        return found
    }

    private static func detectPixels(in session: Session) -> CoverPixels? {
        let caps = session.theme.caps
        guard shown(in: session), caps.isTTY, PictureEncoder.isAvailable else { return nil }
        let environment = session.environment
        if PictureDetection.refusal(environment: environment, isTTY: caps.isTTY) != nil { return nil }
        if case .forced(let method) = caps.images, !method.drawsPixels { return nil }
        if let tmux = environment["TMUX"], !tmux.isEmpty {
            guard let answers = TmuxPassthrough.ask(environment: environment) else { return nil }
            let chosen = TmuxPassthrough.detect(setting: caps.images, environment: environment, answers: answers)
            guard chosen.method.drawsPixels else { return nil }
            let cell = PixelSize.fromWindowSize() ?? .assumed
            return CoverPixels(
                detection: PictureDetection(method: chosen.method, cell: cell, reason: chosen.reason), throughTmux: true
            )
        }
        let size = TerminalSize.current()
        let detection = PictureDetection.detect(
            setting: caps.images, environment: environment, isTTY: caps.isTTY, window: (size.columns, size.rows),
            ask: { TerminalQuery.askOnceFromLineMode() })
        return detection.method.drawsPixels ? CoverPixels(detection: detection) : nil
    }

    /// Each cover encoded over its box of cells (`columns × rows`, as its half-blocks are
    /// drawn): scaled to the cells' pixels, then encoded by Chafa; wrapped for tmux when inside it.
    nonisolated static func pictures(
        _ covers: [(picture: RasterImage, columns: Int, rows: Int)], pixels: CoverPixels, theme: Theme
    ) -> [CoverPicture] {
        let cell = pixels.detection.cell
        return covers.compactMap { cover in
            let (width, height) = (cover.columns * cell.width, cover.rows * cell.height)
            let scaled = cover.picture.scaled(width: width, height: height, background: (0, 0, 0))
            guard
                let code = PictureEncoder.encode(
                    rgba: scaled.pixels, width: width, height: height, columns: cover.columns, rows: cover.rows,
                    cell: cell, as: pixels.detection.method)
            else { return nil }
            return CoverPicture(
                rows: halfBlocks(cover.picture, columns: cover.columns, rows: cover.rows, theme: theme),
                columns: cover.columns, code: pixels.throughTmux ? TmuxPassthrough.wrap(code) : code)
        }
    }
}
