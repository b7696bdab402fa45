/// Which eSpeak voice reads a text, from its language tag (`xml:lang`, `dc:language`).
public enum VoiceChoice {
    /// The installed voice for a BCP 47 tag: the exact region (`en-us`) when installed, else the
    /// language (`en`), else nil (the caller says no voice is installed for it).
    public static func voice(forLanguage tag: String, installed: [String]) -> String? {
        let normalized = String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
        let names = Set(installed.map { $0.lowercased() })
        if names.contains(normalized) { return normalized }
        let language = String(normalized.prefix { $0 != "-" })
        if names.contains(language) { return language }
        // Norwegian Bokmål books say `nb`; eSpeak calls that voice `nb` or `no`.
        if language == "nb" || language == "no" { return ["nb", "no"].first(where: names.contains) }
        return nil
    }
}
