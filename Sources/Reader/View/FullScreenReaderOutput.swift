internal import Terminal

/// The reader drawn full-screen: the alternate screen, a hidden cursor and mouse reports; each
/// frame in one write, only the rows that changed.
final class FullScreenReaderOutput: ReaderOutput {
    private let capabilities: TerminalCapabilities
    private var previousFrame: [String] = []

    init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
    }

    /// BDSM (ECMA-48, and the terminal BiDi proposal VTE and Konsole follow): the reader puts
    /// right-to-left lines in display order itself (``BidiParagraph``), so while it draws, a
    /// terminal that reorders text of its own accord is asked not to (explicit mode), and is
    /// set back to its default (implicit) on leaving. Terminals without bidi ignore both.
    static let explicitBidi = "\u{1B}[8l"
    static let implicitBidi = "\u{1B}[8h"

    func take() {
        Screen.enterAlternateScreen()
        Screen.write(Self.explicitBidi)
        Screen.hideCursor()
        Screen.enableMouseReporting()
        previousFrame = []
    }

    func giveBack() {
        Screen.disableMouseReporting()
        Screen.write(Ansi.reset)
        Screen.showCursor()
        Screen.write(Self.implicitBidi)
        Screen.leaveAlternateScreen()
    }

    func forget() { previousFrame = [] }

    func draw(_ view: ReaderView) {
        let frame = view.frameWithOverlays()
        let rows = frame.rows.map { $0.rendered(capabilities) }
        var output = ""
        let full = previousFrame.count != rows.count
        for (index, row) in rows.enumerated() where full || previousFrame[index] != row {
            output += ScreenCode.moveTo(row: index + 1, column: 1) + row
        }
        let overlays = frame.overlays.map { ScreenCode.moveTo(row: $0.row + 1, column: $0.column + 1) + $0.code }
            .joined()
        if !output.isEmpty, (view.images as? ImageCells)?.method == .kitty {
            // Pictures sit above the text: take the old ones away, then place this frame's.
            output = kittyDeleteAll + output + overlays
        }
        previousFrame = rows
        guard !output.isEmpty else { return }
        Screen.write(output + Ansi.reset)
    }
}
