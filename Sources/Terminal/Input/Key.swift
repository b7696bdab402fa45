/// A key press or mouse event read from a terminal in raw mode.
public enum Key: Sendable, Hashable {
    /// A printable character (letters, digits, punctuation, space, any script).
    case character(Character)
    /// A letter typed with Ctrl held (`ctrl("c")` is Ctrl-C); the letter is lower case.
    case ctrl(Character)
    case up, down, left, right
    case pageUp, pageDown
    case home, end
    case insert, delete
    /// Return or Enter.
    case enter
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// Escape pressed on its own.
    case escape
    /// A function key, F1 to F12.
    case function(Int)
    /// The mouse wheel turned up (away from the user), with the cell where the pointer was.
    case wheelUp(row: Int, column: Int)
    /// The mouse wheel turned down.
    case wheelDown(row: Int, column: Int)
    /// A mouse button pressed (0 left, 1 middle, 2 right) at a cell.
    case mousePress(button: Int, row: Int, column: Int)
    /// An escape sequence the decoder does not know, kept for debugging.
    case unknown(String)
}
