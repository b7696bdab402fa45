internal import CESpeak
public import Localization
import Synchronization

/// eSpeak NG as a library: text to 16-bit mono PCM, with the word and sentence events that say
/// which part of the text each stretch of audio speaks.
///
/// eSpeak keeps one synthesizer per process (its voice, rate and buffers are global), so there is
/// one engine, ``shared``, and every call is serialised by its lock. Synthesis runs in eSpeak's
/// synchronous retrieval mode: audio comes back to the caller (to write a WAV file, or to play
/// it), never to a sound device eSpeak opens itself, so it works the same with no sound card.
public final class SpeechEngine: Sendable {
    /// The process's engine; nil when eSpeak NG or its voice data cannot be loaded.
    public static let shared: SpeechEngine? = SpeechEngine()

    /// Samples per second of the audio ``speak(_:options:to:)`` delivers.
    public let sampleRate: Int
    private let lock = Mutex(())

    private init?() {
        guard bok_espeak_load() == 1 else { return nil }
        let rate = bok_espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 500, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { return nil }
        sampleRate = Int(rate)
        bok_espeak_SetSynthCallback(speechCallback)
    }

    /// Speaks `text` with `options`, handing each block of audio and its events to `sink`.
    ///
    /// Offsets in the events count Unicode scalars from the start of `text`. `sink` returns false
    /// to stop (quitting, Esc): synthesis ends after the current block. Returns when the text has
    /// been spoken or stopped.
    /// - Throws: ``SpeechError`` when the voice does not exist or eSpeak fails.
    public func speak(
        _ text: String, options: SpeechOptions,
        to sink: (_ samples: UnsafeBufferPointer<Int16>, _ events: [SpeechEvent]) -> Bool
    ) throws {
        try lock.withLock { _ in
            try Self.use(options.voice)
            bok_espeak_SetParameter(espeakRATE, Int32(options.rate), 0)
            bok_espeak_SetParameter(espeakPITCH, Int32(options.pitch), 0)
            try withoutActuallyEscaping(sink) { sink in
                let context = SynthesisContext(sink: sink)
                let unmanaged = Unmanaged.passRetained(context)
                defer { unmanaged.release() }
                let bytes = Array(text.utf8) + [0]
                let status = bytes.withUnsafeBufferPointer { buffer in
                    bok_espeak_Synth(
                        buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                        UInt32(espeakCHARS_UTF8), nil, unmanaged.toOpaque())
                }
                guard status == EE_OK else { throw SpeechError.failed }
                _ = bok_espeak_Synchronize()
            }
        }
    }

    /// The phonemes eSpeak would speak for `text` with `voice` (its ASCII phoneme names).
    ///
    /// Shows which language's rules are in force: the same word reads differently in Swedish and English.
    public func phonemes(_ text: String, voice: String) throws -> String {
        try lock.withLock { _ in
            try Self.use(voice)
            var result = ""
            let bytes = Array(text.utf8) + [0]
            bytes.withUnsafeBufferPointer { buffer in
                var pointer: UnsafeRawPointer? = UnsafeRawPointer(buffer.baseAddress)
                while let current = pointer, current.load(as: UInt8.self) != 0 {
                    guard let phonemes = bok_espeak_TextToPhonemes(&pointer, Int32(espeakCHARS_UTF8), 0) else { break }
                    result += (result.isEmpty ? "" : " ") + String(cString: phonemes)
                }
            }
            return result
        }
    }

    /// Sets `voice`: a voice's name, else a language one of the voices speaks. ``voiceNames`` lists
    /// languages, and some are spoken by a voice of another name (`zh` by `cmn`).
    private static func use(_ voice: String) throws {
        guard bok_espeak_SetVoiceByName(voice) == EE_OK || bok_espeak_SetVoiceByLanguage(voice) == EE_OK else {
            throw SpeechError.noVoice(voice)
        }
    }

    /// The eSpeak voice names installed (`sv`, `en`, `en-us`, …).
    public var voiceNames: [String] {
        lock.withLock { _ in
            guard let list = bok_espeak_ListVoices(nil) else { return [] }
            var names: [String] = []
            var index = 0
            while let voice = list[index] {
                // `languages` is a list of (priority byte, NUL-terminated name) pairs ending in a 0 byte.
                if var cursor = voice.pointee.languages {
                    while cursor.pointee != 0 {
                        let name = String(cString: cursor + 1)
                        names.append(name)
                        cursor += name.utf8.count + 2
                    }
                }
                index += 1
            }
            return names
        }
    }
}

/// What one synthesis hands back: the caller's sink, reached from eSpeak's C callback.
private final class SynthesisContext {
    let sink: (UnsafeBufferPointer<Int16>, [SpeechEvent]) -> Bool
    init(sink: @escaping (UnsafeBufferPointer<Int16>, [SpeechEvent]) -> Bool) { self.sink = sink }
}

/// eSpeak's callback: audio and a list of events ended by `LIST_TERMINATED`; 1 stops synthesis.
private func speechCallback(
    _ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
    _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let events, let user = events.pointee.user_data else { return 0 }
    let context = Unmanaged<SynthesisContext>.fromOpaque(user).takeUnretainedValue()
    var list: [SpeechEvent] = []
    var index = 0
    while events[index].type != espeakEVENT_LIST_TERMINATED {
        let event = events[index]
        // eSpeak counts characters from 1.
        let offset = max(0, Int(event.text_position) - 1)
        switch event.type {
        case espeakEVENT_SENTENCE: list.append(.sentence(offset: offset, audioMilliseconds: Int(event.audio_position)))
        case espeakEVENT_WORD:
            list.append(.word(offset: offset, length: Int(event.length), audioMilliseconds: Int(event.audio_position)))
        default: break
        }
        index += 1
    }
    let samples = UnsafeBufferPointer(start: wav, count: wav == nil ? 0 : Int(count))
    return context.sink(samples, list) ? 0 : 1
}

/// How to speak: the eSpeak voice, words per minute and pitch.
public struct SpeechOptions: Sendable, Hashable {
    /// An eSpeak voice name, e.g. `sv`, `en`.
    public var voice: String
    /// Words per minute, 80–450 (eSpeak's range).
    public var rate: Int
    /// Pitch, 0–99 (50 is the voice's own).
    public var pitch: Int

    /// The rates and pitches eSpeak accepts.
    public static let rates = 80...450
    public static let pitches = 0...99

    /// Creates options; rate and pitch are clamped to eSpeak's ranges.
    public init(voice: String, rate: Int = 175, pitch: Int = 50) {
        self.voice = voice
        self.rate = min(max(rate, Self.rates.lowerBound), Self.rates.upperBound)
        self.pitch = min(max(pitch, Self.pitches.lowerBound), Self.pitches.upperBound)
    }
}

/// Where the voice is in the text, as eSpeak reports it.
public enum SpeechEvent: Sendable, Hashable {
    /// A sentence starts at `offset` (Unicode scalars into the text), heard at `audioMilliseconds`.
    case sentence(offset: Int, audioMilliseconds: Int)
    /// A word of `length` scalars starts at `offset`.
    case word(offset: Int, length: Int, audioMilliseconds: Int)
}

/// Why speech could not be made.
public struct SpeechError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message for the patron.
    public let description: String

    /// `voice` is neither an installed voice nor a language one speaks.
    public static func noVoice(_ voice: String) -> SpeechError {
        SpeechError(
            description: tr(
                "No eSpeak NG voice {voice} is installed; choose another voice.", ["voice": voice]))
    }
    static var failed: SpeechError { SpeechError(description: tr("eSpeak NG could not speak this text.")) }
    /// More speech than one WAV file can hold.
    public static var tooLong: SpeechError {
        SpeechError(
            description: tr(
                "That is more speech than a WAV file can hold (about 27 hours); choose a later chapter with --from."))
    }
    /// eSpeak NG or its voice data is missing.
    public static var unavailable: SpeechError {
        SpeechError(
            description: tr(
                "Reading aloud needs eSpeak NG (Debian packages libespeak-ng1 and espeak-ng-data); "
                    + "it is not installed here."))
    }
}

extension SpeechError: PatronFacingError {
    public var patronMessage: String { description }
}
