import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the temporary files of ``OutputFile``s still open when bok is ended by a signal
/// (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT), so a stopped run leaves no `.bok-XXXXXX` file behind.
///
/// While a file is open, a handler is in place for those signals: it unlinks the registered
/// paths (`unlink` is async-signal-safe; the paths are C strings made beforehand and read
/// through atomics), puts the previous action back and raises the signal again, so the process
/// ends, or the handler before it (the REPL's, which cancels the command) runs as it would have.
enum OutputCleanup {
    /// Slots for the C strings of temporary paths (bit patterns of pointers; 0 is empty).
    /// `nonisolated(unsafe)`: the pointer never changes, and what it points to is read and written
    /// only through the atomics, which a signal handler may use where it may not take a lock.
    private static let slotCount = 8
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let pointer = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: slotCount)
        for index in 0..<slotCount { (pointer + index).initialize(to: Atomic(0)) }
        return pointer
    }()
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// The actions in place before ours, one per signal, read by the handler. `nonisolated(unsafe)`:
    /// written only under `installed`'s lock before our handler is in place, read by the handler.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        pointer.initialize(repeating: sigaction(), count: signals.count)
        return pointer
    }()
    /// Which signals have our handler in place (set and cleared outside the handler, under `lock`).
    private static let installed = Mutex<[Bool]>([])

    /// Starts removing `path` if a signal ends bok; the handler goes in with the first path.
    static func register(_ path: String) {
        let copy = strdup(path)!
        installed.withLock { installed in
            for index in 0..<slotCount where (slots + index).pointee.load(ordering: .acquiring) == 0 {
                (slots + index).pointee.store(Int(bitPattern: copy), ordering: .releasing)
                break
            }
            if installed.isEmpty { installed = install() }
        }
    }

    /// Stops watching `path`; true when it was registered (and so is still bok's to remove).
    @discardableResult
    static func unregister(_ path: String) -> Bool {
        installed.withLock { installed in
            var found = false
            var left = 0
            for index in 0..<slotCount {
                let bits = (slots + index).pointee.load(ordering: .acquiring)
                guard bits != 0, let pointer = UnsafeMutablePointer<CChar>(bitPattern: bits) else { continue }
                if !found, String(cString: pointer) == path {
                    (slots + index).pointee.store(0, ordering: .releasing)
                    free(pointer)
                    found = true
                } else {
                    left += 1
                }
            }
            if left == 0, !installed.isEmpty {
                uninstall(installed)
                installed = []
            }
            return found
        }
    }

    private static func install() -> [Bool] {
        signals.enumerated().map { index, signal in
            var old = sigaction()
            // An ignored signal stays ignored (nohup): it ends nothing, so there is nothing to clean.
            guard sigaction(signal, nil, &old) == 0, !isIgnored(old) else { return false }
            (previous + index).pointee = old
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = removeTemporariesAndReraise
            #else
            action.__sigaction_u.__sa_handler = removeTemporariesAndReraise
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            return sigaction(signal, &action, nil) == 0
        }
    }

    private static func uninstall(_ installed: [Bool]) {
        for (index, signal) in signals.enumerated() where installed[index] {
            sigaction(signal, previous + index, nil)
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #else
        unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
        #endif
    }

    /// Async-signal-safe: atomics, `unlink`, `sigaction` and `raise` only.
    fileprivate static func handle(_ signal: Int32) {
        for index in 0..<slotCount {
            let bits = (slots + index).pointee.load(ordering: .acquiring)
            if bits != 0, let pointer = UnsafeMutablePointer<CChar>(bitPattern: bits) { unlink(pointer) }
        }
        for (index, watched) in signals.enumerated() where watched == signal {
            sigaction(signal, previous + index, nil)
        }
        // Blocked while this handler runs: delivered to the previous action as it returns.
        raise(signal)
    }
}

private func removeTemporariesAndReraise(_ signal: Int32) {
    OutputCleanup.handle(signal)
}
