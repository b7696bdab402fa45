import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to the terminal's screen and remembers what it changed, so the change can be undone.
///
/// If the alternate screen is on or the cursor hidden when the process exits or is killed
/// while ``RawMode`` is active, the exit path shows the cursor and leaves the alternate screen.
public enum Screen {
    private static let alternateScreenActive = Atomic<Bool>(false)
    private static let cursorHidden = Atomic<Bool>(false)

    /// Switches to the alternate screen (the shell's screen comes back on leaving).
    public static func enterAlternateScreen() {
        write(ScreenCode.enterAlternateScreen)
        alternateScreenActive.store(true, ordering: .releasing)
    }

    /// Returns to the normal screen, if the alternate screen is on.
    public static func leaveAlternateScreen() {
        guard alternateScreenActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        write(ScreenCode.leaveAlternateScreen)
    }

    /// Hides the cursor.
    public static func hideCursor() {
        write(ScreenCode.hideCursor)
        cursorHidden.store(true, ordering: .releasing)
    }

    /// Shows the cursor, if it was hidden.
    public static func showCursor() {
        guard cursorHidden.exchange(false, ordering: .acquiringAndReleasing) else { return }
        write(ScreenCode.showCursor)
    }

    /// Writes `text` to standard output at once, after anything `print` has buffered.
    public static func write(_ text: String) {
        fflush(nil)  // keep the order with buffered `print` output
        var text = text
        text.withUTF8 { writeAll(STDOUT_FILENO, $0) }
    }

    /// Undoes the screen changes from a signal handler or `atexit`: only atomics and `write`.
    static func restoreForExit() {
        restoreMouseForExit()
        if cursorHidden.exchange(false, ordering: .acquiringAndReleasing) {
            writeAll(STDOUT_FILENO, "\u{1B}[?25h")
        }
        if alternateScreenActive.exchange(false, ordering: .acquiringAndReleasing) {
            writeAll(STDOUT_FILENO, "\u{1B}[?1049l")
        }
    }

    private static func writeAll(_ fd: Int32, _ text: StaticString) {
        writeAll(fd, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes every byte, retrying after interruptions and short writes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(fd, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            next += written
            remaining -= written
        }
    }
}

/// `write(2)`, named apart from ``Screen/write(_:)`` which would shadow it inside `Screen`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
    #else
    Darwin.write(fd, bytes, count)
    #endif
}
