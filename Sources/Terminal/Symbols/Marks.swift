import Localization

/// The symbols bok prints, in Unicode or, when the locale is not UTF-8, in plain ASCII.
///
/// `Marks(caps).check` is `✓` in a UTF-8 terminal and `+` under `LANG=C`, so output stays
/// readable everywhere without each renderer checking the locale. For a screen reader
/// (``TerminalCapabilities/screenReader``) a mark that says something is left to its words
/// (``good(_:)``, ``bad(_:)``) and a separator is one a voice passes over.
public struct Marks: Sendable, Hashable {
    /// Whether the Unicode forms are used.
    public let unicode: Bool
    /// Whether the words alone say it, for a screen reader: no ✓ or ✗, which it would read out
    /// as "check mark" or not at all.
    public let words: Bool

    /// Marks for the given terminal.
    public init(_ caps: TerminalCapabilities) {
        self.unicode = caps.unicode
        self.words = caps.screenReader
    }

    /// Marks in Unicode (`true`) or ASCII (`false`), and (`words`) for a screen reader.
    public init(unicode: Bool, words: Bool = false) {
        self.unicode = unicode
        self.words = words
    }

    /// Words for something good or available: `✓ Available`, for a screen reader `Available`.
    public func good(_ text: String) -> String { words ? text : "\(check) \(text)" }
    /// Words for something that failed or cannot be had: `✗ on loan, 3 waiting`, for a screen
    /// reader `on loan, 3 waiting`.
    public func bad(_ text: String) -> String { words ? text : "\(cross) \(text)" }

    /// Success or available: `✓`, ASCII `+`.
    public var check: String { unicode ? "✓" : "+" }
    /// Failure or unavailable: `✗`, ASCII `x`.
    public var cross: String { unicode ? "✗" : "x" }
    /// Leads to, or becomes: `→`, ASCII `->`.
    public var arrow: String { unicode ? "→" : "->" }
    /// Text was cut: `…`, ASCII `...`.
    public var ellipsis: String { unicode ? "…" : "..." }
    /// A list item: `•`, ASCII `*`.
    public var bullet: String { unicode ? "•" : "*" }
    /// A section of a catalogue, which opens to more entries: `▸`, for a screen reader `Section:`.
    public var section: String { words ? tr("Section:") : "▸" }
    /// A download: `↓`, ASCII `v`.
    public var downArrow: String { unicode ? "↓" : "v" }
    /// A separator between fields: `·`, ASCII and for a screen reader `-` (a pause, where `·`
    /// is read out as "middle dot").
    public var middleDot: String { unicode && !words ? "·" : "-" }
    /// An opening quotation mark as the interface language's typography has it (`“`, Swedish
    /// `”`: its catalogue says), ASCII `"`.
    public var openQuote: String {
        // TRANSLATORS: The mark your language opens a quotation with: “ in English, ” in Swedish, „ in German.
        unicode ? trp("quotation mark", "“") : "\""
    }
    /// A closing quotation mark as the interface language's typography has it (`”`), ASCII `"`.
    public var closeQuote: String {
        // TRANSLATORS: The mark your language closes a quotation with: ” in English and Swedish, “ in German.
        unicode ? trp("quotation mark", "”") : "\""
    }

    /// The text between an opening and a closing quotation mark.
    public func quoted(_ text: String) -> String {
        openQuote + text + closeQuote
    }
}
