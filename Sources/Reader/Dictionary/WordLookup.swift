internal import Foundation
import Localization
internal import TextSafety

/// A word looked up in the dictionaries a DICT server (dictd) has installed, for `define WORD` at
/// the prompt and `:define WORD` in the reader: the dictionaries from the word's language into
/// the interface language first, and the word's base form when the word itself is not there.
public struct WordLookup: Sendable {
    let client: DictClient

    /// The dictionary server: `127.0.0.1:2628`, or `BOK_DICT_SERVER=HOST:PORT`.
    public static func fromEnvironment(_ environment: [String: String]) -> WordLookup {
        WordLookup(client: DictClient.fromEnvironment(environment))
    }

    public init(host: String, port: UInt16, timeout: Int = 5) {
        client = DictClient(host: host, port: port, timeout: timeout)
    }

    init(client: DictClient) { self.client = client }

    /// `HOST:PORT`, for messages.
    public var server: String { "\(client.host):\(client.port)" }

    /// True when a DICT server answers with its greeting.
    public var reachable: Bool { client.reachable }

    /// What the dictionaries say of a word.
    public struct Answer: Sendable {
        /// The dictionaries the server has.
        public var dictionaries: [Dictionary]
        /// The form found: the word, or its base form; nil when none was found.
        public var found: String?
        /// Its entries, in the order the dictionaries were asked.
        public var entries: [Entry]
    }

    /// A dictionary: `fd-swe-eng`, "Swedish-English FreeDict Dictionary".
    public struct Dictionary: Sendable, Equatable {
        public var name: String
        public var description: String
    }

    /// One dictionary's entry for the word found.
    public struct Entry: Sendable, Equatable {
        /// The dictionary's name (`fd-swe-eng`) and description.
        public var dictionary: Dictionary
        /// The entry's lines, made safe, without blank ones or edge spaces.
        public var lines: [String]
    }

    // Not patron-facing: `define` and `:define` say what to install, or to try again.
    /// Why nothing could be asked.
    public enum Failure: Error, Sendable {
        /// No DICT server answers.
        case unreachable(detail: String)
        /// The server's answer is not DICT.
        case unreadable(detail: String)
    }

    /// Looks `word` up; `language` is the word's (the book's, or `--lang`), `interface` the
    /// language bok speaks. Blocks for at most the client's timeout a line.
    public func define(_ word: String, language: String?, interface: String) throws(Failure) -> Answer {
        let answer: (databases: [DictClient.Database], definitions: [DictClient.Definition])
        do {
            answer = try client.lookUp(Stems.forms(of: word.lowercased())) {
                Dictionaries.order($0, wordLanguage: language, interface: interface)
            }
        } catch {
            switch error.kind {
            case .unreachable: throw .unreachable(detail: error.detail)
            case .protocolError: throw .unreadable(detail: error.detail)
            }
        }
        let dictionaries = answer.databases.map { Dictionary(name: $0.name, description: $0.description) }
        let named = [String: Dictionary](dictionaries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = answer.definitions.map { definition in
            Entry(
                dictionary: named[definition.database] ?? Dictionary(name: definition.database, description: ""),
                lines: definition.text.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return Answer(dictionaries: dictionaries, found: answer.definitions.first?.word, entries: entries)
    }
}

/// Which dictionaries to ask, in order, by their languages.
enum Dictionaries {
    /// ISO 639-3 codes FreeDict names its dictionaries by (`fd-swe-eng`), as bok's two-letter ones.
    static let codes: [String: String] = [
        "swe": "sv", "eng": "en", "deu": "de", "ger": "de", "fra": "fr", "fre": "fr", "spa": "es", "ita": "it",
        "nld": "nl", "fin": "fi", "dan": "da", "nor": "no", "nob": "nb", "nno": "nn", "pol": "pl", "por": "pt",
        "rus": "ru", "ara": "ar", "tur": "tr", "fas": "fa", "per": "fa", "som": "so", "ukr": "uk", "isl": "is",
    ]

    /// The source and target languages of a dictionary named `…-swe-eng`; nil when it says none.
    static func languages(_ name: String) -> (from: String, to: String)? {
        let parts = name.lowercased().split(separator: "-").map(String.init)
        guard parts.count >= 2, let from = codes[parts[parts.count - 2]], let to = codes[parts[parts.count - 1]]
        else { return nil }
        return (from, to)
    }

    /// Those from the word's language (when known), into the interface language first, then
    /// into English, then the rest; dictionaries that name no languages last.
    static func order(_ databases: [DictClient.Database], wordLanguage: String?, interface: String) -> [String] {
        func rank(_ database: DictClient.Database) -> Int? {
            guard let (from, to) = languages(database.name) else { return wordLanguage == nil ? 9 : nil }
            if let wordLanguage, from != wordLanguage { return nil }
            if to == interface { return 0 }
            return to == "en" ? 1 : 2
        }
        return databases.compactMap { db in rank(db).map { (db.name, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
    }
}

/// A word and the forms it may be an inflection of: `huset` → `hus`, `books` → `book`.
public enum Stems {
    /// Endings of Swedish and English inflections, longest first.
    static let endings = [
        "arnas", "ornas", "ernas", "arna", "orna", "erna", "andet", "ande", "ende", "ades", "ade", "aste", "ast",
        "ies", "ing", "ens", "ets", "are", "en", "et", "na", "ar", "or", "er", "es", "ed", "'s", "s", "a", "e", "t",
        "n",
    ]

    public static func forms(of word: String) -> [String] {
        var forms = [word]
        for ending in endings where word.hasSuffix(ending) && word.count - ending.count >= 2 {
            let stem = String(word.dropLast(ending.count))
            forms.append(ending == "ies" ? stem + "y" : stem)
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }
}

extension WordLookup {
    /// What to tell the patron when the server could not be asked: what to install, in one line.
    public static func message(for failure: Failure, server: String) -> String {
        switch failure {
        case .unreachable:
            tr(
                "define needs a dictionary server, and none answers at {server}. Install one with "
                    + "dictionaries: sudo apt install dictd dict-freedict-eng-swe dict-freedict-swe-eng "
                    + "(BOK_DICT_SERVER=HOST:PORT names another).",
                ["server": server])
        case .unreadable:
            tr("The dictionary server at {server} gave an answer bok cannot read. Try again.", ["server": server])
        }
    }

    /// What to tell the patron when the answer has no entry (no dictionaries, or none knows the
    /// word); nil when it has one.
    public static func problem(with answer: Answer, word: String, quoted: (String) -> String) -> String? {
        guard !answer.dictionaries.isEmpty else {
            return tr(
                "The dictionary server has no dictionaries. Install some: sudo apt install "
                    + "dict-freedict-eng-swe dict-freedict-swe-eng.")
        }
        guard answer.entries.isEmpty else { return nil }
        return tr(
            "No dictionary here knows {word} (looked in {dictionaries}).",
            [
                "word": quoted(SafeText.line(word)),
                "dictionaries": answer.dictionaries.map(\.name).joined(separator: ", "),
            ])
    }
}
