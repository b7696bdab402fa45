import MockLending

/// Paints a cover: a sky, a sea and a lighthouse, as a PNG.
enum CoverPainter {
    static func png(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(width * 3 * height)
        let horizon = height * 3 / 5
        for y in 0..<height {
            for x in 0..<width {
                var (r, g, b): (Int, Int, Int)
                if y < horizon {
                    let t = y * 255 / horizon
                    (r, g, b) = (250 - t / 3, 200 - t / 4, 120 + t / 2)
                } else {
                    let t = (y - horizon) * 255 / (height - horizon)
                    (r, g, b) = (30, 70 + t / 5, 120 - t / 4)
                }
                let tower = abs(x - width * 2 / 3) < 8 && y > horizon - height / 4 && y < horizon + 4
                if tower {
                    (r, g, b) = (
                        (y / 12) % 2 == 0 ? 235 : 200, (y / 12) % 2 == 0 ? 235 : 40, (y / 12) % 2 == 0 ? 230 : 40
                    )
                }
                raw += [UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b)]
            }
        }
        return PNGEncoder.encode(width: width, height: height, rgb: raw)
    }
}
