import Foundation
import Localization

/// `language`: the language bok speaks, for this session.
@MainActor
enum LanguageCommand {
    nonisolated static let language = Command(
        typedName: TypedWord("typed: command", "language"), aliases: ["lang"],
        synopsis: N_("language [sv|en]"),
        summary: N_("Show or change the language bok speaks: sv (Swedish) or en (English)"),
        details: [
            N_(
                "bok speaks the language of your locale (LANG=sv_SE.UTF-8, or LANGUAGE=sv); language sv switches "
                    + "for this session, and language = sv in the config file for every session."),
            N_("Output for scripts (--json) is always the same, whatever the language."),
            N_("Examples:  language     language sv     språk en"),
        ],
        completion: .languages,
        run: { arguments, session in
            guard let word = arguments.positional.first else {
                return CommandOutput(
                    lines: [
                        tr(
                            "bok speaks {language}. {choices} changes it.",
                            [
                                "language": name(Localization.language),
                                "choices": Words.list(
                                    ordered.map { "\(Command.spoken("language")) \($0)" }, last: tr("or")),
                            ])
                    ],
                    json: ["language": Localization.patronLanguage])
            }
            guard arguments.positional.count == 1, let code = code(word) else {
                throw UserError.usage(
                    tr(
                        "bok speaks {languages}, not \"{word}\". Try language {code}.",
                        ["languages": named, "word": word, "code": ordered[0]]))
            }
            Localization.use(code, environment: session.environment)
            let file = session.paths?.configFile.path ?? tr("the config file")
            return CommandOutput(
                lines: [
                    tr("bok now speaks {language}.", ["language": name(code)]),
                    session.theme.dim(
                        tr(
                            "To start in it every time, add language = {code} to {file}.",
                            ["code": code, "file": file])),
                ],
                json: ["language": code])
        })

    /// The language bok speaks that `word` names: its code (`sv`), its name in English or in any
    /// language bok speaks (`swedish`, `svenska`, `engelska`), or its country's code (`se`), all
    /// from Foundation's locale data, so that a new catalogue needs no list here.
    nonisolated static func code(_ word: String) -> String? {
        let word = word.lowercased()
        let languages = Localization.languages
        if languages.contains(word) { return word }
        if let named = languages.first(where: { code in
            languages.contains { Locale(identifier: $0).localizedString(forLanguageCode: code)?.lowercased() == word }
        }) {
            return named
        }
        let region = Locale.Region(word.uppercased())
        guard word.count == 2, region.isISORegion, region != .unknown else { return nil }
        let spoken = Locale.Language(identifier: "und-" + region.identifier).maximalIdentifier
        return languages.first { spoken.hasPrefix($0 + "-") }
    }

    /// The languages bok speaks, each catalogue's before English: `sv`, `en`.
    nonisolated static var ordered: [String] {
        Localization.languages.filter { $0 != Localization.english } + [Localization.english]
    }

    /// The languages bok speaks with their names: `sv (Swedish) and en (English)`.
    nonisolated static var named: String {
        Words.list(ordered.map { "\($0) (\(name($0)))" }, last: tr("and"))
    }

    /// The codes of the languages bok speaks, for a message that asks for one: `sv or en`.
    nonisolated static var codes: String { Words.list(ordered, last: tr("or")) }

    /// The language's name in the language in use.
    nonisolated static func name(_ code: String) -> String { Words.language(code) }
}
