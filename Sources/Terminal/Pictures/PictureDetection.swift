internal import Foundation

/// Which way pictures are drawn on this terminal, at what size a cell is in pixels, and why.
///
/// Environment hints come first (kitty's, iTerm2's, WezTerm's, foot's and mlterm's own
/// variables), then the terminal is asked (``TerminalQuery``): kitty's or iTerm2's protocol when
/// it names itself (XTVERSION) as kitty, Ghostty, WezTerm or iTerm2, Sixel when its DA1 reply has
/// attribute 4, half-blocks when it answers without, and half-blocks when it does not answer
/// within the bound. Inside tmux it is half-blocks unless the setting names a protocol; output
/// that is not a terminal, `TERM=dumb` and the Linux console never get graphics at all.
public struct PictureDetection: Sendable, Hashable {
    /// How pictures are drawn.
    public var method: PictureProtocol
    /// The size of a cell in pixels (``PixelSize/assumed`` when the terminal did not say).
    public var cell: PixelSize
    /// What decided it, for `docs/pictures.md`'s readers and tests: `TERM=xterm-kitty`, `DA1 4`.
    public var reason: String

    /// Creates a detection with every field given.
    public init(method: PictureProtocol, cell: PixelSize = .assumed, reason: String) {
        self.method = method
        self.cell = cell
        self.reason = reason
    }

    /// Why no graphics may be written at all, or nil when they may: standard output is not a
    /// terminal, `TERM` is `dumb` or `linux` (the console draws no pixels of a terminal's).
    public static func refusal(environment: [String: String], isTTY: Bool) -> String? {
        guard isTTY else { return "not a terminal" }
        let term = environment["TERM"] ?? ""
        if term == "dumb" || term == "linux" || term.isEmpty { return "TERM=\(term)" }
        return nil
    }

    /// What the environment says about the terminal, before asking it: the protocol and the
    /// variable that said so, or nil when it says nothing (then the terminal is asked).
    public static func hint(environment: [String: String]) -> (method: PictureProtocol, reason: String)? {
        let term = environment["TERM"] ?? ""
        // tmux passes pictures on only when told to and when the terminal outside draws them.
        if let tmux = environment["TMUX"], !tmux.isEmpty { return (.blocks, "TMUX") }
        if term == "xterm-kitty" { return (.kitty, "TERM=xterm-kitty") }
        if environment["KITTY_WINDOW_ID"] != nil { return (.kitty, "KITTY_WINDOW_ID") }
        if term == "xterm-ghostty" { return (.kitty, "TERM=xterm-ghostty") }
        switch environment["TERM_PROGRAM"] {
        case "iTerm.app": return (.iterm, "TERM_PROGRAM=iTerm.app")
        case "WezTerm": return (.iterm, "TERM_PROGRAM=WezTerm")
        default: break
        }
        if term == "foot" || term.hasPrefix("foot-") { return (.sixel, "TERM=\(term)") }
        if term == "mlterm" { return (.sixel, "TERM=mlterm") }
        // VS Code draws Sixel when its terminal.integrated.enableImages is on, and then says so in DA1.
        return nil
    }

    /// The protocol a terminal that names itself (XTVERSION) draws best, or nil: kitty and
    /// Ghostty kitty's, WezTerm and iTerm2 iTerm2's; the rest are told by DA1.
    public static func byName(_ name: String?) -> (method: PictureProtocol, reason: String)? {
        guard let name else { return nil }
        let lowered = name.lowercased()
        for (prefix, method) in [
            ("kitty", PictureProtocol.kitty), ("ghostty", .kitty), ("wezterm", .iterm), ("iterm2", .iterm),
        ]
        where lowered.hasPrefix(prefix) {
            return (method, "XTVERSION \(name)")
        }
        return nil
    }

    /// Decides how pictures are drawn.
    /// - Parameters:
    ///   - setting: the config file's or `:images`' choice; a named protocol wins over the
    ///     hints and the terminal's answer, but not over ``refusal(environment:isTTY:)``.
    ///   - environment: the process environment.
    ///   - isTTY: whether standard output is a terminal.
    ///   - windowCell: the cell size the kernel knows (`TIOCGWINSZ`), asked when nothing else says.
    ///   - ask: asks the terminal (``TerminalQuery/askOnce(input:output:)``); called at most once,
    ///     and only when the hints do not decide or a pixel protocol needs the cell size.
    ///   - window: the window's columns and rows, to divide the text area's pixels by.
    public static func detect(
        setting: ImagesSetting, environment: [String: String], isTTY: Bool,
        window: (columns: Int, rows: Int) = (80, 24),
        windowCell: () -> PixelSize? = { PixelSize.fromWindowSize() },
        ask: () -> TerminalReplies = { TerminalQuery.askOnce() }
    ) -> PictureDetection {
        if let refusal = refusal(environment: environment, isTTY: isTTY) {
            return PictureDetection(method: setting == .forced(.off) ? .off : .blocks, reason: refusal)
        }
        var asked: TerminalReplies?
        func replies() -> TerminalReplies {
            if let asked { return asked }
            let answer = ask()
            asked = answer
            return answer
        }
        let chosen: (method: PictureProtocol, reason: String)
        switch setting {
        case .forced(let method): chosen = (method, "images = \(method.rawValue)")
        case .auto:
            if let hint = hint(environment: environment) {
                chosen = hint
            } else {
                let answer = replies()
                if let named = byName(answer.terminalName) {
                    chosen = named
                } else if answer.kittyGraphics {
                    chosen = (.kitty, "kitty graphics query answered")
                } else if answer.sixel {
                    chosen = (.sixel, "DA1 4")
                } else {
                    let bound = TerminalQuery.boundMilliseconds
                    chosen = (.blocks, answer.answered ? "no Sixel in DA1" : "no answer within \(bound) ms")
                }
            }
        }
        // Kitty places a picture over cells by their count; Sixel and iTerm2 are drawn at a pixel size.
        guard chosen.method == .sixel || chosen.method == .iterm else {
            return PictureDetection(method: chosen.method, reason: chosen.reason)
        }
        let answered = (asked ?? (windowCell() == nil ? replies() : nil))?.cell(
            columns: window.columns, rows: window.rows)
        let cell = [answered, windowCell()].compactMap { $0 }.first(where: \.isPlausibleCell) ?? .assumed
        return PictureDetection(method: chosen.method, cell: cell, reason: chosen.reason)
    }
}
