/// How a piece of text looks: colours and attributes, painted with ``Ansi/paint(_:_:caps:)``.
public struct TextStyle: Sendable, Hashable {
    /// The text colour, or `nil` for the terminal's default.
    public var foreground: TerminalColor?
    /// The background colour, or `nil` for the terminal's default.
    public var background: TerminalColor?
    /// Bold (often drawn brighter).
    public var bold: Bool
    /// Dim (faint) text, for secondary information.
    public var dim: Bool
    /// Italic, where the terminal font has it.
    public var italic: Bool
    /// Underlined text.
    public var underline: Bool
    /// Swapped foreground and background, for highlighted rows.
    public var inverse: Bool

    /// Creates a style; everything is off unless given.
    public init(
        foreground: TerminalColor? = nil,
        background: TerminalColor? = nil,
        bold: Bool = false,
        dim: Bool = false,
        italic: Bool = false,
        underline: Bool = false,
        inverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.italic = italic
        self.underline = underline
        self.inverse = inverse
    }

    /// No colour and no attributes: painting with it leaves text unchanged.
    public static let plain = TextStyle()
    /// Bold text.
    public static let bold = TextStyle(bold: true)
    /// Dim text.
    public static let dim = TextStyle(dim: true)
    /// Italic text.
    public static let italic = TextStyle(italic: true)
    /// Underlined text.
    public static let underline = TextStyle(underline: true)
    /// Inverse video.
    public static let inverse = TextStyle(inverse: true)

    /// Text in the given colour.
    public static func color(_ color: TerminalColor) -> TextStyle {
        TextStyle(foreground: color)
    }

    /// This style with `other` laid on top: its colours win where set, attributes add up.
    public func merging(_ other: TextStyle) -> TextStyle {
        TextStyle(
            foreground: other.foreground ?? foreground,
            background: other.background ?? background,
            bold: bold || other.bold,
            dim: dim || other.dim,
            italic: italic || other.italic,
            underline: underline || other.underline,
            inverse: inverse || other.inverse
        )
    }

    /// Whether the style changes nothing.
    public var isPlain: Bool { self == .plain }

    /// The SGR parameter list for this style at `depth`, e.g. `"1;31"`; empty when nothing applies.
    func sgrParameters(depth: ColorDepth) -> String {
        guard depth != .none else { return "" }
        var parts = attributeParameters
        if let code = foreground?.sgrParameters(depth: depth, background: false) { parts.append(code) }
        if let code = background?.sgrParameters(depth: depth, background: true) { parts.append(code) }
        return parts.joined(separator: ";")
    }

    /// The SGR parameters of the attributes alone (no colours).
    var attributeParameters: [String] {
        var parts: [String] = []
        if bold { parts.append("1") }
        if dim { parts.append("2") }
        if italic { parts.append("3") }
        if underline { parts.append("4") }
        if inverse { parts.append("7") }
        return parts
    }
}
