#if os(Linux)
import Foundation
public import Glibc

/// A program started with `posix_spawn` on a terminal device, with no signals blocked or
/// ignored: Foundation's `Process` passes on the test runner's blocked-signal mask, under
/// which a SIGTERM sent by a test would never arrive.
public final class ChildProcess {
    public let pid: pid_t
    public private(set) var status: Int32?

    public init?(_ path: String, arguments: [String], environment: [String: String], terminal fd: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in [Int32(0), 1, 2] { posix_spawn_file_actions_adddup2(&actions, fd, target) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        guard posix_spawn(&child, path, &actions, &attributes, argv, envp) == 0 else { return nil }
        pid = child
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
    }

    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw
            return false
        }
        return true
    }

    /// Waits for the program to end; `false` if it is still running after `seconds`.
    public func waitForExit(seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return !isRunning
    }

    /// The exit code, when it exited normally.
    public var exitCode: Int32? {
        guard let status, status & 0x7F == 0 else { return nil }
        return (status >> 8) & 0xFF
    }

    /// The signal that ended it, if one did.
    public var signal: Int32? {
        guard let status, status & 0x7F != 0, status & 0x7F != 0x7F else { return nil }
        return status & 0x7F
    }
}
#endif
