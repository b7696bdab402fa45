import Catalog
import Foundation
import Terminal

/// How output looks here: colour or not, Unicode marks or ASCII, and how wide a line may be.
///
/// At a terminal: colour, ✓ ✗, lines fitted to the window. Piped or with `NO_COLOR`: no escape
/// codes; piped output is not truncated (a width of 0 means "no limit"). For a screen reader
/// nothing is cut either (a cut title is lost to a voice) and grids are lists.
struct Theme: Sendable {
    let caps: TerminalCapabilities
    let marks: Marks
    /// Cells per line, or 0 for no limit (piped output).
    var width: Int
    /// Lines in the window, or 0 for no limit: result pages are made to fit it.
    var height: Int

    init(caps: TerminalCapabilities, width: Int, height: Int = 0) {
        self.caps = caps
        self.marks = Marks(caps)
        self.width = caps.screenReader ? 0 : width
        self.height = height
    }

    /// Whether output is written for a screen reader (`--screen-reader`).
    var screenReader: Bool { caps.screenReader }

    /// The view results and the shelf are drawn in: `view grid` is a list for a screen reader,
    /// which reads a line at a time and would read the cards of a row across each other.
    func view(_ wanted: ViewMode) -> ViewMode { screenReader ? .list : wanted }

    /// The same theme for the window as it is now, when it follows a terminal (a width was
    /// given): the patron may have resized it since the last command.
    func resizedToTerminal() -> Theme {
        guard width > 0, isatty(STDOUT_FILENO) == 1 else { return self }
        var theme = self
        (theme.width, theme.height) = TerminalSize.current()
        return theme
    }

    /// Plain text, Unicode marks, no width limit: what scenarios and tests compare.
    static let plain = Theme(caps: .plain, width: 0)

    func paint(_ text: String, _ style: TextStyle) -> String { Ansi.paint(text, style, caps: caps) }
    func bold(_ text: String) -> String { paint(text, .bold) }
    func dim(_ text: String) -> String { paint(text, .dim) }
    func green(_ text: String) -> String { paint(text, .color(.green)) }
    func red(_ text: String) -> String { paint(text, .color(.red)) }
    func yellow(_ text: String) -> String { paint(text, .color(.yellow)) }
    func heading(_ text: String) -> String { paint(text, TextStyle(bold: true, underline: true)) }

    /// Fits `text` into the line width (minus `used` cells), when there is a limit.
    func fit(_ text: String, used: Int = 0) -> String {
        guard width > 0 else { return text }
        return DisplayWidth.truncate(text, to: max(8, width - used), ellipsis: marks.ellipsis)
    }

    /// Wraps a paragraph to the line width (80 when there is no limit), indented by `indent` cells.
    func wrap(_ text: String, indent: Int = 0) -> [String] {
        let lineWidth = width > 0 ? min(width, 100) : 80
        return DisplayWidth.wrap(text, width: max(20, lineWidth - indent)).map {
            String(repeating: " ", count: indent) + $0
        }
    }

    /// The availability mark with its words: green `✓ Available`, red `✗ all 3 copies on loan, 2 waiting`.
    func availabilityMark(_ availability: Availability?) -> String {
        AvailabilityWords(theme: self, today: DayDate(year: 1970, month: 1, day: 1), maxLoans: nil).mark(availability)
    }

    /// The direction label of a sort in this library's alphabet, with an ASCII arrow when needed.
    func sortLabel(_ spec: SortSpec, alphabet: Collation.Alphabet) -> String {
        spec.label(alphabet: alphabet, arrow: marks.arrow)
    }
}
