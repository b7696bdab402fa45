internal import CZlib

/// zlib's deflate and CRC-32, the two things a zip archive and a PNG need.
enum Deflate {
    /// The raw deflate stream of `bytes` (no zlib header), as a zip entry stores it.
    static func raw(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        compress(bytes, level: level, windowBits: -MAX_WBITS)
    }

    /// The zlib stream of `bytes` (header and Adler-32), as a PNG's IDAT chunks carry it.
    static func zlib(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        compress(bytes, level: level, windowBits: MAX_WBITS)
    }

    /// The CRC-32 of `bytes`, continuing from `crc`.
    static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(uLong(crc), buffer.baseAddress, uInt(buffer.count)))
        }
    }

    private static func compress(_ bytes: [UInt8], level: Int32, windowBits: Int32) -> [UInt8] {
        var stream = z_stream()
        // Memory level 8 and the default strategy are zlib's own defaults; only the framing differs.
        let started = deflateInit2_(
            &stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(started == Z_OK, "zlib could not start deflating (\(started)); out of memory?")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                // zlib never writes through next_in; the cast only satisfies its C signature.
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound is an upper bound for a single Z_FINISH call, so anything else is a bug.
        precondition(status == Z_STREAM_END, "zlib did not finish in one call (\(status))")
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
