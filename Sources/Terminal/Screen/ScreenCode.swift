/// Escape sequences that control the screen and cursor, for building full-screen output.
///
/// Write them with ``Screen/write(_:)``; prefer ``Screen``'s functions for the alternate
/// screen and the cursor, which also undo themselves if the process ends early.
public enum ScreenCode {
    /// Switches to the alternate screen, keeping the shell's scrollback intact.
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Returns from the alternate screen to the normal one.
    public static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// Hides the cursor.
    public static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor.
    public static let showCursor = "\u{1B}[?25h"
    /// Clears the whole screen and moves the cursor to the top left.
    public static let clearScreen = "\u{1B}[2J\u{1B}[H"
    /// Clears the line the cursor is on.
    public static let clearLine = "\u{1B}[2K"
    /// Moves the cursor to the top left.
    public static let home = "\u{1B}[H"

    /// Moves the cursor to `row` and `column`, both counted from 1.
    public static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(max(1, row));\(max(1, column))H"
    }
}
