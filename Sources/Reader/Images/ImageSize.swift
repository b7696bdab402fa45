internal import CAVIF
internal import CJXL

/// The pixel size of a PNG, JPEG, GIF, WebP, SVG, AVIF or JPEG XL picture, read from its first
/// bytes without decoding it, so the layout can keep rows free for a picture before it is drawn.
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
        if isSVG(bytes) { return svgSize(bytes) }
        // AVIF and JPEG XL headers are read by their libraries (loaded now): their sizes are
        // deep in boxes or bit-packed, and only a book with such a picture loads them.
        var width: Int32 = 0
        var height: Int32 = 0
        if isAVIF(bytes),
            bytes.withUnsafeBufferPointer({ bok_avif_size($0.baseAddress, $0.count, &width, &height) }) == 1
        {
            return (Int(width), Int(height))
        }
        if isJXL(bytes), bytes.withUnsafeBufferPointer({ bok_jxl_size($0.baseAddress, $0.count, &width, &height) }) == 1
        {
            return (Int(width), Int(height))
        }
        return nil
    }

    /// An ISO media file (`ftyp` first) whose brands include AVIF's (`avif`, `avis`).
    static func isAVIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let end = min(bytes.count, max(16, be32(bytes, 0)))
        return stride(from: 8, to: end - 3, by: 4).contains { offset in
            offset != 12 && ["avif", "avis"].contains(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
        }
    }

    /// A JPEG XL code stream (`FF 0A`) or container (its `JXL ` signature box).
    static func isJXL(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0x0A])
            || bytes.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    /// Whether the bytes start like an SVG document: its root `svg` element within the first
    /// kilobytes, after an XML declaration, comments or a DOCTYPE.
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(4096)
        guard
            let first = head.firstIndex(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 >= 0xEF) }
            ),
            head[first] == UInt8(ascii: "<")
        else { return false }
        return rootTag(head) != nil
    }

    /// The root element's start tag (`<svg …>` or `<svg:svg …>`), as text.
    private static func rootTag(_ head: ArraySlice<UInt8>) -> Substring? {
        let text = String(decoding: head, as: UTF8.self)
        guard let match = text.firstMatch(of: /<([A-Za-z_][\w.-]*:)?svg[\s>\/][^>]*/) else { return nil }
        return match.0
    }

    /// An SVG's size in pixels from its root's `width` and `height` (in px, pt, pc, mm, cm or in,
    /// at 96 per inch), else from its `viewBox`: read from the text, so that laying out a page
    /// does not load librsvg.
    private static func svgSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let tag = rootTag(bytes.prefix(4096)) else { return nil }
        var attributes: [Substring: String] = [:]
        for match in tag.matches(of: /\s([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/) {
            attributes[match.1] = String(match.2 ?? match.3 ?? "")
        }
        func attribute(_ name: Substring) -> String? { attributes[name] }
        func pixels(_ value: String?) -> Double? {
            guard let match = value?.wholeMatch(of: /\s*([0-9]*\.?[0-9]+)\s*(px|pt|pc|mm|cm|in)?\s*/),
                let number = Double(match.1)
            else { return nil }
            let perUnit: [Substring: Double] = ["pt": 96.0 / 72, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96]
            return number * (match.2.flatMap { perUnit[$0] } ?? 1)
        }
        let box = attribute("viewBox")?.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        let boxSize = box.flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? ($0[2], $0[3]) : nil }
        var width = pixels(attribute("width"))
        var height = pixels(attribute("height"))
        // One side given: the other from the viewBox's proportions.
        if let boxSize, width == nil || height == nil {
            if let w = width { height = w * boxSize.1 / boxSize.0 }
            if let h = height, width == nil { width = h * boxSize.0 / boxSize.1 }
            if width == nil { (width, height) = (boxSize.0, boxSize.1) }
        }
        guard let width, let height, width >= 1, height >= 1, width < 100_000, height < 100_000 else { return nil }
        return (Int(width.rounded()), Int(height.rounded()))
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
        if isSVG(bytes) { return .svg }
        if isAVIF(bytes) { return .avif }
        if isJXL(bytes) { return .jxl }
        return nil
    }

    enum Kind { case png, jpeg, gif, webp, svg, avif, jxl }

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
