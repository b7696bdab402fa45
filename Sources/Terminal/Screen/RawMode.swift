#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw terminal input for full-screen views: every key arrives at once, nothing is echoed.
///
/// Line buffering, echo, signal keys (Ctrl-C arrives as byte 3), flow control and CR→NL
/// translation are off; output processing stays on so that `"\n"` still starts a new line.
/// The previous settings come back with ``leave()``, and also when the process exits or is
/// ended by SIGINT, SIGTERM, SIGHUP or SIGQUIT (which also shows the cursor and leaves the
/// alternate screen if ``Screen`` changed them).
public enum RawMode {
    /// Whether raw mode (or a ``LineEditor/readSecret(prompt:)`` prompt) is in force.
    public static var isActive: Bool { TerminalModeGuard.isEngaged }

    /// Puts the terminal on `fd` (standard input by default) into raw mode; does nothing if it already is.
    /// - Throws: ``TerminalError`` when `fd` is not a terminal or its settings cannot be changed.
    public static func enter(fd: Int32 = 0) throws(TerminalError) {
        switch TerminalModeGuard.engage(fd: fd, configure: makeRaw) {
        case .engaged, .alreadyEngaged:
            return
        case .failed(let error):
            throw error
        }
    }

    /// Raw mode again over whatever the terminal has now (a shell may have changed it while the
    /// process was stopped), in one step, so that no moment in between has other settings; enters
    /// it when it is not in force.
    /// - Throws: ``TerminalError`` as ``enter(fd:)`` does.
    public static func reapply(fd: Int32 = 0) throws(TerminalError) {
        guard !TerminalModeGuard.reconfigure(makeRaw) else { return }
        try enter(fd: fd)
    }

    /// Restores the settings from before ``enter(fd:)``.
    public static func leave() {
        TerminalModeGuard.release()
    }

    /// Runs `body` in raw mode and restores the terminal however `body` ends.
    /// - Throws: ``TerminalError`` if raw mode cannot be entered, or what `body` throws.
    public static func run<T>(fd: Int32 = 0, _ body: () throws -> T) throws -> T {
        let alreadyActive = isActive
        try enter(fd: fd)
        // Only the call that entered raw mode leaves it, so nested runs keep the outer mode.
        defer { if !alreadyActive { leave() } }
        return try body()
    }

    /// The raw settings, like `cfmakeraw` but keeping output processing.
    static func makeRaw(_ settings: inout termios) {
        settings.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        settings.c_cflag |= tcflag_t(CS8)
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1  // a read returns as soon as one byte is there
            cc[Int(VTIME)] = 0
        }
    }
}
