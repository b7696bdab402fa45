internal import Foundation
import Localization
import Terminal

/// `:define WORD`: a word looked up in the dictionaries, shown in a panel and kept in the book's
/// vocabulary list.
extension ReaderSession {
    /// A dictionary's answer as the panel shows it.
    public struct Definition: Sendable, Equatable {
        /// The panel's title: the word, or its base form.
        public var title: String
        /// The lines: a note when the base form was found, then each dictionary's name and entry.
        public var lines: [String]
        /// What `r` reads aloud: the entries' lines, without the dictionaries' names, as one line.
        public var said: String
        /// The language the entries explain the word in (the first dictionary's target), for `r`.
        public var language: String
    }

    /// Reads a dictionary's entry aloud (`r` in its panel), through reading aloud's voice.
    mutating func speak(_ definition: Definition) {
        lineSpeaker?.stop()
        lineSpeaker = LineSpeaker(
            text: definition.said, language: definition.language, choice: speechChoice,
            wordsPerMinute: preferences.speechRate)
        if lineSpeaker == nil { message = LineSpeaker.unavailable(choice: speechChoice) }
    }

    /// Stops reading an entry aloud.
    mutating func stopSpeakingLines() {
        lineSpeaker?.stop()
        lineSpeaker = nil
    }

    /// Looks `word` up in the dictionaries from the book's language, keeps it in the vocabulary
    /// list, and sets ``definition``; a ``message`` says what to install or that no dictionary
    /// knows it.
    mutating func define(_ typed: String) {
        let word = typed.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
        let marks = Marks(unicode: true)
        guard !word.isEmpty else {
            message = tr("Say which word: :define läsa (d on the page asks for one)")
            return
        }
        let language = book.metadata.language.map { String($0.prefix { $0.isLetter }).lowercased() }
        let answer: WordLookup.Answer
        do {
            answer = try dictionary.define(word, language: language, interface: Localization.language)
        } catch {
            message = WordLookup.message(for: error, server: dictionary.server)
            return
        }
        if let problem = WordLookup.problem(with: answer, word: word, quoted: marks.quoted) {
            message = problem
            return
        }
        let found = answer.found ?? word.lowercased()
        var lines: [String] = []
        if found != word.lowercased() {
            lines += [
                tr(
                    "{word} is not in the dictionaries; {base} is:",
                    ["word": marks.quoted(word), "base": marks.quoted(found)]), "",
            ]
        }
        for entry in answer.entries {
            let name = entry.dictionary.description.isEmpty ? entry.dictionary.name : entry.dictionary.description
            lines += [name] + entry.lines.map { "  " + $0 } + [""]
        }
        if lines.last == "" { lines.removeLast() }
        let first = answer.entries.first
        let explained = first.flatMap { Dictionaries.languages($0.dictionary.name)?.to } ?? Localization.language
        let said = answer.entries.flatMap(\.lines).joined(separator: "; ")
        definition = Definition(title: found, lines: lines, said: said, language: explained)
        let meaning = first.map { entry in
            // The entry's first line is the headword and its pronunciation; the meaning follows.
            let said = entry.lines.dropFirst().first ?? entry.lines.first ?? ""
            return String(said.prefix(120))
        }
        let kept = LookedUpWord(
            word: word.lowercased(), found: found, meaning: meaning ?? "", dictionary: first?.dictionary.name ?? "",
            locator: topLocator)
        let (id, store) = (bookID, store)
        persist(tr("Could not keep the word in this book's vocabulary list.")) {
            try store.addLookedUpWord(kept, bookID: id)
        }
    }
}
