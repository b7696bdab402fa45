internal import Terminal

/// The colours of the reading view for a theme and brightness.
///
/// Page colours are RGB, sent as 24-bit colour where the terminal has it and approximated
/// (by ``TerminalColor``) on 256- and 16-colour terminals; without colour only attributes remain.
struct ReaderPalette {
    /// Ordinary text on the page.
    let text: TextStyle
    /// Notes, rules, image labels: quieter text.
    let quiet: TextStyle
    /// The status line.
    let status: TextStyle
    /// Overlay panels (help, contents, lists).
    let panel: TextStyle
    /// The selected row of a panel.
    let selection: TextStyle
    /// Links and note references.
    let link: TerminalColor
    let background: TerminalColor
    let foreground: TerminalColor

    /// The page colour as RGB, for compositing transparent pictures.
    var backgroundRGB: (UInt8, UInt8, UInt8) {
        if case .rgb(let r, let g, let b) = background { return (r, g, b) }
        return (255, 255, 255)
    }

    init(theme: ReaderPreferences.Theme, brightness: Int) {
        let (background, foreground, quietColor, linkColor):
            ((Int, Int, Int), (Int, Int, Int), (Int, Int, Int), (Int, Int, Int))
        switch theme {
        case .day:
            (background, foreground, quietColor, linkColor) = (
                (250, 250, 246), (28, 28, 30), (110, 110, 110), (30, 80, 170)
            )
        case .night:
            (background, foreground, quietColor, linkColor) = (
                (22, 22, 26), (205, 203, 196), (130, 130, 130), (120, 170, 240)
            )
        case .sepia:
            (background, foreground, quietColor, linkColor) = (
                (244, 235, 213), (80, 60, 40), (140, 120, 95), (150, 80, 30)
            )
        }
        // Each step moves the page and text lighter or darker together, keeping the contrast.
        let step = 9 * brightness
        func shift(_ c: (Int, Int, Int), _ by: Int) -> TerminalColor {
            func clamp(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v + by))) }
            return .rgb(clamp(c.0), clamp(c.1), clamp(c.2))
        }
        self.background = shift(background, step)
        self.foreground = shift(foreground, step)
        self.link = shift(linkColor, step)
        text = TextStyle(foreground: self.foreground, background: self.background)
        quiet = TextStyle(foreground: shift(quietColor, step), background: self.background)
        let statusBackground =
            theme == .night
            ? shift((45, 45, 52), step) : shift((background.0 - 22, background.1 - 22, background.2 - 22), step)
        status = TextStyle(foreground: self.foreground, background: statusBackground)
        panel = TextStyle(
            foreground: self.foreground,
            background: theme == .night ? shift((38, 38, 46), step) : shift((235, 233, 226), step))
        selection = TextStyle(foreground: self.background, background: self.foreground, bold: true)
    }

    /// The background of a highlight colour on this page.
    func highlight(_ color: HighlightColor, night: Bool) -> TerminalColor {
        switch (color, night) {
        case (.yellow, false): .rgb(255, 236, 140)
        case (.green, false): .rgb(190, 235, 180)
        case (.blue, false): .rgb(185, 215, 250)
        case (.pink, false): .rgb(250, 195, 215)
        case (.purple, false): .rgb(215, 195, 245)
        case (.yellow, true): .rgb(110, 95, 20)
        case (.green, true): .rgb(40, 90, 45)
        case (.blue, true): .rgb(35, 65, 110)
        case (.pink, true): .rgb(105, 40, 70)
        case (.purple, true): .rgb(75, 50, 110)
        }
    }
}
