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
    }

    private(set) var items: [Item] = []
    /// Writes entries the way streaming zip writers do: sizes and CRC after the data (flag bit 3),
    /// zero in the local header.
    var useDataDescriptors = false

    mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        items.append(Item(name: name, data: Array(text.utf8), deflate: deflate, declaredSize: nil))
    }

    mutating func add(_ name: String, bytes: [UInt8], deflate: Bool = true, declaredSize: Int? = nil) {
        items.append(Item(name: name, data: bytes, deflate: deflate, declaredSize: declaredSize))
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
            let method: UInt16 = item.deflate ? 8 : 0
            let flags: UInt16 = useDataDescriptors ? 0x0808 : 0x0800
            out += Self.le32(0x0403_4B50) + Self.le16(20) + Self.le16(flags) + Self.le16(method) + Self.le16(0)
            out += Self.le16(0)
            out +=
                useDataDescriptors
                ? Self.le32(0) + Self.le32(0) + Self.le32(0)
                : Self.le32(crc) + Self.le32(UInt32(payload.count)) + Self.le32(size)
            out += Self.le16(UInt16(name.count)) + Self.le16(0) + name + payload
            if useDataDescriptors {
                out += Self.le32(0x0807_4B50) + Self.le32(crc) + Self.le32(UInt32(payload.count)) + Self.le32(size)
            }
            central += Self.le32(0x0201_4B50) + Self.le16(20) + Self.le16(20) + Self.le16(flags) + Self.le16(method)
            central += Self.le16(0) + Self.le16(0) + Self.le32(crc) + Self.le32(UInt32(payload.count)) + Self.le32(size)
            central += Self.le16(UInt16(name.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le16(0)
            central += Self.le32(0) + Self.le32(UInt32(offset)) + name
        }
        let cdOffset = out.count
        out += central
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
}
