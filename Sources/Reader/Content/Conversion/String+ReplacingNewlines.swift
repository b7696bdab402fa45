extension String {
    /// Line breaks and runs of spaces turned into single spaces (for titles).
    var replacingNewlines: String {
        split(whereSeparator: { $0 == "\n" || $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
