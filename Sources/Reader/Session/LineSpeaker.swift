internal import Foundation
import Localization
internal import Speech
import Synchronization

/// Speaks a few lines that are not the book's text (a dictionary's entry) in the background,
/// through the same voice reading aloud uses: speech-dispatcher when it is chosen or running,
/// else eSpeak NG in the lines' language.
final class LineSpeaker: Sendable {
    private let stopped = Mutex(false)
    private let dispatcher: SpeechDispatcher?

    /// Starts speaking `text` in `language`; nil, with nothing started, when no voice can speak it
    /// (the reason is ``unavailable(choice:)``).
    init?(text: String, language: String, choice: SpeechChoice, wordsPerMinute: Int?) {
        dispatcher = choice == .espeak ? nil : SpeechDispatcher.connect()
        if let dispatcher {
            let rate = SpeechDispatcher.rate(wordsPerMinute: wordsPerMinute)
            Thread.detachNewThread { _ = dispatcher.say(text, language: language, rate: rate) }
            return
        }
        guard choice != .speechd, let engine = SpeechEngine.shared,
            let voice = VoiceChoice.voice(forLanguage: language, installed: engine.voiceNames)
                ?? VoiceChoice.voice(forLanguage: "en", installed: engine.voiceNames)
        else { return nil }
        let options = SpeechOptions(voice: voice, rate: wordsPerMinute ?? 175)
        Thread.detachNewThread { [self] in
            let output = SoundOutput.open()
            try? engine.speak(text, options: options) { samples, _ in
                if let output {
                    output.play(samples)
                } else {
                    Thread.sleep(forTimeInterval: Double(samples.count) / Double(engine.sampleRate))
                }
                return !stopped.withLock { $0 }
            }
        }
    }

    /// Stops speaking, within a block of audio.
    func stop() {
        stopped.withLock { $0 = true }
        dispatcher?.cancel()
    }

    /// Why nothing could be spoken.
    static func unavailable(choice: SpeechChoice) -> String {
        choice == .speechd
            ? tr(
                "speech = speechd, but no speech-dispatcher answers; start it, or set speech = espeak in the config "
                    + "file.")
            : SpeechError.unavailable.description
    }
}
