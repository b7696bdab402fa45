import Foundation
import Speech
import Testing

/// eSpeak NG through the library: speech that is audible, in the text's language, with events
/// that say where the voice is.
@Suite(.enabled(if: SpeechEngine.shared != nil, "needs eSpeak NG (libespeak-ng-dev, espeak-ng-data)"))
struct SpeechEngineTests {
    let engine = SpeechEngine.shared!

    @Test func swedishAndEnglishAreInstalledAndChosenByLanguage() {
        let names = engine.voiceNames
        #expect(VoiceChoice.voice(forLanguage: "sv-SE", installed: names) == "sv")
        #expect(VoiceChoice.voice(forLanguage: "en", installed: names) != nil)
        #expect(VoiceChoice.voice(forLanguage: "tlh", installed: names) == nil, "Klingon has no voice")
    }

    @Test func aSwedishWordIsReadBySwedishRules() throws {
        // "sju" (seven) has the Swedish sj-sound; English rules read it another way.
        let swedish = try engine.phonemes("sju sjuksköterskor", voice: "sv")
        let english = try engine.phonemes("sju sjuksköterskor", voice: "en")
        #expect(swedish != english, "\(swedish) / \(english)")
    }

    @Test func speechHasAudioAndSentenceAndWordEventsInOrder() throws {
        let text = "Det var en gång en katt. Den hette Måns."
        var samples = 0
        var events: [SpeechEvent] = []
        try engine.speak(text, options: SpeechOptions(voice: "sv", rate: 175)) { block, blockEvents in
            samples += block.count
            events += blockEvents
            return true
        }
        let seconds = Double(samples) / Double(engine.sampleRate)
        #expect(seconds > 1 && seconds < 8, "\(seconds) s for 9 words")
        let sentences = events.compactMap { if case .sentence(let offset, _) = $0 { offset } else { nil } }
        let words = events.compactMap { if case .word(let offset, _, _) = $0 { offset } else { nil } }
        #expect(words.count >= 8, "\(events)")
        #expect(words == words.sorted())
        let second = try #require(
            text.unicodeScalars.firstIndex(of: "D").map { _ in text.range(of: "Den")!.lowerBound })
        let secondOffset = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: second)
        #expect(words.contains(secondOffset), "a word event at “Den” (\(secondOffset)): \(words)")
        #expect(sentences.count >= 1)
    }

    @Test func stoppingEndsSynthesisEarly() throws {
        let text = String(repeating: "Det här är en lång mening som aldrig tar slut. ", count: 40)
        var blocks = 0
        try engine.speak(text, options: SpeechOptions(voice: "sv")) { _, _ in
            blocks += 1
            return blocks < 3
        }
        #expect(blocks == 3)
    }

    @Test func aWAVFileHasAValidHeaderAndAppearsOnlyWhenFinished() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try WAVFile(path: url.path, name: "unused.wav", replace: false, sampleRate: engine.sampleRate)
        try engine.speak("Hello there.", options: SpeechOptions(voice: "en")) { block, _ in
            try? file.append(block)
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing under the name until it is whole")
        try file.finish()
        let data = try Data(contentsOf: url)
        #expect(data.prefix(4) == Data("RIFF".utf8) && data[8..<12] == Data("WAVE".utf8))
        #expect(data.count == 44 + file.sampleCount * 2)
    }
}
