import Foundation
import Localization
import Logging
import Terminal
import TextSafety

/// `define WORD`: a word looked up in the dictionaries a DICT server (dictd) has installed.
@MainActor
enum DefineCommand {
    nonisolated static let define = Command(
        typedName: TypedWord("typed: command", "define"), aliases: ["dict", "lookup"],
        synopsis: N_("define WORD [--lang sv|en]"),
        summary: N_("Look a word up in the dictionaries installed on this computer (dictd)"),
        details: [
            N_(
                "define asks the DICT server on this computer (dictd, RFC 2229) and its dictionaries, such as "
                    + "Debian's dict-freedict-swe-eng and dict-freedict-eng-swe. Dictionaries into the language bok "
                    + "speaks are asked first, so an English word gives its Swedish entry when bok speaks Swedish; "
                    + "--lang names the word's language. A word not found is tried again without its ending "
                    + "(huset as hus, books as book)."),
            N_("Examples:  define läsa     define read --lang en"),
        ],
        valued: ["lang"],
        run: { arguments, session in
            guard let word = arguments.positional.first, arguments.positional.count == 1 else {
                throw UserError.usage(tr("Usage: define WORD [--lang sv|en], e.g. define läsa."))
            }
            let language = arguments.option("lang").map { $0.lowercased() }
            let client = DictClient.fromEnvironment(ProcessInfo.processInfo.environment)
            let interface = Localization.language
            let tries = Stems.forms(of: word.lowercased())
            let answer: (databases: [DictClient.Database], definitions: [DictClient.Definition])
            do {
                answer = try await Task.detached {
                    try client.lookUp(tries) { Dictionaries.order($0, wordLanguage: language, interface: interface) }
                }.value
            } catch let failure as DictClient.Failure {
                session.logger.debug("dict failed", metadata: ["detail": "\(failure.detail)"])
                if failure.kind == .unreachable {
                    throw UserError(
                        tr(
                            "define needs a dictionary server, and none answers at {server}. Install one with "
                                + "dictionaries: sudo apt install dictd dict-freedict-eng-swe dict-freedict-swe-eng "
                                + "(BOK_DICT_SERVER=HOST:PORT names another).",
                            ["server": "\(client.host):\(client.port)"]))
                }
                throw UserError(
                    tr(
                        "The dictionary server at {server} gave an answer bok cannot read. Try again.",
                        ["server": "\(client.host):\(client.port)"]))
            }
            let q = session.theme.marks
            guard !answer.databases.isEmpty else {
                throw UserError(
                    tr(
                        "The dictionary server has no dictionaries. Install some: sudo apt install "
                            + "dict-freedict-eng-swe dict-freedict-swe-eng."))
            }
            guard let first = answer.definitions.first else {
                throw UserError(
                    tr(
                        "No dictionary here knows {word} (looked in {dictionaries}).",
                        [
                            "word": q.quoted(SafeText.line(word)),
                            "dictionaries": answer.databases.map(\.name).joined(separator: ", "),
                        ]))
            }
            let names = Dictionary(answer.databases.map { ($0.name, $0.description) }, uniquingKeysWith: { a, _ in a })
            var lines: [String] = []
            if first.word != word.lowercased() {
                lines += [
                    session.theme.dim(
                        tr(
                            "{word} is not in the dictionaries; {base} is:",
                            ["word": q.quoted(SafeText.line(word)), "base": q.quoted(first.word)])),
                    "",
                ]
            }
            for definition in answer.definitions {
                lines.append(
                    session.theme.bold(names[definition.database] ?? definition.database)
                        + session.theme.dim(" (\(definition.database))"))
                lines += definition.text.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map {
                    "  " + $0.trimmingCharacters(in: .whitespaces)
                }
                lines.append("")
            }
            if lines.last == "" { lines.removeLast() }
            return CommandOutput(
                lines: lines,
                json: DefineJSON(
                    word: word, found: first.word,
                    definitions: answer.definitions.map {
                        .init(database: $0.database, dictionary: names[$0.database] ?? "", text: $0.text)
                    }))
        })
}

/// `define --json`.
struct DefineJSON: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        let database: String
        let dictionary: String
        let text: [String]
    }
    let word: String
    /// The form found: the word, or its base form.
    let found: String
    let definitions: [Entry]
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
enum Stems {
    /// Endings of Swedish and English inflections, longest first.
    static let endings = [
        "arnas", "ornas", "ernas", "arna", "orna", "erna", "andet", "ande", "ende", "ades", "ade", "aste", "ast",
        "ies", "ing", "ens", "ets", "are", "en", "et", "na", "ar", "or", "er", "es", "ed", "'s", "s", "a", "e", "t",
        "n",
    ]

    static func forms(of word: String) -> [String] {
        var forms = [word]
        for ending in endings where word.hasSuffix(ending) && word.count - ending.count >= 2 {
            let stem = String(word.dropLast(ending.count))
            forms.append(ending == "ies" ? stem + "y" : stem)
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }
}
