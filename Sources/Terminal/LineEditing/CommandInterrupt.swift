import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C while a command runs: the command is cancelled and bok goes on, as in psql.
///
/// The handler only writes a byte to a pipe (async-signal-safe, and it works whichever thread
/// the kernel picks); one watcher thread, started on first use and asleep in `read` the rest
/// of the time, calls the action of the command in flight.
public enum CommandInterrupt {
    private static let onInterrupt = Mutex<(@Sendable () -> Void)?>(nil)
    private static let writeEnd = Atomic<Int32>(-1)
    private static let watcher: Bool = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let readEnd = ends[0]
        writeEnd.store(ends[1], ordering: .releasing)
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                let action = onInterrupt.withLock { $0 }
                action?()
            }
        }
        return true
    }()

    /// Runs `operation` with Ctrl-C calling `interrupt` (on another thread) instead of ending bok.
    ///
    /// The SIGINT handler in place before comes back when `operation` returns; an ignored SIGINT
    /// stays ignored. Questions the operation asks (a card number) install their own handling.
    /// - Parameters:
    ///   - isolation: The caller's actor; `operation` runs on it.
    ///   - interrupt: Called at each Ctrl-C; typically cancels the task running the command.
    ///   - operation: The command.
    public static func whileRunning<T>(
        isolation: isolated (any Actor)? = #isolation,
        interrupt: @escaping @Sendable () -> Void, _ operation: () async -> T
    ) async -> T {
        guard watcher else { return await operation() }
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        guard !TerminalModeGuard.isIgnored(previous) else { return await operation() }
        onInterrupt.withLock { $0 = interrupt }
        var action = sigaction()
        TerminalModeGuard.setHandler(&action, noteCommandInterrupt)
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        let result = await operation()
        sigaction(SIGINT, &previous, nil)
        onInterrupt.withLock { $0 = nil }
        return result
    }

    fileprivate static func wakeWatcher() {
        let fd = writeEnd.load(ordering: .acquiring)
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}

/// SIGINT while a command runs: wakes the watcher thread (async-signal-safe).
private func noteCommandInterrupt(_ signal: Int32) {
    CommandInterrupt.wakeWatcher()
}
