import Catalog

/// Dates and languages in words, for a patron.
enum Words {
    /// `a, b or c`: words listed for a patron, the last two joined by `last`.
    static func list(_ words: [String], last: String = "or") -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(last) " + words[words.count - 1]
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    /// `12 March 2021`.
    static func day(_ date: DayDate) -> String {
        "\(date.day) \(months[max(0, min(11, date.month - 1))]) \(date.year)"
    }

    /// `24 Nov`.
    static func shortDay(_ date: DayDate) -> String {
        "\(date.day) \(months[max(0, min(11, date.month - 1))].prefix(3))"
    }

    private static let languages: [String: String] = [
        "sv": "Swedish", "en": "English", "fi": "Finnish", "da": "Danish", "no": "Norwegian", "nb": "Norwegian",
        "nn": "Norwegian (Nynorsk)", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian",
        "ar": "Arabic", "fa": "Persian", "so": "Somali", "pl": "Polish", "ru": "Russian", "uk": "Ukrainian",
        "tr": "Turkish", "bs": "Bosnian", "hr": "Croatian", "sr": "Serbian", "ti": "Tigrinya", "ku": "Kurdish",
        "zh": "Chinese", "ja": "Japanese", "is": "Icelandic", "nl": "Dutch", "pt": "Portuguese", "se": "Northern Sami",
    ]

    /// `Swedish` for `sv`; the code itself when unknown.
    static func language(_ code: String) -> String {
        languages[code.lowercased().prefix { $0.isLetter }.description] ?? code
    }

    /// `EPUB (download)` for format 4104.
    static func format(_ format: Product.Format) -> String {
        switch format.id {
        case "4104": "EPUB (download)"
        case "4101": "EPUB (read online)"
        case "4103": "PDF"
        case "4002": "Audiobook (streamed)"
        default: format.name.isEmpty ? "format \(format.id)" : format.name
        }
    }

    /// `1.2 MB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return "\(count / 1024) kB" }
        let tenths = count * 10 / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}

extension Words {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `Friday` for a day.
    static func weekday(_ date: DayDate) -> String {
        // Zeller-free: days since 1970-01-01, which was a Thursday.
        let days = DayDate(year: 1970, month: 1, day: 1).days(until: date)
        return weekdays[((days % 7) + 7 + 4) % 7]
    }

    /// `Friday 19 December`, with the year when it is not the year of `today`.
    static func dayWithWeekday(_ date: DayDate, today: DayDate? = nil) -> String {
        let text = "\(weekday(date)) \(date.day) \(months[max(0, min(11, date.month - 1))])"
        guard let today, today.year != date.year else { return text }
        return text + " \(date.year)"
    }

    /// `28 days`, `1 day`, `today`.
    static func daysLeft(_ days: Int) -> String {
        days == 0 ? "today" : days == 1 ? "1 day" : "\(days) days"
    }
}
