import Foundation
import SafeOutput

/// A 16-bit mono PCM WAV file written as speech is made, then put in place whole.
///
/// The samples go to an ``OutputFile`` (a temporary file of bok's own beside the target);
/// ``finish()`` writes the sizes into the header and puts it in place, so a stopped or failed
/// run never leaves a half-written WAV, and never removes what was at the path before.
///
/// `@unchecked Sendable` for a stated reason: `read aloud` appends to it from the speech
/// engine's sink, which runs inside the engine's lock on the calling thread; one command owns
/// the file and never shares it, but the release build's region analysis could not see that the
/// sink does not outlive the call ("sending 'file' risks causing data races").
public final class WAVFile: @unchecked Sendable {
    private let file: OutputFile
    private let sampleRate: Int
    /// Samples written so far.
    public private(set) var sampleCount = 0

    /// Starts a WAV file at `path` (a folder: `name` inside it).
    /// - Parameters:
    ///   - replace: Whether an existing regular file there may be replaced (`--force`).
    /// - Throws: ``OutputFileError`` when the target may not be written.
    public init(path: String, name: String, replace: Bool, sampleRate: Int) throws {
        self.sampleRate = sampleRate
        file = try OutputFile(path: path, name: name, replace: replace)
        try Self.header(sampleRate: sampleRate, samples: 0).withUnsafeBytes { bytes in
            try file.append(bytes)
        }
    }

    /// Where the file will be once finished.
    public var path: String { file.path }
    /// The folder it is written in.
    public var folder: String { file.folder }

    /// The most samples a WAV file can hold: its sizes are 32-bit (about 27 hours at 22 kHz).
    public static let maxSamples = (Int(UInt32.max) - 44) / 2

    /// Appends samples.
    /// - Throws: ``SpeechError/tooLong`` past what a WAV file can hold; ``OutputFileError`` when
    ///   the disk is full.
    public func append(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        guard sampleCount + samples.count <= Self.maxSamples else { throw SpeechError.tooLong }
        #if _endian(little)
        try file.append(UnsafeRawBufferPointer(samples))
        #else
        let littleEndian = samples.map { $0.littleEndian }
        try littleEndian.withUnsafeBytes { try file.append($0) }
        #endif
        sampleCount += samples.count
    }

    /// Seconds of audio written so far.
    public var duration: Double { Double(sampleCount) / Double(sampleRate) }

    /// Writes the final header, syncs and puts the file in place.
    public func finish() throws {
        try Self.header(sampleRate: sampleRate, samples: sampleCount).withUnsafeBytes { bytes in
            try file.write(bytes, at: 0)
        }
        try file.commit()
    }

    /// Removes what was written (a stopped or failed run).
    public func discard() { file.discard() }

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
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + bytes)
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8))
        u32(16)
        u16(1)
        u16(1)
        u32(sampleRate)
        u32(sampleRate * 2)
        u16(2)
        u16(16)
        data.append(contentsOf: Array("data".utf8))
        u32(bytes)
        return data
    }
}
