import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs `path` with `arguments` and `environment`, stdin, stdout and stderr on /dev/null, and
/// returns the milliseconds from spawn to exit, or nil when it could not start or exited non-zero.
///
/// posix_spawn and waitpid rather than Foundation's `Process`: on Linux `waitUntilExit` polls
/// its run loop every 50 ms, which added about 50 ms to a command that takes 60 and made the
/// whole-process figures measure the harness.
public func timedRun(_ path: String, _ arguments: [String], environment: [String: String]) -> Double? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
        posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let start = now()
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let elapsed = now() - start
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    return status & 0x7f == 0 && (status >> 8) & 0xff == 0 ? elapsed : nil
}
