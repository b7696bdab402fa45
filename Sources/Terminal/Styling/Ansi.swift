/// ANSI escape codes: painting text in a ``TextStyle`` and stripping escapes back out.
public enum Ansi {
    /// Control Sequence Introducer, the start of most escape codes.
    public static let csi = "\u{1B}["
    /// Resets every colour and attribute (SGR 0).
    public static let reset = "\u{1B}[0m"

    /// Returns `text` wrapped in the escape codes for `style`, or unchanged when colour is off.
    ///
    /// With `caps.colorDepth == .none` (piped output, `NO_COLOR`, `TERM=dumb`) the text comes back
    /// byte for byte, so plain output never holds an escape code. Resets inside `text` (from
    /// painting a part of it first) re-open this style, so nesting keeps the outer style.
    /// - Parameters:
    ///   - text: The text to paint.
    ///   - style: Colours and attributes.
    ///   - caps: The terminal's capabilities; only the colour depth matters here.
    public static func paint(_ text: String, _ style: TextStyle, caps: TerminalCapabilities) -> String {
        wrap(text, parameters: style.sgrParameters(depth: caps.colorDepth))
    }

    /// Returns `text` wrapped in the escape codes of `style`'s attributes (bold, italic, underline,
    /// inverse, dim), never its colours.
    ///
    /// For a full-screen view at a terminal with `NO_COLOR`: it already moves the cursor with
    /// escape codes, and without attributes a search hit, a selection or the sentence being read
    /// aloud could not be told from the text around it (no-color.org asks only for no colour).
    public static func paintAttributes(_ text: String, _ style: TextStyle) -> String {
        wrap(text, parameters: style.attributeParameters.joined(separator: ";"))
    }

    private static func wrap(_ text: String, parameters: String) -> String {
        guard !parameters.isEmpty, !text.isEmpty else { return text }
        let open = csi + parameters + "m"
        let body = EscapeScanner.mightContainEscapes(text) ? text.replacingAll(reset, with: reset + open) : text
        return open + body + reset
    }

    /// Returns the text with every escape sequence (CSI, OSC and the other ESC forms) removed.
    ///
    /// Tests use it to compare what a user would read, whatever the colour depth.
    public static func strip(_ text: String) -> String {
        guard EscapeScanner.mightContainEscapes(text) else { return text }
        var scanner = EscapeScanner()
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scanner.consumes(scalar) {
            result.append(scalar)
        }
        return String(result)
    }
}
