internal import Foundation
internal import Synchronization

/// Messages of one context said in a language chosen per call, not the interface's: the mock
/// library bok carries answers each request in the language it asks for (`Accept-Language`),
/// while bok itself speaks the patron's. gettext answers in the process's one language only, so
/// the translations are read from the language's catalogue file (``MessageCatalogue``), once.
public struct Translations: Sendable {
    /// The language the messages are said in: `en`, or one with a catalogue.
    public let language: String
    /// English message → translation, for the context asked for.
    private let messages: [String: String]
    /// The language's month names, January first (`januari` in Swedish).
    private let months: [String]

    /// The messages with `context` in `language`; English (the messages as written) when it has no
    /// catalogue.
    public static func of(_ language: String, context: String) -> Translations {
        let key = language + "\u{04}" + context
        if let known = cache.withLock({ $0[key] }) { return known }
        let made = Translations(language: language, context: context)
        cache.withLock { $0[key] = made }
        return made
    }

    private static let cache = Mutex<[String: Translations]>([:])

    private init(language: String, context: String) {
        let path = Localization.catalogueDirectory.flatMap { directory in
            Localization.hasCatalogue(language, in: directory) && language != Localization.english
                ? "\(directory)/\(language)/LC_MESSAGES/\(Localization.domain).mo" : nil
        }
        let catalogue = path.flatMap { MessageCatalogue(path: $0, contextPrefix: context + "\u{04}") }
        guard let catalogue else {
            self.language = Localization.english
            messages = [:]
            months = Self.months(of: "en_US")
            return
        }
        self.language = language
        messages = catalogue.translations[context] ?? [:]
        // The catalogue names its locale as trp("locale", "en_US") does (`sv_SE`).
        let locale = MessageCatalogue(path: path!, contextPrefix: "locale\u{04}")?.translations["locale"]?["en_US"]
        months = Self.months(of: locale ?? language)
    }

    private static func months(of locale: String) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        // The forms used in a date (`1 december`), not the standalone ones of a calendar's heading.
        return formatter.monthSymbols
    }

    /// `message` in this language with each `{name}` replaced by its value (a count `{n}` of five
    /// digits or more grouped as the language writes it).
    public func callAsFunction(
        _ message: String, _ values: [(key: String, value: any CustomStringConvertible)] = []
    ) -> String {
        let translated = messages[message].flatMap { $0.isEmpty ? nil : $0 } ?? message
        return fill(translated, values, language: language)
    }

    /// A day as the language writes it in a sentence: `1 December 2026`, `1 december 2026`.
    public func day(year: Int, month: Int, day: Int) -> String {
        let name = months.count == 12 ? months[max(0, min(11, month - 1))] : String(month)
        return "\(day) \(name) \(year)"
    }

    /// The language to answer an `Accept-Language` header in: its most wanted language that has a
    /// catalogue (or English), by quality then order; `fallback` when it names none of them or is
    /// absent. `sv-SE` and `sv` both mean `sv`; `*` means `fallback`.
    public static func negotiate(acceptLanguage header: String?, fallback: String) -> String {
        guard let header else { return fallback }
        let known = Set(Localization.languages)
        var best: (quality: Double, language: String)?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            let language = tag == "*" ? fallback : Localization.code(tag)
            guard quality > 0, known.contains(language) else { continue }
            if best.map({ quality > $0.quality }) ?? true { best = (quality, language) }
        }
        return best?.language ?? fallback
    }
}
