public import Foundation

/// A size in pixels: of one character cell (what a picture of so many cells is drawn at), or of
/// the window's text area.
public struct PixelSize: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size; both must be at least one pixel.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// Taken when the terminal says nothing: the cell of a common 10-point monospace font.
    public static let assumed = PixelSize(width: 10, height: 20)

    /// Whether this is a cell size a terminal may really have: a larger one (a wrong or hostile
    /// answer) would make every picture a huge one to encode and send.
    public var isPlausibleCell: Bool { (2...200).contains(width) && (4...400).contains(height) }

    /// The cell size the kernel knows for the terminal on `fd` (`TIOCGWINSZ`'s `ws_xpixel`,
    /// which many terminal emulators fill in), or nil.
    public static func fromWindowSize(fd: Int32 = STDOUT_FILENO) -> PixelSize? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0,
            size.ws_ypixel > 0
        else { return nil }
        return PixelSize(
            width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
    }
}
