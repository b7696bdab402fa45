/// Encodes an RGB picture as a PNG: signature, IHDR, one IDAT (zlib deflate), IEND.
///
/// 8-bit truecolour without alpha or interlacing, the simplest form every reader accepts. Rows
/// are unfiltered: these pictures are flat areas and horizontal bands, which deflate's
/// three-byte back-references compress as well as a filter would, and copying rows is cheap.
public enum PNGEncoder {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG file of `canvas`.
    static func encode(_ canvas: Canvas) -> [UInt8] {
        encode(width: canvas.width, height: canvas.height, rgb: canvas.pixels)
    }

    /// The PNG file of a `width` × `height` picture given as row-major RGB bytes (used by the
    /// reader benchmark for its novel's cover, too).
    public static func encode(width: Int, height: Int, rgb pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count == width * height * 3, "RGB bytes do not fill \(width) × \(height)")
        let stride = width * 3
        var filtered = [UInt8](repeating: 0, count: height * (stride + 1))
        pixels.withUnsafeBufferPointer { source in
            filtered.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    // Filter type 0 (None) is the zero already there; then the row as it is.
                    (out.baseAddress! + y * (stride + 1) + 1).update(
                        from: source.baseAddress! + y * stride, count: stride)
                }
            }
        }
        var png = signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, truecolour, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        // Level 1: these pictures are flat colour, so it compresses nearly as well as 6 in half the time.
        appendChunk("IDAT", Deflate.zlib(filtered, level: 1), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Appends a chunk: length, type, data and the CRC of type and data.
    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png.appendBigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        png.appendBigEndian(Deflate.crc32(data, continuing: Deflate.crc32(typeBytes)))
    }
}

extension [UInt8] {
    /// Appends `value` most significant byte first, as PNG writes its integers.
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }
}
