extension RasterImage {
    /// The image at the top left of a `width × height` picture of `background` (cut where it is larger).
    func placed(onWidth newWidth: Int, height newHeight: Int, background: (UInt8, UInt8, UInt8)) -> RasterImage {
        if newWidth == width, newHeight == height { return self }
        var output = [UInt8](repeating: 255, count: newWidth * newHeight * 4)
        for index in stride(from: 0, to: output.count, by: 4) {
            output[index] = background.0
            output[index + 1] = background.1
            output[index + 2] = background.2
        }
        let rowBytes = min(width, newWidth) * 4
        for y in 0..<min(height, newHeight) {
            output.replaceSubrange(
                (y * newWidth * 4)..<(y * newWidth * 4 + rowBytes),
                with: pixels[(y * width * 4)..<(y * width * 4 + rowBytes)])
        }
        return RasterImage(width: newWidth, height: newHeight, pixels: output)
    }
}
