import Foundation
import Localization
import Reader
import Speech

/// `read FILE --aloud --to out.wav`: a book spoken into a WAV file, without a terminal — for
/// testers, for listening later, and for tests. The voice follows the book's language.
@MainActor
enum ReadAloud {
    /// The options `read` takes for speech.
    nonisolated static let valued: Set<String> = ["to", "from", "rate", "pitch", "voice"]
    /// The flags `read` takes for speech: `--force` replaces an existing file.
    nonisolated static let flags: Set<String> = ["aloud", "force", "yes"]

    static func toFile(_ path: String, arguments: Arguments, session: Session) throws -> CommandOutput {
        guard let asked = arguments.option("to") else {
            throw UserError.usage(tr("read --aloud writes speech to a file: give --to FILE.wav."))
        }
        let target = try session.confinement?.outputPath(asked) ?? asked
        let rate = try number(
            arguments, "rate", default: 175, in: SpeechOptions.rates,
            message: N_("--{option} takes a number from {low} to {high} words a minute, e.g. --{option} {example}."))
        let pitch = try number(
            arguments, "pitch", default: 50, in: SpeechOptions.pitches,
            message: N_(
                "--{option} takes a number from {low} to {high} (50 is the voice's own), e.g. --{option} {example}."))
        guard let engine = SpeechEngine.shared else { throw SpeechError.unavailable }
        let book = try EPUBBook.open(path: path)
        let bookVoice = try chooseVoice(arguments.option("voice"), book: book, engine: engine)
        let installed = engine.voiceNames
        let chapters = try chapters(of: book, from: arguments.option("from"))
        guard chapters.contains(where: { book.document(at: $0).hasWordsToSay() }) else {
            throw UserError(
                arguments.option("from") == nil
                    ? tr("The book has no words to read aloud, so nothing was written.")
                    : tr("There are no words to read aloud from that chapter on, so nothing was written."))
        }
        // A folder gets the book's title as the file's name; nothing already there is replaced without --force.
        let title = book.metadata.title.isEmpty ? "book" : book.metadata.title
        let file = try WAVFile(
            path: target, name: title + ".wav", replace: arguments.flag("force"), sampleRate: engine.sampleRate)
        // Counted once, for the size the WAV will take and for the line that says what was written.
        let words = chapters.reduce(0) {
            $0 + book.document(at: $1).plainText.split(whereSeparator: \.isWhitespace).count
        }
        do {
            try checkSize(
                words: words, rate: rate, sampleRate: engine.sampleRate, folder: file.folder,
                arguments: arguments, session: session)
        } catch {
            file.discard()
            throw error
        }
        var voices: [String] = []
        /// Voices a passage asked for that could not speak.
        var unspoken: [String] = []
        do {
            var failure: (any Error)?
            // A chapter in another language than the book's, and a passage marked as one inside a
            // chapter (xml:lang), get their own voices when installed.
            let plan = AloudVoices(
                installed: installed, chosen: arguments.option("voice"), bookLanguage: book.metadata.language)
            for index in chapters {
                let document = book.document(at: index)
                for passage in document.passages(from: 0) {
                    let wanted = plan.voice(for: passage, chapterLanguage: document.language) ?? bookVoice
                    let text = document.words(of: passage)
                    func speak(_ voice: String) throws {
                        try engine.speak(text, options: SpeechOptions(voice: voice, rate: rate, pitch: pitch)) {
                            samples, _ in
                            // Ctrl-C at the prompt cancels the command: stop speaking, keep nothing.
                            if Task.isCancelled {
                                failure = CancellationError()
                                return false
                            }
                            do { try file.append(samples) } catch {
                                failure = error
                                return false
                            }
                            return true
                        }
                        if let failure { throw failure }
                    }
                    var voice = wanted
                    do {
                        try speak(wanted)
                    } catch let error as SpeechError where error == .noVoice(wanted) && wanted != bookVoice {
                        // A passage in a language no voice can speak is read in the book's voice, said once.
                        if !unspoken.contains(wanted) { unspoken.append(wanted) }
                        voice = bookVoice
                        try speak(bookVoice)
                    }
                    if !voices.contains(voice) { voices.append(voice) }
                }
            }
            try file.finish()
        } catch {
            file.discard()
            throw error
        }
        let minutes = Int(file.duration) / 60
        let seconds = Int(file.duration) % 60
        let shown = book.metadata.title.isEmpty ? String(file.path.split(separator: "/").last ?? "") : title
        let parts = trn("{n} chapter", "{n} chapters", chapters.count) + ", " + trn("{n} word", "{n} words", words)
        let voiceList = Words.list(voices, last: tr("and"))
        let line = trn(
            "Wrote {path}: {minutes} min {seconds} s of “{title}” ({parts}), voice {voices} at {rate} words a minute.",
            "Wrote {path}: {minutes} min {seconds} s of “{title}” ({parts}), voices {voices} at {rate} words a minute.",
            voices.count,
            [
                "path": file.path, "minutes": minutes, "seconds": seconds, "title": shown, "parts": parts,
                "voices": voiceList, "rate": rate,
            ])
        let notes = unspoken.map {
            tr(
                "No eSpeak NG voice could speak the passages marked {language}; they were read with {voice}.",
                ["language": Words.language($0), "voice": bookVoice])
        }
        return CommandOutput(
            lines: notes + [line],
            json: AloudJSON(
                file: file.path, seconds: file.duration, chapters: chapters.count,
                words: words, voice: voices.first ?? bookVoice, rate: rate, pitch: pitch))
    }

    /// Beyond this a WAV is asked about first (at 22 kHz, about 13 hours of speech).
    static let sizeToAsk: Int64 = 2 << 30

    /// Refuses a WAV the disk has no room for, and asks before one larger than ``sizeToAsk``
    /// (`--yes` answers; with nobody to ask, it is refused): a book read into a WAV grows by
    /// about 2.6 MB a minute, and a whole series fills a disk in minutes.
    static func checkSize(
        words: Int, rate: Int, sampleRate: Int, folder: String, arguments: Arguments, session: Session
    ) throws {
        let bytes = Int64(Double(words) / Double(rate) * 60 * Double(sampleRate) * 2)
        let size = Words.bytes(bytes)
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            let free = Int64(info.f_bavail) * Int64(info.f_frsize)
            guard bytes < free else {
                throw UserError(
                    tr(
                        "The WAV would take about {size} and the disk has {free} free. Free some space, or read "
                            + "fewer chapters with --from.",
                        ["size": size, "free": Words.bytes(free)]))
            }
        }
        guard bytes > sizeToAsk, !arguments.flag("yes") else { return }
        let question = tr("The WAV will take about {size}. Go on? [y/N] ", ["size": size])
        guard let sure = session.account.prompt?.confirm(question) else {
            throw UserError(
                tr(
                    "The WAV would take about {size}. Add --yes to write it, or read fewer chapters with --from.",
                    ["size": size]))
        }
        if !sure { throw UserError(tr("Nothing was written.")) }
    }

    /// `--voice`, else the voice of the book's language; says which voices exist when there is none.
    static func chooseVoice(_ asked: String?, book: EPUBBook, engine: SpeechEngine) throws -> String {
        let installed = engine.voiceNames
        if let asked {
            guard installed.contains(asked) else {
                throw UserError.usage(
                    tr(
                        "There is no eSpeak NG voice {voice}. Installed voices include {voices}.",
                        ["voice": asked, "voices": sample(installed)]))
            }
            return asked
        }
        let language = book.metadata.language ?? "en"
        guard let voice = VoiceChoice.voice(forLanguage: language, installed: installed) else {
            throw UserError(
                tr(
                    "The book is in {language}, and no eSpeak NG voice for it is installed. "
                        + "Choose one with --voice NAME (installed: {voices}).",
                    ["language": Words.language(language), "voices": sample(installed)]))
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
                        ? tr("--from {number}: the book's contents have one entry; give 1.", ["number": number])
                        : tr(
                            "--from {number}: the book's contents have {count} entries; give 1 to {count}.",
                            ["number": number, "count": entries.count]))
            }
            chosen = entries[number - 1].spineIndex
        } else {
            chosen = entries.first { $0.title.localizedCaseInsensitiveContains(from) }?.spineIndex
        }
        guard let spine = chosen, let start = order.firstIndex(of: spine) else {
            throw UserError.usage(
                tr(
                    "No chapter of the contents matches “{words}”; give its number or words of its title.",
                    ["words": from]))
        }
        return Array(order[start...])
    }

    private static func number(
        _ arguments: Arguments, _ name: String, default value: Int, in range: ClosedRange<Int>, message: String
    ) throws -> Int {
        guard let text = arguments.option(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UserError.usage(
                tr(
                    message,
                    ["option": name, "low": range.lowerBound, "high": range.upperBound, "example": value]))
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
