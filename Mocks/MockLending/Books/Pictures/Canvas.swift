/// An RGB colour.
struct RGB: Sendable, Hashable {
    var r: UInt8
    var g: UInt8
    var b: UInt8

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// The colour `t` of the way from `self` to `other` (0 gives `self`, 1 gives `other`).
    func mixed(with other: RGB, _ t: Double) -> RGB {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(max(0, min(255, (Double(a) + (Double(b) - Double(a)) * t).rounded())))
        }
        return RGB(channel(r, other.r), channel(g, other.g), channel(b, other.b))
    }

    /// A lighter (t > 0, towards white) or darker (t < 0, towards black) shade.
    func shaded(_ t: Double) -> RGB {
        t >= 0 ? mixed(with: RGB(255, 255, 255), t) : mixed(with: RGB(0, 0, 0), -t)
    }

    static let white = RGB(255, 255, 255)
    static let black = RGB(0, 0, 0)
}

/// A picture being drawn: a width × height grid of RGB pixels and a few filled shapes.
///
/// Shapes are filled row by row with spans, never pixel by pixel through a closure, so that a
/// 400 × 600 cover costs a few milliseconds even in a debug build.
struct Canvas {
    let width: Int
    let height: Int
    /// Row-major RGB bytes.
    private(set) var pixels: [UInt8]

    /// A canvas filled with `background`.
    init(width: Int, height: Int, background: RGB) {
        precondition(width > 0 && height > 0, "a picture has at least one pixel")
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fillRect(x: 0, y: 0, width: width, height: height, background)
    }

    /// Fills columns `x0..<x1` of row `y` (clipped to the canvas).
    mutating func span(_ y: Int, _ x0: Int, _ x1: Int, _ colour: RGB) {
        guard y >= 0, y < height else { return }
        let from = max(0, x0)
        let to = min(width, x1)
        guard from < to else { return }
        let start = (y * width + from) * 3
        let total = (to - from) * 3
        pixels.withUnsafeMutableBufferPointer { p in
            // One pixel, then copy what is filled onto what is not, doubling: a few memmoves per
            // span instead of a loop per byte, which matters in debug builds.
            let base = p.baseAddress! + start
            base[0] = colour.r
            base[1] = colour.g
            base[2] = colour.b
            var filled = 3
            while filled < total {
                let n = min(filled, total - filled)
                (base + filled).update(from: base, count: n)
                filled += n
            }
        }
    }

    /// Fills a rectangle.
    mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, _ colour: RGB) {
        for row in max(0, y)..<max(max(0, y), min(height, y + h)) { span(row, x, x + w, colour) }
    }

    /// Fills the whole canvas with a top-to-bottom gradient.
    mutating func verticalGradient(_ top: RGB, _ bottom: RGB, from y0: Int = 0, to y1: Int? = nil) {
        let end = y1 ?? height
        let rows = max(1, end - y0 - 1)
        for row in y0..<end { span(row, 0, width, top.mixed(with: bottom, Double(row - y0) / Double(rows))) }
    }

    /// Fills a disc.
    mutating func fillCircle(cx: Int, cy: Int, radius: Int, _ colour: RGB) {
        // Only the rows on the canvas: a cover's rings reach far beyond it.
        let rows = max(-radius, -cy)...max(max(-radius, -cy), min(radius, height - 1 - cy))
        guard radius > 0 else { return }
        for dy in rows {
            let half = Int(Double(radius * radius - dy * dy).squareRoot())
            span(cy + dy, cx - half, cx + half + 1, colour)
        }
    }

    /// Fills a ring between two radii.
    mutating func fillRing(cx: Int, cy: Int, outer: Int, inner: Int, _ colour: RGB) {
        guard outer > 0 else { return }
        for dy in max(-outer, -cy)...max(max(-outer, -cy), min(outer, height - 1 - cy)) {
            let o = Int(Double(outer * outer - dy * dy).squareRoot())
            if abs(dy) < inner {
                let i = Int(Double(inner * inner - dy * dy).squareRoot())
                span(cy + dy, cx - o, cx - i, colour)
                span(cy + dy, cx + i + 1, cx + o + 1, colour)
            } else {
                span(cy + dy, cx - o, cx + o + 1, colour)
            }
        }
    }

    /// Fills a triangle with a horizontal base from (`left`, `baseY`) to (`right`, `baseY`) and its apex at (`apexX`,
    /// `apexY`).
    mutating func fillTriangle(left: Int, right: Int, baseY: Int, apexX: Int, apexY: Int, _ colour: RGB) {
        let rows = baseY - apexY
        guard rows > 0 else { return }
        for row in 0...rows {
            let t = Double(row) / Double(rows)
            let x0 = Int((Double(apexX) + (Double(left) - Double(apexX)) * t).rounded())
            let x1 = Int((Double(apexX) + (Double(right) - Double(apexX)) * t).rounded())
            span(apexY + row, x0, x1 + 1, colour)
        }
    }

    /// Fills everything below the curve `y = baseline - amplitude·sin(2π·x/period + phase)`, as a line of hills or
    /// waves.
    mutating func fillWave(baseline: Int, amplitude: Double, period: Double, phase: Double, _ colour: RGB) {
        var tops = [Int](repeating: 0, count: width)
        for x in 0..<width {
            tops[x] = max(0, baseline - Int(amplitude * deterministicSine(2 * Double.pi * Double(x) / period + phase)))
        }
        let highest = tops.min() ?? height
        let lowest = tops.max() ?? height
        // Rows between the crest and the trough are runs of columns; below the trough, whole rows.
        for y in highest..<min(height, lowest) {
            var x = 0
            while x < width {
                guard tops[x] <= y else {
                    x += 1
                    continue
                }
                let start = x
                while x < width, tops[x] <= y { x += 1 }
                span(y, start, x, colour)
            }
        }
        if lowest < height { fillRect(x: 0, y: lowest, width: width, height: height - lowest, colour) }
    }

    /// Diagonal stripes of `colour`, `band` pixels wide every `period` pixels, over the rectangle.
    mutating func diagonalStripes(x: Int, y: Int, width w: Int, height h: Int, period: Int, band: Int, _ colour: RGB) {
        for row in max(0, y)..<min(height, y + h) {
            var start = ((x - row) % period + period) % period + x - period
            while start < x + w {
                span(row, max(x, start), min(x + w, start + band), colour)
                start += period
            }
        }
    }
}

/// The sine of `x`, by Taylor series after range reduction.
///
/// Foundation's `sin` would need an import this module otherwise avoids here, and libm's results
/// differ in the last bit between platforms; this one is the same everywhere, which keeps the
/// pictures (and so the EPUB files) byte-identical across machines.
func deterministicSine(_ x: Double) -> Double {
    let twoPi = 2 * Double.pi
    var r = x - (x / twoPi).rounded(.down) * twoPi  // 0 ..< 2π
    var sign = 1.0
    if r > Double.pi {
        r -= Double.pi
        sign = -1
    }  // 0 ... π
    if r > Double.pi / 2 { r = Double.pi - r }  // 0 ... π/2
    let r2 = r * r
    // Terms to x^13: error below 1e-9 on [0, π/2], far under a pixel.
    let series = r * (1 - r2 / 6 * (1 - r2 / 20 * (1 - r2 / 42 * (1 - r2 / 72 * (1 - r2 / 110 * (1 - r2 / 156))))))
    return sign * series
}
