/// The few colours one book's cover and illustrations share.
struct Palette: Sendable {
    /// Top and bottom of the cover's background.
    var top: RGB
    var bottom: RGB
    /// The cover's pattern and the illustrations' main objects.
    var accent: RGB
    /// A second, contrasting accent.
    var second: RGB
    /// The title plate and highlights.
    var light: RGB

    /// A palette for a kind of book: dark blues for crime, greens and gold for fantasy, bright
    /// colours for children, sepia for lives, clean blues for facts, pastels for poems.
    static func make(for kind: BookKind, _ rng: inout SplitMix64) -> Palette {
        let bases: [Palette]
        switch kind {
        case .crime:
            bases = [
                Palette(
                    top: RGB(22, 33, 52), bottom: RGB(70, 90, 110), accent: RGB(180, 40, 45),
                    second: RGB(200, 205, 210), light: RGB(235, 232, 225)),
                Palette(
                    top: RGB(15, 15, 20), bottom: RGB(60, 70, 80), accent: RGB(220, 170, 60),
                    second: RGB(120, 140, 150), light: RGB(240, 238, 230)),
                Palette(
                    top: RGB(40, 55, 60), bottom: RGB(120, 140, 145), accent: RGB(30, 30, 35), second: RGB(190, 60, 40),
                    light: RGB(230, 235, 235)),
            ]
        case .fantasy:
            bases = [
                Palette(
                    top: RGB(30, 60, 45), bottom: RGB(110, 150, 100), accent: RGB(210, 170, 60),
                    second: RGB(80, 40, 100), light: RGB(245, 235, 200)),
                Palette(
                    top: RGB(45, 25, 70), bottom: RGB(140, 100, 160), accent: RGB(230, 190, 80),
                    second: RGB(40, 110, 100), light: RGB(240, 230, 245)),
            ]
        case .children:
            bases = [
                Palette(
                    top: RGB(120, 200, 240), bottom: RGB(210, 240, 255), accent: RGB(230, 60, 50),
                    second: RGB(80, 170, 70), light: RGB(255, 250, 220)),
                Palette(
                    top: RGB(255, 210, 120), bottom: RGB(255, 240, 200), accent: RGB(60, 120, 200),
                    second: RGB(240, 110, 150), light: RGB(255, 255, 240)),
            ]
        case .biography:
            bases = [
                Palette(
                    top: RGB(110, 85, 60), bottom: RGB(210, 190, 160), accent: RGB(60, 45, 35),
                    second: RGB(160, 70, 50), light: RGB(245, 238, 225))
            ]
        case .facts:
            bases = [
                Palette(
                    top: RGB(20, 90, 130), bottom: RGB(150, 200, 220), accent: RGB(250, 180, 40),
                    second: RGB(40, 150, 120), light: RGB(250, 250, 250)),
                Palette(
                    top: RGB(40, 110, 70), bottom: RGB(190, 220, 180), accent: RGB(200, 80, 40),
                    second: RGB(60, 90, 160), light: RGB(250, 250, 245)),
            ]
        case .poetry:
            bases = [
                Palette(
                    top: RGB(200, 190, 220), bottom: RGB(250, 235, 230), accent: RGB(120, 90, 150),
                    second: RGB(220, 150, 160), light: RGB(255, 252, 248)),
                Palette(
                    top: RGB(180, 215, 210), bottom: RGB(245, 245, 235), accent: RGB(60, 110, 120),
                    second: RGB(230, 190, 120), light: RGB(255, 255, 250)),
            ]
        case .family:
            bases = [
                Palette(
                    top: RGB(150, 60, 50), bottom: RGB(240, 200, 160), accent: RGB(60, 90, 60),
                    second: RGB(250, 220, 120), light: RGB(252, 246, 235)),
                Palette(
                    top: RGB(70, 100, 150), bottom: RGB(230, 215, 190), accent: RGB(190, 90, 60),
                    second: RGB(240, 230, 160), light: RGB(250, 248, 240)),
                Palette(
                    top: RGB(90, 120, 80), bottom: RGB(240, 230, 200), accent: RGB(170, 60, 90),
                    second: RGB(250, 200, 100), light: RGB(255, 250, 240)),
            ]
        }
        var palette = rng.pick(bases)
        // A small shift per book, so that two crime novels are not the same two blues.
        let shift = rng.unit() * 0.3 - 0.15
        palette.top = palette.top.shaded(shift)
        palette.bottom = palette.bottom.shaded(shift / 2)
        palette.accent = palette.accent.mixed(with: palette.second, rng.unit() * 0.25)
        return palette
    }
}
