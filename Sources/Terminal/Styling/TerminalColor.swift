/// A foreground or background colour: one of the named terminal colours, or an RGB value.
///
/// Named colours use the 16-colour codes at every depth so that they follow the user's
/// terminal theme; RGB values are sent as 24-bit colour where the terminal has it and
/// otherwise approximated by the nearest colour of the 256- or 16-colour palette.
public enum TerminalColor: Sendable, Hashable {
    /// Black (SGR 30).
    case black
    /// Red (SGR 31), for errors and unavailable items.
    case red
    /// Green (SGR 32), for success and available items.
    case green
    /// Yellow (SGR 33), for warnings and waiting lists.
    case yellow
    /// Blue (SGR 34).
    case blue
    /// Magenta (SGR 35).
    case magenta
    /// Cyan (SGR 36).
    case cyan
    /// White (SGR 37).
    case white
    /// Gray, the "bright black" of the palette (SGR 90), for secondary text.
    case gray
    /// A 24-bit colour, approximated on terminals with fewer colours.
    case rgb(UInt8, UInt8, UInt8)

    /// The 16-colour palette index (0–15) of a named colour, or `nil` for RGB.
    var paletteIndex: UInt8? {
        switch self {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .gray: 8
        case .rgb: nil
        }
    }

    /// The SGR parameters selecting this colour at `depth`, or `nil` when `depth` is `.none`.
    /// - Parameter background: Whether the colour is for the background instead of the text.
    func sgrParameters(depth: ColorDepth, background: Bool) -> String? {
        guard depth != .none else { return nil }
        let index: UInt8
        switch self {
        case .rgb(let r, let g, let b):
            switch depth {
            case .none:
                return nil
            case .trueColor:
                return "\(background ? 48 : 38);2;\(r);\(g);\(b)"
            case .ansi256:
                return "\(background ? 48 : 38);5;\(ColorApproximation.nearest256(r, g, b))"
            case .ansi16:
                index = ColorApproximation.nearest16(r, g, b)
            }
        default:
            index = paletteIndex ?? 7
        }
        // 0–7 are 30–37 (40–47); the bright half 8–15 is 90–97 (100–107).
        let base = (index < 8 ? 30 : 90) + (background ? 10 : 0)
        return String(base + Int(index % 8))
    }
}
