/// How a picture reaches the screen: one of the graphics protocols terminals draw real pixels
/// with, half-block characters (two pixels a cell, in any terminal with 256 colours), or not at
/// all (the picture's label).
public enum PictureProtocol: String, Sendable, Hashable, CaseIterable {
    /// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, Konsole, VS Code).
    case iterm
    /// DEC Sixel (xterm -ti vt340, foot, mlterm, WezTerm, Windows Terminal, VS Code).
    case sixel
    /// Upper half-blocks `▀` in two colours: the fallback that always works.
    case blocks
    /// No pictures: their labels (`[image: …]`).
    case off

    /// Whether the terminal draws the picture's pixels itself (not text cells).
    public var drawsPixels: Bool {
        switch self {
        case .kitty, .iterm, .sixel: true
        case .blocks, .off: false
        }
    }
}

/// `images = auto|kitty|iterm|sixel|blocks|off` in the config file and `:images` in the reader:
/// how pictures are drawn. `auto`, the default, asks the terminal (``PictureDetection``).
public enum ImagesSetting: Sendable, Hashable {
    case auto
    /// This way, whatever the terminal says (except where graphics are never written).
    case forced(PictureProtocol)

    /// Every value, as the config file takes them.
    public static let all: [ImagesSetting] = [.auto] + PictureProtocol.allCases.map { .forced($0) }

    /// The values as the config file takes them: `auto|kitty|iterm|sixel|blocks|off`.
    public static var choices: String { all.map(\.configValue).joined(separator: "|") }

    /// The setting as written in a config file: `auto`, `kitty`, `iterm` (or `iterm2`), `sixel`,
    /// `blocks` (or `halfblocks`), `off`.
    public init?(configValue: String) {
        switch configValue.lowercased() {
        case "auto": self = .auto
        case "iterm2": self = .forced(.iterm)
        case "halfblocks", "half-blocks": self = .forced(.blocks)
        case let word:
            guard let chosen = PictureProtocol(rawValue: word) else { return nil }
            self = .forced(chosen)
        }
    }

    /// The word the config file and `:images` take for this setting.
    public var configValue: String {
        switch self {
        case .auto: "auto"
        case .forced(let chosen): chosen.rawValue
        }
    }
}
