/// Escape codes that ask the terminal to report mouse buttons and the wheel as SGR (1006)
/// sequences, which ``KeyDecoder`` reads.
///
/// Terminals that do not know them ignore them; while reporting is on, selecting text with the
/// mouse usually needs Shift held.
public enum MouseReporting {
    /// Turns on button and wheel reports in SGR form.
    public static let enable = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Turns them off again.
    public static let disable = "\u{1B}[?1006l\u{1B}[?1000l"
}
