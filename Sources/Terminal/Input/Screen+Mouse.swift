import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Screen {
    private static let mouseReportingActive = Atomic<Bool>(false)

    /// Asks the terminal to report the mouse wheel and buttons (see ``MouseReporting``); undone
    /// by ``disableMouseReporting()``, and on exit or a fatal signal while ``RawMode`` is active.
    public static func enableMouseReporting() {
        write(MouseReporting.enable)
        mouseReportingActive.store(true, ordering: .releasing)
    }

    /// Stops mouse reports, if they are on.
    public static func disableMouseReporting() {
        guard mouseReportingActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        write(MouseReporting.disable)
    }

    /// From a signal handler or `atexit`: only an atomic and `write`.
    static func restoreMouseForExit() {
        if mouseReportingActive.exchange(false, ordering: .acquiringAndReleasing) {
            let text: StaticString = "\u{1B}[?1006l\u{1B}[?1000l"
            writeAll(STDOUT_FILENO, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }
}
