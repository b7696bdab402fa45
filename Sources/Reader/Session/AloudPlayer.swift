internal import Foundation
import Localization
internal import Speech
import Synchronization

/// Reads a book aloud in the background, from a place in a chapter to the end of the book, and
/// tells the reader which sentence the voice is in, so the view can highlight it and turn pages.
///
/// Speech comes from eSpeak NG (``SpeechEngine``) with its word and sentence events; the audio
/// goes to the sound output when there is one (``SoundOutput``), which paces it, and otherwise is
/// paced by the clock at the speed it would be heard, so the highlight follows the voice either
/// way. Nothing here blocks the reader: synthesis and pacing run on their own thread, and pause,
/// resume and stop take effect within one block of audio (a fraction of a second).
final class AloudPlayer: Sendable {
    /// Where the voice is: a sentence of a chapter, as UTF-16 offsets into its plain text.
    struct Spoken: Sendable, Hashable {
        var spineIndex: Int
        var sentence: Range<Int>
        /// The voice speaking it.
        var voice: String
    }

    enum Phase: Sendable, Hashable {
        case speaking
        case paused
        /// Ended by the reader (Esc, quit) or at the end of the book.
        case stopped
        /// Could not speak; the message says why.
        case failed(String)
    }

    private struct State: Sendable {
        var phase = Phase.speaking
        var spoken: Spoken?
        var finishedBook = false
    }

    let options: SpeechOptions
    let voices: AloudVoices
    /// Set when there is no sound output: the patron follows along silently.
    let notice: String?
    private let state = Mutex(State())

    /// Speech-dispatcher, when it speaks instead of eSpeak NG (the user's own voice).
    let dispatcher: SpeechDispatcher?

    /// Starts speaking the book from `start` to its end, on a thread of its own: each passage in
    /// the voice `voices` gives it, else in `options.voice`; through `dispatcher` when given, a
    /// sentence a message in the passage's language (`bookLanguage` when nothing says one).
    init(
        content: BookContent, readingOrder: [Int], from start: Locator, options: SpeechOptions, voices: AloudVoices,
        dispatcher: SpeechDispatcher? = nil, dispatcherRate: Int = 0, bookLanguage: String = "en"
    ) {
        self.options = options
        self.voices = voices
        self.dispatcher = dispatcher
        if let dispatcher {
            notice = nil
            Thread.detachNewThread { [self] in
                run(
                    dispatcher, rate: dispatcherRate, content: content, readingOrder: readingOrder, start: start,
                    bookLanguage: bookLanguage)
            }
            return
        }
        let output = SoundOutput.open()
        notice = output == nil ? tr("No sound device: reading along silently.") : nil
        let engine = SpeechEngine.shared
        Thread.detachNewThread { [self] in
            guard let engine else {
                state.withLock { $0.phase = .failed(SpeechError.unavailable.description) }
                return
            }
            run(engine: engine, output: output, content: content, readingOrder: readingOrder, start: start)
        }
    }

    var phase: Phase { state.withLock { $0.phase } }
    var spoken: Spoken? { state.withLock { $0.spoken } }
    var isActive: Bool { [.speaking, .paused].contains(phase) }

    // Speech-dispatcher's sentence is cancelled at once: a pause says it again from its start.
    func pause() {
        state.withLock { if $0.phase == .speaking { $0.phase = .paused } }
        dispatcher?.cancel()
    }
    func resume() { state.withLock { if $0.phase == .paused { $0.phase = .speaking } } }
    func stop() {
        state.withLock { if $0.phase == .speaking || $0.phase == .paused { $0.phase = .stopped } }
        dispatcher?.cancel()
    }

    /// Reads through speech-dispatcher: each sentence of each passage a message, marked as
    /// ``spoken`` while it is said; a pause waits and says the sentence again.
    private func run(
        _ dispatcher: SpeechDispatcher, rate: Int, content: BookContent, readingOrder: [Int], start: Locator,
        bookLanguage: String
    ) {
        guard let first = readingOrder.firstIndex(of: start.spineIndex) else { return }
        for spine in readingOrder[first...] {
            let document = content.document(at: spine)
            let utf16 = Array(document.plainText.utf16)
            for passage in document.passages(from: spine == start.spineIndex ? start.offset : 0) {
                let language = passage.language ?? document.language ?? bookLanguage
                for sentence in Self.sentences(of: passage, in: utf16) {
                    let said = passage.words ?? String(decoding: utf16[sentence], as: UTF16.self)
                    guard said.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                    while true {
                        // Paused: wait here, then say the sentence again from its start.
                        while state.withLock({ $0.phase }) == .paused { Thread.sleep(forTimeInterval: 0.05) }
                        guard state.withLock({ $0.phase }) == .speaking else { return }
                        state.withLock {
                            $0.spoken = Spoken(spineIndex: spine, sentence: sentence, voice: language)
                        }
                        let outcome = dispatcher.say(said, language: language, rate: rate)
                        if outcome == .failed {
                            state.withLock {
                                $0.phase = .failed(tr("Reading aloud stopped: speech-dispatcher did not answer."))
                            }
                            return
                        }
                        if outcome == .spoken { break }
                        // Cancelled: by a pause (say it again), by stop, or by another program.
                        if state.withLock({ $0.phase }) == .speaking { break }
                    }
                }
            }
        }
        state.withLock {
            $0.phase = .stopped
            $0.finishedBook = true
        }
    }

    /// The sentences of `passage` in the chapter's text, as UTF-16 ranges; one for words said in
    /// a picture's place.
    static func sentences(of passage: LanguagePassage, in utf16: [UInt16]) -> [Range<Int>] {
        guard passage.words == nil else { return [passage.range] }
        var ranges: [Range<Int>] = []
        var start = passage.range.lowerBound
        while start < passage.range.upperBound {
            // A sentence starts at its first non-space.
            while start < passage.range.upperBound, utf16[start] == 0x20 || utf16[start] == 0x0A { start += 1 }
            guard start < passage.range.upperBound else { break }
            let end = max(start + 1, sentenceEnd(utf16, from: start, limit: passage.range.upperBound))
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    private func run(
        engine: SpeechEngine, output: SoundOutput?, content: BookContent, readingOrder: [Int], start: Locator
    ) {
        guard let first = readingOrder.firstIndex(of: start.spineIndex) else { return }
        for spine in readingOrder[first...] {
            let document = content.document(at: spine)
            let utf16 = Array(document.plainText.utf16)
            // Each passage in its own language's voice (a French quotation in a Swedish novel).
            for passage in document.passages(from: spine == start.spineIndex ? start.offset : 0) {
                var options = options
                options.voice = voices.voice(for: passage, chapterLanguage: document.language) ?? options.voice
                guard
                    speak(
                        passage, saying: document.words(of: passage), of: utf16, spine: spine, options: options,
                        engine: engine, output: output)
                else { return }
            }
        }
        state.withLock {
            $0.phase = .stopped
            $0.finishedBook = true
        }
    }

    /// Speaks one passage of a chapter (`text`: its words), moving ``spoken`` with the voice;
    /// false when reading should go no further (stopped, or eSpeak failed).
    private func speak(
        _ passage: LanguagePassage, saying text: String, of utf16: [UInt16], spine: Int, options: SpeechOptions,
        engine: SpeechEngine, output: SoundOutput?
    ) -> Bool {
        let range = passage.range
        // eSpeak counts Unicode scalars from the start of what it is given; map them back to UTF-16.
        // Words said in a picture's place are all at the picture.
        var scalarToUTF16: [Int] = []
        scalarToUTF16.reserveCapacity(text.unicodeScalars.count + 1)
        var position = range.lowerBound
        for scalar in text.unicodeScalars {
            scalarToUTF16.append(position)
            if passage.words == nil { position += scalar.utf16.count }
        }
        scalarToUTF16.append(position)
        func at(_ scalar: Int) -> Int { scalarToUTF16[min(max(0, scalar), scalarToUTF16.count - 1)] }

        var sentenceStart: Int?
        do {
            try engine.speak(text, options: options) { samples, events in
                for event in events {
                    switch event {
                    case .sentence(let offset, _):
                        sentenceStart = at(offset)
                    case .word(let offset, let length, _):
                        let begin = sentenceStart ?? at(offset)
                        let end =
                            passage.words == nil
                            ? Self.sentenceEnd(utf16, from: at(offset + length), limit: utf16.count) : begin
                        state.withLock {
                            $0.spoken = Spoken(
                                spineIndex: spine, sentence: begin..<max(begin, end), voice: options.voice)
                        }
                    }
                }
                // Pace the block as it is heard: the sound output blocks while it plays;
                // without one, sleep for as long as it would play.
                if let output {
                    output.play(samples)
                } else {
                    Thread.sleep(forTimeInterval: Double(samples.count) / Double(engine.sampleRate))
                }
                // Paused: wait here (eSpeak waits with us); stopped: end synthesis.
                while true {
                    let phase = state.withLock { $0.phase }
                    if phase == .speaking { return true }
                    if phase != .paused { return false }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        } catch {
            let reason = (error as? SpeechError)?.description ?? tr("Reading aloud stopped: eSpeak NG could not go on.")
            state.withLock { $0.phase = .failed(reason) }
            return false
        }
        return state.withLock { $0.phase } == .speaking
    }

    /// Whether the voice reached the end of the book (rather than being stopped).
    var finishedBook: Bool { state.withLock { $0.finishedBook } }

    /// The end of the sentence holding `offset`: after the next `.`, `!`, `?` or `…` that is
    /// followed by a space or a line break, or at a line break, or at `limit`.
    static func sentenceEnd(_ text: [UInt16], from offset: Int, limit: Int) -> Int {
        var index = max(0, offset)
        while index < limit {
            let unit = text[index]
            if unit == 0x0A { return index }
            if unit == 0x2E || unit == 0x21 || unit == 0x3F || unit == 0x2026 {
                let next = index + 1
                if next >= limit || text[next] == 0x20 || text[next] == 0x0A { return next }
            }
            index += 1
        }
        return limit
    }
}
