import Catalog
import Hummingbird
import Localization

/// Words the mock library says to a patron (a refusal's reason, a feed's title, the login's
/// labels), written in English with `{name}` placeholders and said in the language the request
/// asks for: the state decides what to say, the answer is worded for whoever asked.
///
/// The translations are bok's catalogue's messages with the context `mock`
/// (`scripts/extract-messages.py` finds each `Said("…")`), so a language bok speaks is one the
/// mock speaks.
struct Said: Sendable, Hashable {
    /// A value put in a placeholder, worded in the language said in.
    enum Value: Sendable, Hashable {
        case text(String)
        case number(Int)
        /// A day: `1 December 2026`, `1 december 2026`.
        case day(DayDate)
        /// Words said in the same language (a lock's time and day).
        indirect case said(Said)
    }

    /// The English message.
    let message: String
    let values: [Pair]
    /// False for words that came from elsewhere (a query parser's message), said as they are.
    let translated: Bool

    struct Pair: Sendable, Hashable {
        let name: String
        let value: Value
    }

    init(_ message: String, _ values: KeyValuePairs<String, Value> = [:]) {
        self.message = message
        self.values = values.map { Pair(name: $0.key, value: $0.value) }
        translated = true
    }

    /// Words that are not the mock's own, said as they are in every language.
    init(verbatim text: String) {
        message = text
        values = []
        translated = false
    }

    /// The context of the mock's messages in bok's catalogues.
    static let context = "mock"

    /// The words in the language of `translations`.
    func text(in translations: Translations) -> String {
        guard translated else { return message }
        var filled: [(key: String, value: any CustomStringConvertible)] = []
        for pair in values {
            switch pair.value {
            case .text(let text): filled.append((pair.name, text))
            case .number(let number): filled.append((pair.name, number))
            case .day(let day):
                filled.append((pair.name, translations.day(year: day.year, month: day.month, day: day.day)))
            case .said(let said): filled.append((pair.name, said.text(in: translations)))
            }
        }
        return translations(message, filled)
    }

    /// The words in the language `request` asks for.
    func text(for request: Request) -> String { text(in: Self.translations(for: request)) }

    /// The English words, for logs and tests.
    var english: String { text(in: Translations.of(Localization.english, context: Self.context)) }

    /// The mock is a Swedish library: a request that names no language it speaks is answered in
    /// Swedish, one that asks for English (bok in English does) in English.
    static let defaultLanguage = "sv"

    /// The messages in the language `request`'s `Accept-Language` asks for.
    static func translations(for request: Request) -> Translations {
        let language = Translations.negotiate(
            acceptLanguage: request.headers[.acceptLanguage], fallback: defaultLanguage)
        return Translations.of(language, context: context)
    }
}

extension Translations {
    /// `said` in this language.
    func callAsFunction(_ said: Said) -> String { said.text(in: self) }
}
