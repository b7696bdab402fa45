internal import CAVIF
internal import CGif
internal import CJPEG
internal import CJXL
internal import CPNG
internal import CRsvg
internal import CWebP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decoded picture: 8-bit RGBA pixels, row by row.
public struct RasterImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public let pixels: [UInt8]

    /// The most pixels a decoded image may have (a hostile file cannot exhaust memory).
    static let maxPixels = 40_000_000

    /// Creates an image from its pixels.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a PNG (with libpng), a JPEG (with libjpeg), a GIF's first frame (giflib), a
    /// WebP (libwebp), an AVIF (libavif), a JPEG XL (libjxl) or an SVG (drawn by librsvg); JPEGs
    /// are scaled down by libjpeg while they stay at least `minimumWidth` pixels wide, and SVGs
    /// drawn at least that wide.
    ///
    /// - Returns: `nil` for other formats and for files the libraries cannot read.
    public static func decode(_ bytes: [UInt8], minimumWidth: Int = 320) -> RasterImage? {
        guard let kind = ImageSize.kind(bytes) else { return nil }
        var width: Int32 = 0
        var height: Int32 = 0
        switch kind {
        case .png:
            guard
                let buffer = bytes.withUnsafeBufferPointer({
                    bok_png_decode_rgba($0.baseAddress, $0.count, maxPixels, &width, &height)
                })
            else { return nil }
            defer { free(buffer) }
            let count = Int(width) * Int(height) * 4
            return RasterImage(
                width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: buffer, count: count)))
        case .jpeg:
            guard
                let buffer = bytes.withUnsafeBufferPointer({
                    bok_jpeg_decode_rgb($0.baseAddress, UInt($0.count), Int32(minimumWidth), maxPixels, &width, &height)
                })
            else { return nil }
            defer { free(buffer) }
            let count = Int(width) * Int(height)
            var rgba = [UInt8](repeating: 255, count: count * 4)
            for index in 0..<count {
                rgba[index * 4] = buffer[index * 3]
                rgba[index * 4 + 1] = buffer[index * 3 + 1]
                rgba[index * 4 + 2] = buffer[index * 3 + 2]
            }
            return RasterImage(width: Int(width), height: Int(height), pixels: rgba)
        case .gif:
            guard
                let buffer = bytes.withUnsafeBufferPointer({
                    bok_gif_decode_rgba($0.baseAddress, $0.count, maxPixels, &width, &height)
                })
            else { return nil }
            defer { free(buffer) }
            return RasterImage(
                width: Int(width), height: Int(height),
                pixels: Array(UnsafeBufferPointer(start: buffer, count: Int(width) * Int(height) * 4)))
        case .webp:
            guard
                let buffer = bytes.withUnsafeBufferPointer({
                    bok_webp_decode_rgba($0.baseAddress, $0.count, maxPixels, &width, &height)
                })
            else { return nil }
            defer { bok_webp_free(buffer) }
            return RasterImage(
                width: Int(width), height: Int(height),
                pixels: Array(UnsafeBufferPointer(start: buffer, count: Int(width) * Int(height) * 4)))
        case .svg:
            return drawSVG(bytes, minimumWidth: minimumWidth)
        case .avif, .jxl:
            let decode = kind == .avif ? bok_avif_decode_rgba : bok_jxl_decode_rgba
            guard
                let buffer = bytes.withUnsafeBufferPointer({
                    decode($0.baseAddress, $0.count, maxPixels, &width, &height)
                })
            else { return nil }
            defer { free(buffer) }
            return RasterImage(
                width: Int(width), height: Int(height),
                pixels: Array(UnsafeBufferPointer(start: buffer, count: Int(width) * Int(height) * 4)))
        }
    }

    /// The longest side an SVG picture is drawn at: sharp on any terminal's pixels, and a
    /// drawing that asks for a huge size costs no more.
    static let svgLongestSide = 1600.0

    /// Draws an SVG (librsvg, loaded now) at its own size, made at least `minimumWidth` wide (a
    /// drawing scales without loss) and at most ``svgLongestSide``.
    private static func drawSVG(_ bytes: [UInt8], minimumWidth: Int) -> RasterImage? {
        var intrinsic = (width: 0.0, height: 0.0)
        guard
            bytes.withUnsafeBufferPointer({
                bok_svg_size($0.baseAddress, $0.count, &intrinsic.width, &intrinsic.height)
            }) == 1
        else { return nil }
        let grow = max(1, Double(minimumWidth) / intrinsic.width)
        let scale = min(grow, svgLongestSide / max(intrinsic.width, intrinsic.height))
        let width = max(1, Int((intrinsic.width * scale).rounded()))
        let height = max(1, Int((intrinsic.height * scale).rounded()))
        guard width * height <= maxPixels,
            let buffer = bytes.withUnsafeBufferPointer({
                bok_svg_render_rgba($0.baseAddress, $0.count, Int32(width), Int32(height))
            })
        else { return nil }
        defer { free(buffer) }
        return RasterImage(
            width: width, height: height, pixels: Array(UnsafeBufferPointer(start: buffer, count: width * height * 4)))
    }

    /// The image scaled to `width × height` by averaging the pixels each new pixel covers,
    /// composited over `background` where it is transparent.
    public func scaled(width newWidth: Int, height newHeight: Int, background: (UInt8, UInt8, UInt8)) -> RasterImage {
        let newWidth = max(1, newWidth)
        let newHeight = max(1, newHeight)
        var output = [UInt8](repeating: 255, count: newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let y0 = y * height / newHeight
            let y1 = max(y0 + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let x0 = x * width / newWidth
                let x1 = max(x0 + 1, (x + 1) * width / newWidth)
                var r = 0
                var g = 0
                var b = 0
                var count = 0
                // Sample at most 4×4 source pixels per output pixel: enough for a terminal.
                let stepY = max(1, (y1 - y0) / 4)
                let stepX = max(1, (x1 - x0) / 4)
                var sy = y0
                while sy < y1 {
                    var sx = x0
                    while sx < x1 {
                        let index = (sy * width + sx) * 4
                        let alpha = Int(pixels[index + 3])
                        r += (Int(pixels[index]) * alpha + Int(background.0) * (255 - alpha)) / 255
                        g += (Int(pixels[index + 1]) * alpha + Int(background.1) * (255 - alpha)) / 255
                        b += (Int(pixels[index + 2]) * alpha + Int(background.2) * (255 - alpha)) / 255
                        count += 1
                        sx += stepX
                    }
                    sy += stepY
                }
                let out = (y * newWidth + x) * 4
                output[out] = UInt8(r / count)
                output[out + 1] = UInt8(g / count)
                output[out + 2] = UInt8(b / count)
            }
        }
        return RasterImage(width: newWidth, height: newHeight, pixels: output)
    }

    /// The colour of a pixel.
    public func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let index = (y * width + x) * 4
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }
}
