import Foundation
import Localization
import Logging
import Reader
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
            let lookup = WordLookup.fromEnvironment(ProcessInfo.processInfo.environment)
            let interface = Localization.language
            let answer: WordLookup.Answer
            do {
                answer = try await Task.detached {
                    try lookup.define(word, language: language, interface: interface)
                }.value
            } catch let failure as WordLookup.Failure {
                session.logger.debug("dict failed", metadata: ["detail": "\(failure)"])
                throw UserError(WordLookup.message(for: failure, server: lookup.server))
            }
            let q = session.theme.marks
            if let problem = WordLookup.problem(with: answer, word: word, quoted: q.quoted) { throw UserError(problem) }
            var lines: [String] = []
            if let found = answer.found, found != word.lowercased() {
                lines += [
                    session.theme.dim(
                        tr(
                            "{word} is not in the dictionaries; {base} is:",
                            ["word": q.quoted(SafeText.line(word)), "base": q.quoted(found)])),
                    "",
                ]
            }
            for entry in answer.entries {
                lines.append(
                    session.theme.bold(
                        entry.dictionary.description.isEmpty ? entry.dictionary.name : entry.dictionary.description)
                        + session.theme.dim(" (\(entry.dictionary.name))"))
                lines += entry.lines.map { "  " + $0 }
                lines.append("")
            }
            if lines.last == "" { lines.removeLast() }
            return CommandOutput(
                lines: lines,
                json: DefineJSON(
                    word: word, found: answer.found ?? word,
                    definitions: answer.entries.map {
                        .init(database: $0.dictionary.name, dictionary: $0.dictionary.description, text: $0.lines)
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
