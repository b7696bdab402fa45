import Foundation
import Reader
import Speech

/// `read FILE --aloud --to out.wav`: a book spoken into a WAV file, without a terminal — for
/// testers, for listening later, and for tests. The voice follows the book's language.
@MainActor
enum ReadAloud {
    /// The options `read` takes for speech.
    nonisolated static let valued: Set<String> = ["to", "from", "rate", "pitch", "voice"]

    static func toFile(_ path: String, arguments: Arguments) throws -> CommandOutput {
        guard let target = arguments.option("to") else {
            throw UserError.usage("read --aloud writes speech to a file: give --to FILE.wav.")
        }
        let rate = try number(arguments, "rate", default: 175, in: SpeechOptions.rates, unit: "words a minute")
        let pitch = try number(
            arguments, "pitch", default: 50, in: SpeechOptions.pitches, unit: "(50 is the voice's own)")
        guard let engine = SpeechEngine.shared else { throw SpeechError.unavailable }
        let book = try EPUBBook.open(path: path)
        let bookVoice = try chooseVoice(arguments.option("voice"), book: book, engine: engine)
        let installed = engine.voiceNames
        let chapters = try chapters(of: book, from: arguments.option("from"))
        let url = URL(fileURLWithPath: NSString(string: target).expandingTildeInPath)
        let file: WAVFile
        do {
            file = try WAVFile(url: url, sampleRate: engine.sampleRate)
        } catch {
            throw UserError("bok cannot write \(url.path); check that the folder exists and that you may write there.")
        }
        var words = 0
        var voices: [String] = []
        do {
            var failure: (any Error)?
            // A chapter in another language than the book's, and a passage marked as one inside a
            // chapter (xml:lang), get their own voices when installed.
            let plan = AloudVoices(
                installed: installed, chosen: arguments.option("voice"), bookLanguage: book.metadata.language)
            for index in chapters {
                let document = book.document(at: index)
                words += document.plainText.split(whereSeparator: \.isWhitespace).count
                for passage in document.passages(from: 0) {
                    let voice = plan.voice(for: passage, chapterLanguage: document.language) ?? bookVoice
                    if !voices.contains(voice) { voices.append(voice) }
                    try engine.speak(
                        document.text(in: passage.range), options: SpeechOptions(voice: voice, rate: rate, pitch: pitch)
                    ) { samples, _ in
                        do { try file.append(samples) } catch { failure = error; return false }
                        return true
                    }
                    if let failure { throw failure }
                }
            }
            try file.finish()
        } catch {
            file.discard()
            if error is SpeechError { throw error }
            throw UserError(
                """
                bok could not finish \(url.path) (\(error.localizedDescription)); nothing was written. Is the \
                disk full?
                """
            )
        }
        let minutes = Int(file.duration) / 60, seconds = Int(file.duration) % 60
        let title = book.metadata.title.isEmpty ? url.lastPathComponent : book.metadata.title
        let line =
            "Wrote \(url.path): \(minutes) min \(seconds) s of “\(title)” (\(chapters.count) "
                + """
                \(chapters.count == 1 ? "chapter" : "chapters"), \(words) words), \
                \(voices.count == 1 ? "voice" : "voices") 
                """
            + "\(voices.joined(separator: " and ")) at \(rate) words a minute."
        return CommandOutput(
            lines: [line],
            json: AloudJSON(
                file: url.path, seconds: file.duration, chapters: chapters.count,
                words: words, voice: voices.first ?? bookVoice, rate: rate, pitch: pitch))
    }

    /// `--voice`, else the voice of the book's language; says which voices exist when there is none.
    static func chooseVoice(_ asked: String?, book: EPUBBook, engine: SpeechEngine) throws -> String {
        let installed = engine.voiceNames
        if let asked {
            guard installed.contains(asked) else {
                throw UserError.usage(
                    "There is no eSpeak NG voice \(asked). Installed voices include \(sample(installed)).")
            }
            return asked
        }
        let language = book.metadata.language ?? "en"
        guard let voice = VoiceChoice.voice(forLanguage: language, installed: installed) else {
            throw UserError(
                "The book is in \(language), and no eSpeak NG voice for it is installed. "
                    + "Choose one with --voice NAME (installed: \(sample(installed))).")
        }
        return voice
    }

    /// The reading-order items from `--from` (a chapter number of the contents, or words of its title) to the end.
    static func chapters(of book: EPUBBook, from: String?) throws -> [Int] {
        let order = book.readingOrder
        guard let from else { return order }
        let entries = book.tableOfContents.flatMap { $0.flattened() }.map(\.entry).filter { $0.spineIndex != nil }
        let chosen: Int?
        if let number = Int(from) {
            guard (1...max(1, entries.count)).contains(number), !entries.isEmpty else {
                throw UserError.usage(
                    entries.count == 1
                        ? "--from \(number): the book's contents have one entry; give 1."
                        : """
                        --from \(number): the book's contents have \(entries.count) entries; give 1 to \
                        \(entries.count).
                        """
                )
            }
            chosen = entries[number - 1].spineIndex
        } else {
            chosen = entries.first { $0.title.localizedCaseInsensitiveContains(from) }?.spineIndex
        }
        guard let spine = chosen, let start = order.firstIndex(of: spine) else {
            throw UserError.usage(
                "No chapter of the contents matches “\(from)”; give its number or words of its title.")
        }
        return Array(order[start...])
    }

    private static func number(
        _ arguments: Arguments, _ name: String, default value: Int, in range: ClosedRange<Int>, unit: String
    ) throws -> Int {
        guard let text = arguments.option(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UserError.usage(
                """
                --\(name) takes a number from \(range.lowerBound) to \(range.upperBound) \(unit), e.g. --\(name) \
                \(value).
                """
            )
        }
        return number
    }

    private static func sample(_ voices: [String]) -> String {
        let common = ["sv", "en", "en-us", "nb", "da", "fi", "de", "fr", "es", "ar", "he"].filter(voices.contains)
        return (common.isEmpty ? Array(voices.prefix(8)) : common).joined(separator: ", ")
    }
}

/// `read FILE --aloud --to F --json`.
struct AloudJSON: Encodable, Sendable {
    let file: String
    let seconds: Double
    let chapters: Int
    let words: Int
    let voice: String
    let rate: Int
    let pitch: Int
}
