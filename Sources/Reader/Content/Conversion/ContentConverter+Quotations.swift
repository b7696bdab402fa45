extension ContentConverter {
    /// Quotation marks for a language (its primary subtag), the inner pair for a quotation inside another.
    static func quotationMarks(_ language: String?, nested: Bool) -> (open: String, close: String) {
        let primary =
            (language ?? "en").lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
            ?? "en"
        switch primary {
        case "sv", "fi": return nested ? ("’", "’") : ("”", "”")
        case "de", "cs", "sk", "is", "lt": return nested ? ("‚", "‘") : ("„", "“")
        case "pl", "hu", "ro", "hr": return nested ? ("«", "»") : ("„", "”")
        case "da": return nested ? ("›", "‹") : ("»", "«")
        case "fr": return nested ? ("“", "”") : ("«\u{A0}", "\u{A0}»")
        case "nb", "nn", "no", "es", "it", "pt", "ru", "uk", "el", "ca": return nested ? ("“", "”") : ("«", "»")
        case "ja", "zh": return nested ? ("『", "』") : ("「", "」")
        default: return nested ? ("‘", "’") : ("“", "”")
        }
    }
}
