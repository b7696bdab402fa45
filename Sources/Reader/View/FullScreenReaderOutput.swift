internal import Terminal

/// The reader drawn full-screen: the alternate screen, a hidden cursor and mouse reports; each
/// frame in one write, only the rows that changed.
///
/// Pictures in a graphics protocol are written after the text, over the blank cells the page
/// keeps for them, and written again whenever the text under them is (on every redraw that
/// touches them). Text written over a Sixel or iTerm2 picture's cells is what removes it, so the
/// rows of a picture that goes (a page turn, a panel, a new size) are written again; kitty's
/// pictures sit above the text and are deleted by code.
final class FullScreenReaderOutput: ReaderOutput {
    private let capabilities: TerminalCapabilities
    private var previousFrame: [String] = []
    private var previousOverlays: [FrameOverlay] = []
    /// Whether kitty pictures may be on screen, to delete on leaving.
    private var placedKitty = false

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
        if placedKitty { Screen.write(kittyDeleteAll) }
        placedKitty = false
        Screen.disableMouseReporting()
        Screen.write(Ansi.reset)
        Screen.showCursor()
        Screen.write(Self.implicitBidi)
        Screen.leaveAlternateScreen()
    }

    func forget() {
        previousFrame = []
        previousOverlays = []
    }

    func draw(_ view: ReaderView) {
        let frame = view.frameWithOverlays()
        let rows = frame.rows.map { $0.rendered(capabilities) }
        let full = previousFrame.count != rows.count
        let picturesMoved = frame.overlays != previousOverlays
        // The rows of pictures that go or move are written again, which takes them off the screen.
        let uncovered = picturesMoved ? Set(previousOverlays.flatMap(\.covered)) : []
        var output = ""
        var written = Set<Int>()
        for (index, row) in rows.enumerated()
        where full || previousFrame[index] != row || uncovered.contains(index) {
            output += ScreenCode.moveTo(row: index + 1, column: 1) + row
            written.insert(index)
        }
        let overlays = frame.overlays.map { ScreenCode.moveTo(row: $0.row + 1, column: $0.column + 1) + $0.code }
            .joined()
        // Only a page that has pictures has decided how they are drawn (and asked the terminal).
        let method = (view.images as? ImageCells)?.decidedMethod
        if method == .kitty, !output.isEmpty || picturesMoved {
            // Pictures sit above the text: take the old ones away, then place this frame's.
            output = kittyDeleteAll + output + overlays
            placedKitty = true
        } else if method == .sixel || method == .iterm,
            picturesMoved || frame.overlays.contains(where: { $0.covered.contains(where: written.contains) })
        {
            // Text written over a picture's cells covers it: the pictures go on again, after the text.
            output += overlays
        }
        previousFrame = rows
        previousOverlays = frame.overlays
        guard !output.isEmpty else { return }
        Screen.write(output + Ansi.reset)
    }
}
