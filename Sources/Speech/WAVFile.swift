public import Foundation

/// A 16-bit mono PCM WAV file written as speech is made, then put in place whole.
///
/// The samples go to `NAME.part` beside the target; ``finish()`` writes the sizes into the
/// header, syncs and renames, so a stopped or failed run never leaves a half-written WAV under
/// the name asked for.
public final class WAVFile {
    private let url: URL
    private let partURL: URL
    private let handle: FileHandle
    private let sampleRate: Int
    /// Samples written so far.
    public private(set) var sampleCount = 0

    /// Starts a WAV file at `url` (written as `url.part` until ``finish()``).
    /// - Throws: when the folder cannot be written.
    public init(url: URL, sampleRate: Int) throws {
        self.url = url
        self.sampleRate = sampleRate
        partURL = url.appendingPathExtension("part")
        _ = FileManager.default.createFile(
            atPath: partURL.path, contents: Self.header(sampleRate: sampleRate, samples: 0))
        guard let handle = FileHandle(forWritingAtPath: partURL.path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.handle = handle
        handle.seekToEndOfFile()
    }

    /// The most samples a WAV file can hold: its sizes are 32-bit (about 27 hours at 22 kHz).
    public static let maxSamples = (Int(UInt32.max) - 44) / 2

    /// Appends samples.
    /// - Throws: ``SpeechError/tooLong`` past what a WAV file can hold.
    public func append(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        guard sampleCount + samples.count <= Self.maxSamples else { throw SpeechError.tooLong }
        var littleEndian = samples.map { $0.littleEndian }
        try handle.write(contentsOf: Data(bytes: &littleEndian, count: littleEndian.count * 2))
        sampleCount += samples.count
    }

    /// Seconds of audio written so far.
    public var duration: Double { Double(sampleCount) / Double(sampleRate) }

    /// Writes the final header, syncs and moves the file into place.
    public func finish() throws {
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Self.header(sampleRate: sampleRate, samples: sampleCount))
        try handle.synchronize()
        try handle.close()
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.moveItem(at: partURL, to: url)
    }

    /// Removes what was written (a stopped or failed run).
    public func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: partURL)
    }

    /// The 44-byte RIFF header of 16-bit mono PCM.
    static func header(sampleRate: Int, samples: Int) -> Data {
        var data = Data()
        func u32(_ v: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) }
        }
        func u16(_ v: Int) {
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) }
        }
        let bytes = samples * 2
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2);
        u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(bytes)
        return data
    }
}
