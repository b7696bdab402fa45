/// Maps 24-bit colours to the nearest entry of the xterm 256- and 16-colour palettes.
enum ColorApproximation {
    /// The channel levels of the 6×6×6 colour cube (indices 16–231).
    private static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The usual xterm RGB values of the 16 basic colours, for the 16-colour fallback.
    private static let basic16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The palette index (16–255) nearest to the colour, from the cube or the gray ramp.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        let (ri, gi, bi) = (cubeIndex(Int(r)), cubeIndex(Int(g)), cubeIndex(Int(b)))
        let cubeColor = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let cube = 16 + 36 * ri + 6 * gi + bi

        // Gray ramp 232–255 is 8, 18, …, 238.
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grayStep = min(23, max(0, (average - 3) / 10))
        let grayLevel = 8 + 10 * grayStep
        let gray = 232 + grayStep

        let target = (Int(r), Int(g), Int(b))
        return distance(target, (grayLevel, grayLevel, grayLevel)) < distance(target, cubeColor) ? gray : cube
    }

    /// The basic palette index (0–15) nearest to the colour.
    static func nearest16(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let target = (Int(r), Int(g), Int(b))
        var best = 0
        var bestDistance = Int.max
        for (index, color) in basic16.enumerated() {
            let d = distance(target, color)
            if d < bestDistance { (best, bestDistance) = (index, d) }
        }
        return UInt8(best)
    }

    private static func cubeIndex(_ value: Int) -> Int {
        // Midpoints between the cube levels 0, 95, 135, 175, 215, 255.
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 35) / 40)
    }

    /// Squared distance, weighted roughly by how sensitive the eye is to each channel.
    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}
