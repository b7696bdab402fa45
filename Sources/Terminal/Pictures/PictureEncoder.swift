internal import CChafa

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes pixels as the escape sequences a terminal draws them from (Sixel, iTerm2's inline
/// images, kitty's graphics protocol), with Chafa, loaded the first time a picture is encoded.
public enum PictureEncoder {
    /// Whether Chafa is installed (Debian's libchafa0); loads it on the first call.
    public static var isAvailable: Bool { bok_chafa_load() == 1 }

    /// The bytes that draw `width × height` RGBA pixels over `columns × rows` cells of `cell`
    /// pixels at the cursor, or nil when Chafa is missing or the method draws no pixels.
    ///
    /// The picture is stretched to the cells' pixels: give it their shape. A Sixel picture's
    /// height is a multiple of six pixels, rounded down.
    public static func encode(
        rgba: [UInt8], width: Int, height: Int, columns: Int, rows: Int, cell: PixelSize, as method: PictureProtocol
    ) -> [UInt8]? {
        let mode: bok_chafa_mode
        switch method {
        case .sixel: mode = BOK_CHAFA_SIXEL
        case .kitty: mode = BOK_CHAFA_KITTY
        case .iterm: mode = BOK_CHAFA_ITERM2
        case .blocks, .off: return nil
        }
        guard rgba.count >= width * height * 4 else { return nil }
        var length = 0
        let encoded = rgba.withUnsafeBufferPointer {
            bok_chafa_encode(
                $0.baseAddress, Int32(width), Int32(height), Int32(width * 4), Int32(columns), Int32(rows),
                Int32(cell.width), Int32(cell.height), mode, &length)
        }
        guard let encoded else { return nil }
        defer { free(encoded) }
        return encoded.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
