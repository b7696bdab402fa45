internal import Synchronization

/// A word a patron types — a command's name, a sort key, a search field, a word of `mock clock` —
/// or that bok reads in a server's answer (`typed: facet`, part of an OPDS facet's name), written
/// in English where it is defined and named in every other language by that language's
/// catalogue, like every other word bok speaks: a new language is a new `po/LANG.po`.
///
/// `TypedWord("typed: command", "search")` marks the word for `scripts/extract-messages.py`; the
/// first argument is the catalogue's context (`msgctxt`), which for a typed word always begins
/// `typed: `. A catalogue's translation lists the word's names in its language, separated by
/// commas, the main one first (`lämna tillbaka, återlämna`); a name may be two words, and the
/// English word itself means the language has no name of its own for it. The English word works
/// in every language, and so does each language's name: `sök` runs while bok speaks English.
public struct TypedWord: Sendable, Hashable {
    /// The catalogue's context for this kind of word: `typed: command`.
    public let context: String
    /// The word as written in English, which works in every language.
    public let english: String

    /// A word marked for the catalogues under `context` (a literal that begins `typed: `).
    public init(_ context: String, _ english: String) {
        self.context = context
        self.english = english
    }

    /// Its names in the interface language, the main one first: none in English, or when the
    /// language's catalogue gives it no name of its own.
    public var localNames: [String] {
        Localization.isEnglish ? [] : Self.names(trp(context, english), english: english)
    }

    /// Its names in every language bok has a catalogue for, by language, the English word aside.
    public var otherNames: [String] { Localization.typedNames(context, english) }

    /// Whether `word` is it, in English or in any language bok speaks (case aside).
    public func isNamed(_ word: String) -> Bool {
        let lower = word.lowercased()
        return lower == english || otherNames.contains(lower)
    }

    /// The names a catalogue's translation lists: `Lämna tillbaka, återlämna` → two names, in
    /// lower case; the English word and repeats dropped.
    static func names(_ translation: String, english: String) -> [String] {
        var names: [String] = []
        for part in translation.split(separator: ",") {
            let name = part.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
            if !name.isEmpty, name != english, !names.contains(name) { names.append(name) }
        }
        return names
    }
}

extension Localization {
    /// The typed words' names of every catalogue, by catalogue folder: context → English → names.
    private static let typedWords = Mutex<[String: [String: [String: [String]]]]>([:])

    /// The names of `english` (a ``TypedWord``) in every language with a catalogue, read from the
    /// catalogue files once per folder.
    static func typedNames(_ context: String, _ english: String) -> [String] {
        guard let directory = catalogueDirectory else { return [] }
        if let known = typedWords.withLock({ $0[directory] }) { return known[context]?[english] ?? [] }
        var merged: [String: [String: [String]]] = [:]
        for language in catalogueLanguages(in: directory) {
            let path = "\(directory)/\(language)/LC_MESSAGES/\(domain).mo"
            guard let catalogue = MessageCatalogue(path: path, contextPrefix: "typed: ") else { continue }
            for (context, translations) in catalogue.translations {
                for (message, translation) in translations {
                    let known = merged[context]?[message] ?? []
                    let names = TypedWord.names(translation, english: message).filter { !known.contains($0) }
                    merged[context, default: [:]][message, default: []] += names
                }
            }
        }
        typedWords.withLock { $0[directory] = merged }
        return merged[context]?[english] ?? []
    }
}
