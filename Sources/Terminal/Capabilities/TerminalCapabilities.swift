public import Foundation

/// What the terminal on standard output can show: colour depth, Unicode, and whether it is a terminal at all.
///
/// Detect once at start-up with ``detect(environment:isTTY:)`` and pass the value down;
/// tests and piped output use ``plain``.
public struct TerminalCapabilities: Sendable, Hashable {
    /// Whether standard output is a terminal (not a pipe or a file).
    public var isTTY: Bool
    /// How many colours escape codes may use; `.none` means no escape codes at all.
    public var colorDepth: ColorDepth
    /// Whether the locale is UTF-8, so that marks like ✓ and … can be printed.
    public var unicode: Bool
    /// Whether output is for a screen reader or braille display: linear text only, written once,
    /// marks in words, no box drawing, spinner or full-screen view (`--screen-reader`).
    public var screenReader: Bool
    /// How pictures are drawn: `images = …` in the config file, or half-blocks where graphics are
    /// never written (`--json`, recordings, scenario runs); ``PictureDetection`` decides `auto`.
    public var images: ImagesSetting = .auto

    /// Creates capabilities with every field given explicitly.
    public init(isTTY: Bool, colorDepth: ColorDepth, unicode: Bool, screenReader: Bool = false) {
        self.isTTY = isTTY
        self.colorDepth = colorDepth
        self.unicode = unicode
        self.screenReader = screenReader
    }

    /// No colour, Unicode marks, not a terminal: stable text for tests and pipes.
    public static let plain = TerminalCapabilities(isTTY: false, colorDepth: .none, unicode: true)

    /// Whether any escape codes may be written at all.
    public var usesColor: Bool { colorDepth != .none }

    /// Detects the capabilities from the environment and whether standard output is a terminal.
    ///
    /// Colour is off when stdout is not a terminal, when `NO_COLOR` is set to anything non-empty
    /// (https://no-color.org), or when `TERM` is `dumb`; `COLORTERM=truecolor`/`24bit` gives 24-bit
    /// colour, a `TERM` containing `256color` gives 256 colours, any other terminal 16.
    /// Unicode follows the first of `LC_ALL`, `LC_CTYPE`, `LANG` that is set (POSIX order):
    /// it must name UTF-8 (`C.UTF-8`, `sv_SE.utf8`, …); an unset locale is not Unicode.
    /// - Parameters:
    ///   - environment: The process environment; tests pass their own.
    ///   - isTTY: Whether standard output is a terminal.
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isTTY: Bool = isatty(1) == 1
    ) -> TerminalCapabilities {
        TerminalCapabilities(
            isTTY: isTTY,
            colorDepth: colorDepth(environment: environment, isTTY: isTTY),
            unicode: localeIsUTF8(environment: environment)
        )
    }

    static func colorDepth(environment: [String: String], isTTY: Bool) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        guard isTTY else { return .none }
        let term = (environment["TERM"] ?? "").lowercased()
        if term == "dumb" { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
            return .trueColor
        }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }

    static func localeIsUTF8(environment: [String: String]) -> Bool {
        // POSIX: LC_ALL overrides LC_CTYPE, which overrides LANG; empty counts as unset.
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .lazy
            .compactMap { environment[$0] }
            .first { !$0.isEmpty }
        guard let locale else { return false }
        // `UTF-8`, `utf8`, `UTF8` alike; by byte, as Foundation's string search loads CoreFoundation.
        let letters = locale.utf8.lazy.filter { $0 != UInt8(ascii: "-") }.map { $0 | 0x20 }
        return Array(letters).firstRange(of: Array("utf8".utf8)) != nil
    }
}
