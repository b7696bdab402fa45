import Localization
internal import Terminal

/// `:images auto|kitty|iterm|sixel|blocks`: how the page's pictures are drawn.
extension ReaderView {
    /// Draws pictures as `setting` says from the next frame, and says how they are drawn.
    func usePictures(_ setting: ImagesSetting) -> String {
        guard let cells = images as? ImageCells else {
            return tr("This terminal shows pictures as their labels: it has no colours to draw them with.")
        }
        let found = cells.use(setting)
        switch cells.method {
        case .kitty:
            return tr("Pictures are drawn with the kitty graphics protocol.")
        case .iterm:
            return tr("Pictures are drawn as iTerm2 inline images.")
        case .sixel:
            return tr(
                "Pictures are drawn as Sixel graphics, {width}×{height} pixels a cell.",
                ["width": found.cell.width, "height": found.cell.height])
        case .halfBlocks where found.method.drawsPixels:
            return tr("Chafa (Debian's libchafa0) is not installed, so pictures are drawn with half-blocks.")
        case .halfBlocks:
            return tr("Pictures are drawn with half-blocks, two pixels a cell.")
        }
    }
}
