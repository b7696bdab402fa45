/// The pixel size of a PNG, JPEG, GIF or WebP, read from its first bytes without decoding it, so the
/// layout can keep rows free for a picture before it is drawn.
public enum ImageSize {
    /// Width and height in pixels, or `nil` for another format or a damaged header.
    public static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.count >= 24, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 {
            // PNG: the IHDR chunk comes first; width and height are big-endian at 16 and 20.
            let width = be32(bytes, 16)
            let height = be32(bytes, 20)
            return width > 0 && height > 0 ? (width, height) : nil
        }
        if bytes.count >= 10, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46 {
            let width = Int(bytes[6]) | Int(bytes[7]) << 8
            let height = Int(bytes[8]) | Int(bytes[9]) << 8
            return width > 0 && height > 0 ? (width, height) : nil
        }
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            return jpegSize(bytes)
        }
        if bytes.count >= 30, isWebP(bytes) { return webpSize(bytes) }
        return nil
    }

    private static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    /// The size from a WebP's first chunk: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`).
    private static func webpSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        let size: (Int, Int)
        switch chunk {
        case "VP8 ":
            size = ((Int(bytes[26]) | Int(bytes[27]) << 8) & 0x3FFF, (Int(bytes[28]) | Int(bytes[29]) << 8) & 0x3FFF)
        case "VP8L":
            let b = (1...4).map { Int(bytes[20 + $0]) }
            size = (1 + (b[0] | (b[1] & 0x3F) << 8), 1 + (b[1] >> 6 | b[2] << 2 | (b[3] & 0x0F) << 10))
        case "VP8X":
            size = (
                1 + (Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16),
                1 + (Int(bytes[27]) | Int(bytes[28]) << 8 | Int(bytes[29]) << 16)
            )
        default:
            return nil
        }
        return size.0 > 0 && size.1 > 0 ? size : nil
    }

    /// Whether the bytes start like a format the reader can decode.
    static func kind(_ bytes: [UInt8]) -> Kind? {
        if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 6, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46, bytes[3] == 0x38 { return .gif }
        if isWebP(bytes) { return .webp }
        return nil
    }

    enum Kind { case png, jpeg, gif, webp }

    /// Walks the JPEG markers to the first start-of-frame, which holds the size.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else {
                index += 1
                continue
            }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            if marker == 0xDA { return nil }  // image data began without a frame header
            index += 2 + length
        }
        return nil
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
