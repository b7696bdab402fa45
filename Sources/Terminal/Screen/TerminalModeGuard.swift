import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers a terminal's settings before a mode change and restores them on every way out.
///
/// Normal code restores with ``release()``. If the process exits (`exit`, end of `main`) the
/// `atexit` handler restores; if it is killed by SIGINT, SIGTERM, SIGHUP or SIGQUIT the signal
/// handler restores, puts the previous handlers back and raises the signal again, so the
/// process ends (or the program's own handler runs) with the terminal usable.
///
/// The saved state lives behind an `Atomic<Int>` holding a pointer's bit pattern: a signal
/// handler may not take a lock, but it may swap an atomic and call `tcsetattr` and `write`.
/// Only one mode change is held at a time.
enum TerminalModeGuard {
    /// What ``engage(fd:configure:)`` did.
    enum Outcome: Equatable {
        /// The settings were changed and will be restored.
        case engaged
        /// Another mode change is in force; nothing was changed.
        case alreadyEngaged
        /// The call failed: not a terminal, or the settings could not be read or written.
        case failed(TerminalError)
    }

    /// The signals after which the terminal is restored before the process goes on or ends.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// What is restored: the descriptor, its settings, and the signal actions we replaced.
    struct Saved {
        var fd: Int32
        var settings: termios
        var actions: (sigaction, sigaction, sigaction, sigaction)
        var installed: (Bool, Bool, Bool, Bool)
    }

    /// Bit pattern of an `UnsafeMutablePointer<Saved>`, or 0 when nothing is engaged.
    private static let saved = Atomic<Int>(0)
    private static let atExitInstalled = Atomic<Bool>(false)

    /// Whether a mode change is in force.
    static var isEngaged: Bool { saved.load(ordering: .acquiring) != 0 }

    /// Saves the settings of `fd`, then applies `configure` to a copy and sets it.
    static func engage(fd: Int32, configure: (inout termios) -> Void) -> Outcome {
        guard isatty(fd) == 1 else { return .failed(.notATerminal(fd: fd)) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return .failed(.settingsFailed(fd: fd, errno: errno)) }

        let pointer = UnsafeMutablePointer<Saved>.allocate(capacity: 1)
        pointer.initialize(
            to: Saved(
                fd: fd, settings: original,
                actions: (sigaction(), sigaction(), sigaction(), sigaction()),
                installed: (false, false, false, false)
            ))
        let bits = Int(bitPattern: pointer)
        guard saved.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing).exchanged else {
            pointer.deallocate()
            return .alreadyEngaged
        }
        installAtExitOnce()
        // Handlers go in before the mode changes, so no moment is left unprotected.
        for (slot, signal) in signals.enumerated() {
            var old = sigaction()
            guard sigaction(signal, nil, &old) == 0, !isIgnored(old) else { continue }
            var action = sigaction()
            setHandler(&action, restoreAndReraise)
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked read returns EINTR so the reader can stop
            if sigaction(signal, &action, nil) == 0 {
                storeAction(old, slot: slot, in: pointer)
            }
        }

        var changed = original
        configure(&changed)
        guard tcsetattr(fd, TCSAFLUSH, &changed) == 0 else {
            let code = errno
            release()
            return .failed(.settingsFailed(fd: fd, errno: code))
        }
        return .engaged
    }

    /// Sets `configure`'s settings again over the saved ones, in one step, while engaged (the saved
    /// settings stay what ``release()`` restores). Returns false when nothing is engaged.
    static func reconfigure(_ configure: (inout termios) -> Void) -> Bool {
        guard let pointer = UnsafeMutablePointer<Saved>(bitPattern: saved.load(ordering: .acquiring)) else {
            return false
        }
        var changed = pointer.pointee.settings
        configure(&changed)
        return tcsetattr(pointer.pointee.fd, TCSANOW, &changed) == 0
    }

    /// Restores the saved settings and signal handlers; does nothing if nothing is engaged.
    static func release() {
        let bits = saved.load(ordering: .acquiring)
        guard let pointer = UnsafeMutablePointer<Saved>(bitPattern: bits) else { return }
        // Handlers first: once the pointer is cleared, a signal must find the old handlers.
        restoreActions(from: pointer)
        guard saved.compareExchange(expected: bits, desired: 0, ordering: .acquiringAndReleasing).exchanged else {
            return  // a signal handler restored the terminal meanwhile and owns the allocation
        }
        var settings = pointer.pointee.settings
        _ = tcsetattr(pointer.pointee.fd, TCSAFLUSH, &settings)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Restores the terminal from a signal handler or `atexit`: async-signal-safe, no locks, no free.
    fileprivate static func restoreForExit() -> Bool {
        let bits = saved.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeMutablePointer<Saved>(bitPattern: bits) else { return false }
        Screen.restoreForExit()
        var settings = pointer.pointee.settings
        _ = tcsetattr(pointer.pointee.fd, TCSAFLUSH, &settings)
        restoreActions(from: pointer)
        // The allocation is left: free() is not async-signal-safe and the process is ending.
        return true
    }

    private static func installAtExitOnce() {
        guard atExitInstalled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else {
            return
        }
        atexit { _ = TerminalModeGuard.restoreForExit() }
    }

    private static func storeAction(_ action: sigaction, slot: Int, in pointer: UnsafeMutablePointer<Saved>) {
        switch slot {
        case 0:
            pointer.pointee.actions.0 = action
            pointer.pointee.installed.0 = true
        case 1:
            pointer.pointee.actions.1 = action
            pointer.pointee.installed.1 = true
        case 2:
            pointer.pointee.actions.2 = action
            pointer.pointee.installed.2 = true
        default:
            pointer.pointee.actions.3 = action
            pointer.pointee.installed.3 = true
        }
    }

    private static func restoreActions(from pointer: UnsafeMutablePointer<Saved>) {
        // Fixed slots instead of an array: this runs inside signal handlers.
        var saved = pointer.pointee
        if saved.installed.0 { _ = sigaction(SIGINT, &saved.actions.0, nil) }
        if saved.installed.1 { _ = sigaction(SIGTERM, &saved.actions.1, nil) }
        if saved.installed.2 { _ = sigaction(SIGHUP, &saved.actions.2, nil) }
        if saved.installed.3 { _ = sigaction(SIGQUIT, &saved.actions.3, nil) }
    }

    static func isIgnored(_ action: sigaction) -> Bool {
        // Respect an ignored signal (nohup ignores SIGHUP): leave it ignored.
        #if canImport(Glibc)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #endif
    }

    static func setHandler(_ action: inout sigaction, _ handler: @escaping @convention(c) (Int32) -> Void) {
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
    }
}

/// Restores the terminal, puts the previous handler back and raises the signal again.
private func restoreAndReraise(_ signal: Int32) {
    // Either we restore here, or release() already put the previous actions back before it
    // cleared the state; both ways the previous action is in place, and raising delivers the
    // signal to it once this handler returns.
    _ = TerminalModeGuard.restoreForExit()
    raise(signal)
}
