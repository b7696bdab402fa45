import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal back if the reader crashes (a trap, a bad access, an abort).
///
/// ``Terminal/RawMode`` already restores on exit and on SIGINT, SIGTERM, SIGHUP and SIGQUIT; a
/// crash arrives as SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE or SIGABRT, which it does not
/// watch. These handlers write the codes that leave the alternate screen, show the cursor and
/// stop mouse reports, restore the settings saved before raw mode, put the previous handler
/// back (Swift's backtracer, say, which then reports the crash on the normal screen) and let
/// the signal go on to it.
enum CrashGuard {
    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

    /// What the handlers need, allocated once and never freed while installed: a signal
    /// handler may read it but not lock or allocate.
    struct Saved {
        var fd: Int32
        var settings: termios
        var previous: (sigaction, sigaction, sigaction, sigaction, sigaction, sigaction)
    }

    /// Bit pattern of an `UnsafeMutablePointer<Saved>`, or 0.
    private static let saved = Atomic<Int>(0)

    /// Saves the terminal's settings and the current handlers, and installs ours.
    static func install(fd: Int32) {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return }
        let pointer = UnsafeMutablePointer<Saved>.allocate(capacity: 1)
        pointer.initialize(
            to: Saved(
                fd: fd, settings: settings,
                previous: (sigaction(), sigaction(), sigaction(), sigaction(), sigaction(), sigaction())))
        withUnsafeMutableBytes(of: &pointer.pointee.previous) { raw in
            let actions = raw.bindMemory(to: sigaction.self)
            for (slot, signal) in signals.enumerated() { sigaction(signal, nil, &actions[slot]) }
        }
        guard
            saved.compareExchange(expected: 0, desired: Int(bitPattern: pointer), ordering: .acquiringAndReleasing)
                .exchanged
        else {
            pointer.deallocate()
            return
        }
        for signal in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = crashHandler
            #else
            action.__sigaction_u.__sa_handler = crashHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// Puts the previous handlers back after a normal exit from the reader.
    static func uninstall() {
        let bits = saved.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeMutablePointer<Saved>(bitPattern: bits) else { return }
        restoreHandlers(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    private static func restoreHandlers(_ pointer: UnsafeMutablePointer<Saved>) {
        withUnsafeMutableBytes(of: &pointer.pointee.previous) { raw in
            let actions = raw.bindMemory(to: sigaction.self)
            for (slot, signal) in signals.enumerated() { sigaction(signal, &actions[slot], nil) }
        }
    }

    /// From the handler: async-signal-safe calls only.
    fileprivate static func restore() {
        let codes: StaticString = "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l"
        _ = write(STDOUT_FILENO, codes.utf8Start, codes.utf8CodeUnitCount)
        let bits = saved.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeMutablePointer<Saved>(bitPattern: bits) else { return }
        _ = tcsetattr(pointer.pointee.fd, TCSAFLUSH, &pointer.pointee.settings)
        restoreHandlers(pointer)
        // The allocation is left: free() is not async-signal-safe and the process is ending.
    }
}

private func crashHandler(_ signal: Int32) {
    CrashGuard.restore()
    // The previous handler is back. A fault happens again on return and reaches it; a signal
    // that was raised (an abort, a trap after its instruction) is raised again for it.
    if signal == SIGABRT || signal == SIGTRAP || signal == SIGFPE { raise(signal) }
}
