#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-Z for programs that hold the terminal in a mode of their own (readline, the reader).
public enum JobControl {
    /// Stops the process now with SIGTSTP's default action; returns after `fg` (SIGCONT),
    /// with the SIGTSTP handler that was in place put back.
    ///
    /// Give the terminal back before calling, and take it again after. `raise` sends the signal
    /// to this thread, so it stops before `raise` returns; a `kill` of the whole process may be
    /// taken by another thread a moment later, after this one has already taken the terminal
    /// back, and the shell then restores its own settings over ours.
    public static func stopNow() {
        var current = sigaction()
        sigaction(SIGTSTP, nil, &current)
        signal(SIGTSTP, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        raise(SIGTSTP)
        sigaction(SIGTSTP, &current, nil)
    }
}
