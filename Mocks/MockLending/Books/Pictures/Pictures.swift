/// The pictures of a book: its cover and its illustrations, drawn from its palette.
enum Pictures {
    /// The cover: a background gradient, a pattern chosen per book and a blank title plate.
    ///
    /// The cover carries no lettering (that would need a font); the title page says the title.
    static func cover(palette: Palette, _ rng: inout SplitMix64) -> [UInt8] {
        let width = 400
        let height = 600
        var canvas = Canvas(width: width, height: height, background: palette.top)
        canvas.verticalGradient(palette.top, palette.bottom)
        switch rng.below(4) {
        case 0:  // rings around a point low on the cover
            let cx = rng.int(in: 60...340)
            let cy = rng.int(in: 330...520)
            var radius = 420
            var odd = false
            while radius > 12 {
                let inner = max(0, radius - rng.int(in: 18...40))
                canvas.fillRing(
                    cx: cx, cy: cy, outer: radius, inner: inner,
                    odd ? palette.accent.shaded(0.1) : palette.accent.shaded(-0.15))
                radius = inner
                odd.toggle()
            }
        case 1:  // diagonal stripes over the lower part
            let period = rng.int(in: 30...70)
            canvas.diagonalStripes(
                x: 0, y: 240, width: width, height: height - 240, period: period,
                band: period / 2, palette.accent)
        case 2:  // a sun over hills, three layers of them
            canvas.fillCircle(
                cx: rng.int(in: 80...320), cy: rng.int(in: 280...360), radius: rng.int(in: 40...70), palette.light)
            for layer in 0..<3 {
                canvas.fillWave(
                    baseline: 420 + layer * 55, amplitude: Double(rng.int(in: 12...35)),
                    period: Double(rng.int(in: 180...420)), phase: rng.unit() * 6.28,
                    palette.accent.mixed(with: palette.second, Double(layer) / 3).shaded(-0.1 * Double(layer)))
            }
        default:  // a grid of squares in two shades
            let cell = rng.int(in: 3...6) * 10
            var row = 0
            var y = 240
            while y < height {
                var x = (row % 2) * cell
                while x < width {
                    canvas.fillRect(
                        x: x + 3, y: y + 3, width: cell - 6, height: cell - 6,
                        rng.chance(0.5) ? palette.accent : palette.second)
                    x += cell * 2
                }
                y += cell
                row += 1
            }
        }
        // The title plate, with a thin accent rule under it.
        canvas.fillRect(x: 40, y: 60, width: width - 80, height: 140, palette.light)
        canvas.fillRect(x: 40, y: 200, width: width - 80, height: 6, palette.accent)
        return PNGEncoder.encode(canvas)
    }

    /// A colour a picture can name: its RGB and its names (the Swedish neuter form, for `ett rött hus`).
    struct NamedColour {
        let rgb: RGB
        let swedish: String
        let english: String
    }

    static let houseColours = [
        NamedColour(rgb: RGB(190, 45, 40), swedish: "rött", english: "red"),
        NamedColour(rgb: RGB(235, 195, 60), swedish: "gult", english: "yellow"),
        NamedColour(rgb: RGB(70, 110, 190), swedish: "blått", english: "blue"),
        NamedColour(rgb: RGB(90, 160, 90), swedish: "grönt", english: "green"),
    ]

    /// A drawing of a house, a tree and perhaps a sun on hills, with the alt text that says so.
    static func scene(
        palette: Palette, language: Story.Language, _ rng: inout SplitMix64
    ) -> (png: [UInt8], alt: String) {
        let width = 480
        let height = 320
        let night = rng.chance(0.2)
        var canvas = Canvas(width: width, height: height, background: .white)
        canvas.verticalGradient(
            night ? RGB(20, 30, 70) : RGB(120, 190, 240), night ? RGB(70, 80, 130) : RGB(220, 240, 255), to: 240)
        let hasSun = rng.chance(0.8)
        let sunX = rng.int(in: 60...420)
        if hasSun {
            canvas.fillCircle(cx: sunX, cy: 60, radius: 32, night ? RGB(240, 240, 220) : RGB(255, 210, 60))
        }
        canvas.fillWave(
            baseline: 240, amplitude: 14, period: Double(rng.int(in: 300...600)), phase: rng.unit() * 6.28,
            night ? RGB(40, 80, 50) : RGB(110, 180, 90))
        let colour = rng.pick(houseColours)
        let houseX = rng.int(in: 40...250)
        canvas.fillRect(x: houseX, y: 180, width: 120, height: 90, colour.rgb)
        canvas.fillTriangle(
            left: houseX - 12, right: houseX + 132, baseY: 180, apexX: houseX + 60, apexY: 120, RGB(90, 60, 50))
        canvas.fillRect(x: houseX + 50, y: 225, width: 24, height: 45, RGB(70, 45, 30))  // door
        let window = night ? RGB(255, 220, 120) : RGB(230, 240, 250)
        canvas.fillRect(x: houseX + 14, y: 200, width: 24, height: 22, window)
        canvas.fillRect(x: houseX + 86, y: 200, width: 24, height: 22, window)
        let trees = rng.int(in: 1...3)
        var treeX = houseX + 170
        var treeCount = 0
        for _ in 0..<trees where treeX < width - 30 {
            treeCount += 1
            canvas.fillRect(x: treeX - 6, y: 200, width: 12, height: 70, RGB(100, 70, 40))
            canvas.fillCircle(
                cx: treeX, cy: 185, radius: rng.int(in: 26...38), palette.second.mixed(with: RGB(50, 130, 60), 0.6))
            treeX += rng.int(in: 70...100)
        }
        let alt: String
        switch language {
        case .swedish:
            let treeText = treeCount == 1 ? "ett träd" : treeCount == 2 ? "två träd" : "tre träd"
            let sky =
                night
                ? (hasSun ? " under månen en stjärnklar natt" : " en mörk natt")
                : (hasSun ? " under en gul sol" : " en molnfri dag")
            alt = "En teckning av ett \(colour.swedish) hus med \(treeText) bredvid\(sky)."
        case .english:
            let treeText = treeCount == 1 ? "a tree" : treeCount == 2 ? "two trees" : "three trees"
            let sky =
                night
                ? (hasSun ? " under the moon on a starry night" : " on a dark night")
                : (hasSun ? " under a yellow sun" : " on a cloudless day")
            alt = "A drawing of a \(colour.english) house with \(treeText) beside it\(sky)."
        }
        return (PNGEncoder.encode(canvas), alt)
    }

    /// A bar chart of `values`, one bar per value, in the palette's colours.
    static func barChart(values: [Int], palette: Palette) -> [UInt8] {
        let width = 480
        let height = 320
        var canvas = Canvas(width: width, height: height, background: RGB(252, 252, 250))
        let top = max(1, values.max() ?? 1)
        let slot = (width - 60) / max(1, values.count)
        canvas.fillRect(x: 40, y: 20, width: 2, height: 270, RGB(60, 60, 60))  // axes
        canvas.fillRect(x: 40, y: 288, width: width - 60, height: 2, RGB(60, 60, 60))
        for step in 1...4 {  // grid lines
            canvas.fillRect(x: 42, y: 288 - step * 64, width: width - 62, height: 1, RGB(215, 215, 215))
        }
        for (index, value) in values.enumerated() {
            let barHeight = max(2, value * 256 / top)
            canvas.fillRect(
                x: 52 + index * slot, y: 288 - barHeight, width: max(4, slot - 16), height: barHeight,
                index % 2 == 0 ? palette.accent : palette.second)
        }
        return PNGEncoder.encode(canvas)
    }
}
