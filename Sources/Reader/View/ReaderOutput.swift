/// How the reader's view reaches the terminal: drawn as frames on the alternate screen
/// (``FullScreenReaderOutput``), or for a screen reader written once as lines of words
/// (``LinearReaderOutput``). ``ReaderTerminal`` runs the keys and the loop for either.
protocol ReaderOutput: AnyObject {
    /// Takes the terminal for the reader, once raw mode is on (and again after `fg`).
    func take()
    /// Gives the terminal back as it was: on quitting, and before the process stops (Ctrl-Z).
    func giveBack()
    /// Writes what the view shows now that the terminal does not have yet, in one write.
    func draw(_ view: ReaderView)
    /// Forgets what the terminal has: the next draw writes all of it (Ctrl-L, a new size, after `fg`).
    func forget()
    /// A key was handled: what it said is new, even when it says what the key before said.
    func keyHandled()
}

extension ReaderOutput {
    func keyHandled() {}
}
