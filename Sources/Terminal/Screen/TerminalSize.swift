public import Foundation

/// The size of the terminal window in character cells.
public enum TerminalSize {
    /// The window size as columns and rows.
    ///
    /// Asks the terminal (`TIOCGWINSZ`) on `fd`; when that is not a terminal (piped output)
    /// uses the `COLUMNS` and `LINES` environment variables, and otherwise 80×24.
    /// - Parameters:
    ///   - fd: The terminal to ask; standard output by default.
    ///   - environment: Where `COLUMNS` and `LINES` are looked up; by default the process's,
    ///     read only when the terminal does not answer (making its dictionary takes a tenth of a
    ///     millisecond, and the size is asked for several times before a first page).
    public static func current(
        fd: Int32 = STDOUT_FILENO,
        environment: [String: String]? = nil
    ) -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return fallback(environment: environment ?? ProcessInfo.processInfo.environment)
    }

    /// The size from `COLUMNS` and `LINES`, each defaulting to 80 and 24.
    static func fallback(environment: [String: String]) -> (columns: Int, rows: Int) {
        func positive(_ name: String) -> Int? {
            guard let text = environment[name]?.trimmingCharacters(in: .whitespaces),
                let value = Int(text), value > 0
            else { return nil }
            return value
        }
        return (positive("COLUMNS") ?? 80, positive("LINES") ?? 24)
    }
}
