import CZlib
import Foundation

/// Writes zip archives in memory for tests, including deliberately broken ones.
struct ZipWriter {
    struct Item {
        var name: String
        var data: [UInt8]
        var deflate: Bool
        /// Lies about the uncompressed size in the directory (for zip-bomb tests).
        var declaredSize: Int?
        /// Names another compression method than the data's (for tests of methods bok cannot unpack).
        var method: UInt16?
    }

    private(set) var items: [Item] = []
    /// Writes entries the way streaming zip writers do: sizes and CRC after the data (flag bit 3),
    /// zero in the local header.
    var useDataDescriptors = false
    /// Writes every size and offset in ZIP64 form, as tools do for archives over 4 GB (and some
    /// always).
    var useZip64 = false

    mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        items.append(Item(name: name, data: Array(text.utf8), deflate: deflate, declaredSize: nil))
    }

    mutating func add(
        _ name: String, bytes: [UInt8], deflate: Bool = true, declaredSize: Int? = nil, method: UInt16? = nil
    ) {
        items.append(Item(name: name, data: bytes, deflate: deflate, declaredSize: declaredSize, method: method))
    }

    func archive() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for item in items {
            let offset = out.count
            let payload = item.deflate ? Self.deflate(item.data) : item.data
            let crc = item.data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let name = Array(item.name.utf8)
            let size = UInt32(item.declaredSize ?? item.data.count)
            let method: UInt16 = item.method ?? (item.deflate ? 8 : 0)
            let flags: UInt16 = useDataDescriptors ? 0x0808 : 0x0800
            // ZIP64: the 32-bit fields say 0xFFFFFFFF and the real values follow in extra field 1.
            let localExtra =
                useZip64
                ? Self.le16(1) + Self.le16(16) + Self.le64(UInt64(size)) + Self.le64(UInt64(payload.count)) : []
            out += Self.le32(0x0403_4B50) + Self.le16(useZip64 ? 45 : 20) + Self.le16(flags) + Self.le16(method)
            out += Self.le16(0) + Self.le16(0)
            if useDataDescriptors {
                out += Self.le32(0) + Self.le32(0) + Self.le32(0)
            } else if useZip64 {
                out += Self.le32(crc) + Self.le32(0xFFFF_FFFF) + Self.le32(0xFFFF_FFFF)
            } else {
                out += Self.le32(crc) + Self.le32(UInt32(payload.count)) + Self.le32(size)
            }
            out += Self.le16(UInt16(name.count)) + Self.le16(UInt16(localExtra.count)) + name + localExtra + payload
            if useDataDescriptors {
                out += Self.le32(0x0807_4B50) + Self.le32(crc)
                out +=
                    useZip64
                    ? Self.le64(UInt64(payload.count)) + Self.le64(UInt64(size))
                    : Self.le32(UInt32(payload.count)) + Self.le32(size)
            }
            let centralExtra =
                useZip64
                ? Self.le16(1) + Self.le16(24) + Self.le64(UInt64(size)) + Self.le64(UInt64(payload.count))
                    + Self.le64(UInt64(offset)) : []
            central += Self.le32(0x0201_4B50) + Self.le16(20) + Self.le16(20) + Self.le16(flags) + Self.le16(method)
            central += Self.le16(0) + Self.le16(0) + Self.le32(crc)
            central +=
                useZip64
                ? Self.le32(0xFFFF_FFFF) + Self.le32(0xFFFF_FFFF) : Self.le32(UInt32(payload.count)) + Self.le32(size)
            central += Self.le16(UInt16(name.count)) + Self.le16(UInt16(centralExtra.count)) + Self.le16(0)
            central += Self.le16(0) + Self.le16(0)
            central += Self.le32(0) + Self.le32(useZip64 ? 0xFFFF_FFFF : UInt32(offset)) + name + centralExtra
        }
        let cdOffset = out.count
        out += central
        if useZip64 {
            let record = out.count
            out += Self.le32(0x0606_4B50) + Self.le64(44) + Self.le16(45) + Self.le16(45) + Self.le32(0) + Self.le32(0)
            out += Self.le64(UInt64(items.count)) + Self.le64(UInt64(items.count))
            out += Self.le64(UInt64(central.count)) + Self.le64(UInt64(cdOffset))
            out += Self.le32(0x0706_4B50) + Self.le32(0) + Self.le64(UInt64(record)) + Self.le32(1)
            out += Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + Self.le16(0xFFFF) + Self.le16(0xFFFF)
            out += Self.le32(0xFFFF_FFFF) + Self.le32(0xFFFF_FFFF) + Self.le16(0)
            return out
        }
        out += Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + Self.le16(UInt16(items.count))
        out +=
            Self.le16(UInt16(items.count)) + Self.le32(UInt32(central.count)) + Self.le32(UInt32(cdOffset))
            + Self.le16(0)
        return out
    }

    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(
            &stream, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        var input = data
        let produced = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf -> Int in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return outBuf.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
