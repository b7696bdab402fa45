import Catalog
import Foundation
import Localization

/// Dates and languages in words, for a patron.
enum Words {
    /// `a, b or c`: words listed for a patron, the last two joined by `last`.
    static func list(_ words: [String], last: String = "or") -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(last) " + words[words.count - 1]
    }

    /// The interface language's locale, for Foundation's numbers.
    static var locale: Locale { Localization.locale }

    /// The month's name: `March`, `mars`.
    static func month(_ number: Int) -> String { Localization.month(number) }

    /// `12 March 2021`, `12 mars 2021`.
    static func day(_ date: DayDate) -> String {
        "\(date.day) \(month(date.month)) \(date.year)"
    }

    /// `24 Nov`, `24 nov`.
    static func shortDay(_ date: DayDate) -> String {
        "\(date.day) \(Localization.month(date.month, short: true))"
    }

    private static let languages: [String: String] = [
        "sv": "Swedish", "en": "English", "fi": "Finnish", "da": "Danish", "no": "Norwegian", "nb": "Norwegian",
        "nn": "Norwegian (Nynorsk)", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
        "ar": "Arabic", "fa": "Persian", "so": "Somali", "pl": "Polish", "ru": "Russian", "uk": "Ukrainian",
        "tr": "Turkish", "bs": "Bosnian", "hr": "Croatian", "sr": "Serbian", "ti": "Tigrinya", "ku": "Kurdish",
        "zh": "Chinese", "ja": "Japanese", "is": "Icelandic", "nl": "Dutch", "pt": "Portuguese", "se": "Northern Sami",
    ]

    /// `Swedish` for `sv` (`svenska` in Swedish); the code itself when unknown.
    static func language(_ code: String) -> String {
        let bare = code.lowercased().prefix { $0.isLetter }.description
        if !Localization.isEnglish, let name = locale.localizedString(forLanguageCode: bare) { return name }
        return languages[bare] ?? code
    }

    /// `EPUB (download)` for format 4104.
    static func format(_ format: Product.Format) -> String {
        switch format.id {
        case "4104": tr("EPUB (download)")
        case "4101": tr("EPUB (read online)")
        case "4103": "PDF"
        case "4002": tr("Audiobook (streamed)")
        default: format.name.isEmpty ? tr("format {id}", ["id": format.id]) : format.name
        }
    }

    /// `2.0`, `2,0` in Swedish: a number with `digits` decimals, not grouped.
    static func decimal(_ value: Double, digits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(digits)).grouping(.never).locale(locale))
    }

    /// `1.2 MB`, `1,2 MB` in Swedish; `2.4 GB` from a gigabyte on.
    static func bytes(_ value: some BinaryInteger) -> String {
        let count = Int64(clamping: value)
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return "\(count / 1024) kB" }
        let giga = count >= 1 << 30
        let tenths = count * 10 / (giga ? 1 << 30 : 1 << 20)
        return "\(tenths / 10)\(locale.decimalSeparator ?? ".")\(tenths % 10) " + (giga ? "GB" : "MB")
    }
}

extension Words {
    /// `Friday` for a day (`fredag` in Swedish).
    static func weekday(_ date: DayDate) -> String {
        // Days since 1970-01-01, which was a Thursday; the names start on Sunday.
        Localization.weekday(((date.ordinal % 7) + 7 + 4) % 7)
    }

    /// `Friday 19 December` (`fredag 19 december`), with the year when it is not the year of `today`.
    static func dayWithWeekday(_ date: DayDate, today: DayDate? = nil) -> String {
        let text = "\(weekday(date)) \(date.day) \(month(date.month))"
        guard let today, today.year != date.year else { return text }
        return text + " \(date.year)"
    }

    /// `28 days`, `1 day`, `today`.
    static func daysLeft(_ days: Int) -> String {
        days == 0 ? tr("today") : trn("{n} day", "{n} days", days)
    }
}
