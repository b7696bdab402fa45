/// Writes a zip archive in memory, entry by entry, with fixed timestamps so that the same
/// entries always give the same bytes.
///
/// Only what an EPUB needs: stored and deflated entries with ASCII names, no extra fields, no
/// data descriptors, no Zip64 (a book stays far below 4 GB and 65 535 entries). Public for the
/// reader benchmark, which zips its generated novel with it.
public struct ZipWriter {
    /// How an entry's bytes are kept.
    public enum Method: UInt16, Sendable {
        /// Uncompressed, as an EPUB's `mimetype` must be.
        case stored = 0
        /// Raw deflate.
        case deflated = 8
    }

    private struct CentralRecord {
        let name: [UInt8]
        let method: Method
        let crc: UInt32
        let compressedSize: UInt32
        let size: UInt32
        let offset: UInt32
    }

    /// MS-DOS time and date of every entry: 2026-11-01 12:00, the catalogue's reference day.
    /// A fixed stamp keeps the archive byte-identical from run to run.
    static let dosTime: UInt16 = 12 << 11
    static let dosDate: UInt16 = UInt16((2026 - 1980) << 9 | 11 << 5 | 1)

    private(set) var bytes: [UInt8] = []
    private var records: [CentralRecord] = []

    /// Creates an empty archive.
    public init(expectedSize: Int = 0) {
        bytes.reserveCapacity(expectedSize)
    }

    /// Appends an entry; `level` is zlib's compression level for deflated entries.
    public mutating func add(_ name: String, _ content: [UInt8], method: Method = .deflated, level: Int32 = 6) {
        let nameBytes = Array(name.utf8)
        precondition(nameBytes.allSatisfy { $0 < 0x80 }, "zip entry names are ASCII here: \(name)")
        let crc = Deflate.crc32(content)
        let body = method == .stored ? content : Deflate.raw(content, level: level)
        precondition(bytes.count < Int(UInt32.max) && body.count < Int(UInt32.max), "the archive needs Zip64")
        let record = CentralRecord(
            name: nameBytes, method: method, crc: crc, compressedSize: UInt32(body.count),
            size: UInt32(content.count), offset: UInt32(bytes.count))
        put32(0x0403_4B50)  // local file header
        put16(20)  // version needed: 2.0 (deflate)
        put16(0)  // flags: no data descriptor, names are ASCII
        put16(method.rawValue)
        put16(Self.dosTime)
        put16(Self.dosDate)
        put32(crc)
        put32(record.compressedSize)
        put32(record.size)
        put16(UInt16(nameBytes.count))
        put16(0)  // no extra field (EPUB requires none on `mimetype`)
        bytes += nameBytes
        bytes += body
        records.append(record)
    }

    /// Appends the central directory and returns the finished archive.
    public mutating func finish() -> [UInt8] {
        let directoryStart = bytes.count
        for record in records {
            put32(0x0201_4B50)  // central directory header
            put16(20)  // version made by: 2.0, MS-DOS attributes
            put16(20)
            put16(0)
            put16(record.method.rawValue)
            put16(Self.dosTime)
            put16(Self.dosDate)
            put32(record.crc)
            put32(record.compressedSize)
            put32(record.size)
            put16(UInt16(record.name.count))
            put16(0)  // extra
            put16(0)  // comment
            put16(0)  // disk
            put16(0)  // internal attributes
            put32(0)  // external attributes
            put32(record.offset)
            bytes += record.name
        }
        let directorySize = bytes.count - directoryStart
        put32(0x0605_4B50)  // end of central directory
        put16(0)
        put16(0)
        put16(UInt16(records.count))
        put16(UInt16(records.count))
        put32(UInt32(directorySize))
        put32(UInt32(directoryStart))
        put16(0)
        return bytes
    }

    private mutating func put16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    private mutating func put32(_ value: UInt32) {
        put16(UInt16(truncatingIfNeeded: value))
        put16(UInt16(truncatingIfNeeded: value >> 16))
    }
}
