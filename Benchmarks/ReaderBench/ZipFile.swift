import CZlib

/// Writes a zip archive (deflate or stored entries), enough for an EPUB.
enum ZipFile {
    static func archive(_ files: [(String, [UInt8], Bool)]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, data, compress) in files {
            let offset = out.count
            let payload = compress ? deflate(data) : data
            let crc = data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let nameBytes = Array(name.utf8)
            let method: UInt16 = compress ? 8 : 0
            out += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0)
            out += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(data.count))
            out += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + payload
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0)
            central += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(data.count))
            central += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + nameBytes
        }
        let directoryOffset = out.count
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count))
        out += le32(UInt32(central.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return out
    }

    /// Raw deflate (no zlib header), as zip wants; `windowBits` 15 for zlib-wrapped data.
    static func deflate(_ data: [UInt8], windowBits: Int32 = -MAX_WBITS) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        var input = data
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }
}

/// Paints a cover: a sky, a sea and a lighthouse, as a PNG.
enum CoverPainter {
    static func png(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        let horizon = height * 3 / 5
        for y in 0..<height {
            raw.append(0)  // no filter
            for x in 0..<width {
                var (r, g, b): (Int, Int, Int)
                if y < horizon {
                    let t = y * 255 / horizon
                    (r, g, b) = (250 - t / 3, 200 - t / 4, 120 + t / 2)
                } else {
                    let t = (y - horizon) * 255 / (height - horizon)
                    (r, g, b) = (30, 70 + t / 5, 120 - t / 4)
                }
                let tower = abs(x - width * 2 / 3) < 8 && y > horizon - height / 4 && y < horizon + 4
                if tower { (r, g, b) = ((y / 12) % 2 == 0 ? 235 : 200, (y / 12) % 2 == 0 ? 235 : 40, (y / 12) % 2 == 0 ? 230 : 40) }
                raw += [UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b)]
            }
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return ZipFile.be32(UInt32(data.count)) + body + ZipFile.be32(ZipFile.crc(body))
        }
        let header = ZipFile.be32(UInt32(width)) + ZipFile.be32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", deflate(raw)) + chunk("IEND", [])
    }

    private static func deflate(_ data: [UInt8]) -> [UInt8] { ZipFile.deflate(data, windowBits: MAX_WBITS) }
}
