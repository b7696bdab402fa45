internal import CZlib
import Localization

/// A read-only zip archive held in memory, whose entries are inflated on demand.
///
/// The reader has its own small zip reader rather than a general zip library because it needs a
/// `Sendable` value it can hand to background layout, exact errors for truncated and foreign
/// files, and caps enforced while inflating (a zip bomb stops at its declared size, and the
/// declared sizes together are capped when the archive is opened). Nothing is ever written to
/// disk, and entries whose names are absolute or climb out with `..` are not indexed at all.
struct ZipArchive: Sendable {
    /// One file listed in the central directory.
    struct Entry: Sendable {
        /// The name as stored in the archive.
        let rawName: String
        /// The normalised path, or `nil` when the name is unsafe.
        let path: String?
        let method: UInt16
        let flags: UInt16
        let crc32: UInt32
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int

        var isEncrypted: Bool { flags & 1 != 0 }
        var isDirectory: Bool { rawName.hasSuffix("/") }
    }

    /// The whole file.
    let bytes: [UInt8]
    /// Entries in central-directory order.
    let entries: [Entry]
    /// Index of `entries` by normalised path.
    private let byPath: [String: Int]
    let limits: ReaderLimits

    /// Names of entries that were skipped because they would resolve outside the book.
    var unsafeNames: [String] { entries.filter { $0.path == nil }.map(\.rawName) }

    /// Parses the central directory of `bytes`.
    ///
    /// - Throws: `ReaderError` for an empty file, a file that is not a zip, a truncated zip, or an
    ///   archive whose declared sizes exceed `limits`.
    init(bytes: [UInt8], limits: ReaderLimits = .standard) throws {
        self.bytes = bytes
        self.limits = limits
        let size = bytes.count
        if size == 0 {
            throw ReaderError(.emptyFile, tr("The book file is empty; download it again."))
        }
        let startsLikeZip =
            size >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
        if !startsLikeZip {
            throw ReaderError(.notEPUB, Self.notZipMessage(bytes))
        }
        guard let eocd = Self.findEndOfCentralDirectory(bytes) else {
            throw Self.incomplete("the zip archive ends early")
        }
        var disk = Int(Self.u16(bytes, eocd + 4))
        var directoryDisk = Int(Self.u16(bytes, eocd + 6))
        var countHere = Int(Self.u16(bytes, eocd + 8))
        var count = Int(Self.u16(bytes, eocd + 10))
        var cdSize = Int(Self.u32(bytes, eocd + 12))
        var cdOffset = Int(Self.u32(bytes, eocd + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF,
            eocd >= 20, Self.u32(bytes, eocd - 20) == 0x0706_4B50
        {
            let z64 = Self.u64(bytes, eocd - 12)
            guard z64 >= 0, z64 + 56 <= size, Self.u32(bytes, z64) == 0x0606_4B50 else {
                throw Self.incomplete("the zip archive ends early")
            }
            disk = Int(Self.u32(bytes, z64 + 16))
            directoryDisk = Int(Self.u32(bytes, z64 + 20))
            countHere = Self.u64(bytes, z64 + 24)
            count = Self.u64(bytes, z64 + 32)
            cdSize = Self.u64(bytes, z64 + 40)
            cdOffset = Self.u64(bytes, z64 + 48)
        }
        // A container split into segments is in error (EPUB RS 3.3): this file is one part of it.
        if disk != 0 || directoryDisk != 0 || countHere != count {
            throw Self.damaged("the zip archive is split into several parts")
        }
        guard cdOffset >= 0, cdSize >= 0, cdOffset + cdSize <= size else {
            throw Self.incomplete("the zip archive ends early")
        }
        if count > limits.maxEntries {
            throw Self.unsafe("the book lists \(count) files, more than the \(limits.maxEntries) accepted")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var byPath: [String: Int] = [:]
        var position = cdOffset
        var declaredTotal = 0
        for _ in 0..<count {
            guard position + 46 <= size, Self.u32(bytes, position) == 0x0201_4B50 else {
                throw Self.damaged("the zip central directory is damaged")
            }
            let flags = Self.u16(bytes, position + 8)
            let method = Self.u16(bytes, position + 10)
            let crc = Self.u32(bytes, position + 16)
            var compressed = Int(Self.u32(bytes, position + 20))
            var uncompressed = Int(Self.u32(bytes, position + 24))
            let nameLength = Int(Self.u16(bytes, position + 28))
            let extraLength = Int(Self.u16(bytes, position + 30))
            let commentLength = Int(Self.u16(bytes, position + 32))
            var localOffset = Int(Self.u32(bytes, position + 42))
            let nameStart = position + 46
            let next = nameStart + nameLength + extraLength + commentLength
            guard next <= size else {
                throw Self.incomplete("the zip archive ends early")
            }
            let name = String(decoding: bytes[nameStart..<nameStart + nameLength], as: UTF8.self)
            // ZIP64 sizes live in extra field 0x0001, in this order, only for fields saturated above.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.u16(bytes, extra)
                let length = Int(Self.u16(bytes, extra + 2))
                if id == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extraEnd {
                        uncompressed = Self.u64(bytes, field)
                        field += 8
                    }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extraEnd {
                        compressed = Self.u64(bytes, field)
                        field += 8
                    }
                    if localOffset == 0xFFFF_FFFF, field + 8 <= extraEnd { localOffset = Self.u64(bytes, field) }
                }
                extra += 4 + length
            }
            let normalized = BookPath.normalize(name.replacingBackslashes())
            let entry = Entry(
                rawName: name, path: normalized, method: method, flags: flags, crc32: crc,
                compressedSize: compressed, uncompressedSize: uncompressed,
                localHeaderOffset: localOffset)
            if let normalized, byPath[normalized] == nil { byPath[normalized] = entries.count }
            if uncompressed < 0 || compressed < 0 {
                throw Self.damaged("the zip central directory is damaged")
            }
            declaredTotal += uncompressed
            if declaredTotal > limits.maxTotalBytes {
                throw Self.unsafe("the book would decompress to more than \(limits.maxTotalBytes >> 20) MB")
            }
            entries.append(entry)
            position = next
        }
        self.entries = entries
        self.byPath = byPath
    }

    /// Whether a (normalised) path is a file in the archive.
    func contains(_ path: String) -> Bool { byPath[path] != nil }

    /// The entry at a normalised path.
    func entry(_ path: String) -> Entry? { byPath[path].map { entries[$0] } }

    /// Inflates the whole entry at `path`, checking its size against the caps and its CRC.
    ///
    /// - Throws: `ReaderError` when the entry is missing, damaged, encrypted, or too large.
    func data(at path: String) throws -> [UInt8] {
        guard let entry = entry(path) else {
            throw Self.damaged("the book has no file \(path)")
        }
        if entry.uncompressedSize > limits.maxEntryBytes {
            throw Self.unsafe("\(entry.rawName) would decompress to more than \(limits.maxEntryBytes >> 20) MB")
        }
        let output = try inflate(entry, upTo: entry.uncompressedSize, exact: true)
        let crc = output.withUnsafeBufferPointer { buffer -> UInt32 in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        if crc != entry.crc32 {
            throw Self.damaged("\(entry.rawName): checksum mismatch")
        }
        return output
    }

    /// Inflates at most the first `maxBytes` of the entry at `path` (for a quick look at a document's
    /// head), without checking the CRC.
    func prefix(at path: String, maxBytes: Int) throws -> [UInt8] {
        guard let entry = entry(path) else {
            throw Self.damaged("the book has no file \(path)")
        }
        return try inflate(entry, upTo: min(maxBytes, entry.uncompressedSize, limits.maxEntryBytes), exact: false)
    }

    private func inflate(_ entry: Entry, upTo limit: Int, exact: Bool) throws -> [UInt8] {
        if entry.isEncrypted {
            throw ReaderError(
                .drm, tr("This book is protected by DRM; bok cannot open protected books."),
                detail: "\(entry.rawName) is encrypted")
        }
        let header = entry.localHeaderOffset
        guard header >= 0, header + 30 <= bytes.count, Self.u32(bytes, header) == 0x0403_4B50 else {
            throw Self.incomplete("\(entry.rawName) is cut off")
        }
        let dataStart = header + 30 + Int(Self.u16(bytes, header + 26)) + Int(Self.u16(bytes, header + 28))
        let available = bytes.count - dataStart
        guard available >= 0 else {
            throw Self.incomplete("\(entry.rawName) is cut off")
        }
        switch entry.method {
        case 0:
            guard entry.compressedSize <= available else {
                throw Self.incomplete("\(entry.rawName) is cut off")
            }
            let count = min(limit, entry.compressedSize)
            return Array(bytes[dataStart..<dataStart + count])
        case 8:
            let inputCount = min(entry.compressedSize, available)
            return try inflateRaw(entry, from: dataStart, count: inputCount, limit: limit, exact: exact)
        default:
            throw Self.unknownCompression(entry)
        }
    }

    /// An entry compressed by a method other than stored or Deflate: the file is not damaged, it
    /// was packed by a tool that chose another method (7-Zip's Deflate64, bzip2, LZMA), which EPUB
    /// does not allow; saving it again as EPUB repacks it.
    private static func unknownCompression(_ entry: Entry) -> ReaderError {
        let name = compressionMethods[entry.method]
        let message =
            if let name {
                tr(
                    "This book's file is compressed with {method}, which bok cannot unpack; open it in calibre, "
                        + "save it as EPUB again, and open that copy.",
                    ["method": name])
            } else {
                tr(
                    "This book's file is compressed in a way bok cannot unpack (zip method {number}); open it in "
                        + "calibre, save it as EPUB again, and open that copy.",
                    ["number": Int(entry.method)])
            }
        return ReaderError(
            .unsupportedCompression, message,
            detail: "\(entry.rawName): compression method \(entry.method) (\(name ?? "unknown"))")
    }

    /// The names of the zip compression methods of PKWARE's APPNOTE that tools still write.
    private static let compressionMethods: [UInt16: String] = [
        1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode", 9: "Deflate64",
        10: "PKWARE DCL Implode", 12: "bzip2", 14: "LZMA", 18: "IBM TERSE", 19: "LZ77", 20: "Zstandard",
        93: "Zstandard", 95: "XZ", 96: "JPEG", 97: "WavPack", 98: "PPMd",
    ]

    private func inflateRaw(_ entry: Entry, from start: Int, count: Int, limit: Int, exact: Bool) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: limit)
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ReaderError(
                .damaged, tr("bok could not unpack this book; try again."),
                detail: "inflateInit failed for \(entry.rawName)")
        }
        defer { inflateEnd(&stream) }
        let result: (status: Int32, produced: Int, overflow: Bool) = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + start)
                stream.avail_in = uInt(count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                var status = limit == 0 ? Z_BUF_ERROR : CZlib.inflate(&stream, Z_FINISH)
                let produced = limit - Int(stream.avail_out)
                var overflow = false
                if exact, status != Z_STREAM_END, stream.avail_out == 0 {
                    // Output is full but the stream has not ended: one more byte means the entry
                    // inflates past its declared size, which only a damaged file or a bomb does.
                    var probe: UInt8 = 0
                    withUnsafeMutablePointer(to: &probe) { pointer in
                        stream.next_out = pointer
                        stream.avail_out = 1
                        status = CZlib.inflate(&stream, Z_FINISH)
                        overflow = stream.avail_out == 0
                    }
                }
                return (status, produced, overflow)
            }
        }
        if result.overflow {
            throw Self.unsafe("\(entry.rawName) decompresses to more than its declared size (zip bomb)")
        }
        if exact {
            guard result.status == Z_STREAM_END, result.produced == limit else {
                if count < entry.compressedSize || result.status == Z_BUF_ERROR {
                    throw Self.incomplete("\(entry.rawName) is cut off")
                }
                throw Self.damaged("\(entry.rawName) does not inflate")
            }
        } else if result.status != Z_STREAM_END, result.status != Z_OK, result.status != Z_BUF_ERROR {
            throw Self.damaged("\(entry.rawName) does not inflate")
        }
        if result.produced < output.count { output.removeSubrange(result.produced...) }
        return output
    }

    // MARK: - Helpers

    /// A file that ends early: an interrupted download. `detail` is for the debug log.
    private static func incomplete(_ detail: String) -> ReaderError {
        ReaderError(.truncated, tr("The book file is incomplete; download it again."), detail: detail)
    }

    /// A file damaged in some other way. `detail` is for the debug log.
    private static func damaged(_ detail: String) -> ReaderError {
        ReaderError(.damaged, tr("This book's file is damaged; download it again."), detail: detail)
    }

    /// A file that would unpack to more than a book needs: damaged, or made to fill the disk.
    private static func unsafe(_ detail: String) -> ReaderError {
        ReaderError(
            .tooLarge,
            tr(
                "This book's file is damaged or unsafe (it unpacks to far more than a book needs), "
                    + "so bok will not open it."),
            detail: detail)
    }

    private static func notZipMessage(_ bytes: [UInt8]) -> String {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0x25, 0x50, 0x44, 0x46]) {
            return tr("This file is a PDF, not an EPUB book; open an .epub file.")
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return tr("This file is a PNG image, not an EPUB book; open an .epub file.")
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return tr("This file is a JPEG image, not an EPUB book; open an .epub file.")
        } else if head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<html".utf8))
            || head.starts(with: Array("<!DOCTYPE".utf8).prefix(8))
        {
            return tr("This file is a web page or XML file, not an EPUB book; open an .epub file.")
        }
        return tr("This file is not an EPUB book; open an .epub file.")
    }

    private static func findEndOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        let size = bytes.count
        guard size >= 22 else { return nil }
        let lowest = max(0, size - 22 - 0xFFFF)
        var position = size - 22
        while position >= lowest {
            if bytes[position] == 0x50, bytes[position + 1] == 0x4B, bytes[position + 2] == 5, bytes[position + 3] == 6
            {
                return position
            }
            position -= 1
        }
        return nil
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    static func u64(_ bytes: [UInt8], _ at: Int) -> Int {
        let low = UInt64(u32(bytes, at))
        let high = UInt64(u32(bytes, at + 4))
        return Int(truncatingIfNeeded: low | high << 32)
    }
}

extension String {
    /// Zip tools on Windows sometimes store `\` as the separator.
    fileprivate func replacingBackslashes() -> String {
        utf8.contains(UInt8(ascii: "\\")) ? String(map { $0 == "\\" ? "/" : $0 }) : self
    }
}
