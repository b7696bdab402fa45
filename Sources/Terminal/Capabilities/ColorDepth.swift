/// How many colours the terminal can show, from none (plain text) to 24-bit.
public enum ColorDepth: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// No colour and no other escape codes: piped output, `NO_COLOR`, `TERM=dumb`.
    case none = 0
    /// The 8 basic colours and their bright variants (SGR 30–37, 90–97).
    case ansi16 = 1
    /// The xterm 256-colour palette (SGR 38;5;n).
    case ansi256 = 2
    /// 24-bit RGB colour (SGR 38;2;r;g;b).
    case trueColor = 3

    /// Orders depths from fewest to most colours.
    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
