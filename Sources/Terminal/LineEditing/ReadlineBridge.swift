import CReadline
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process-wide readline state and the C callbacks readline calls back into.
///
/// GNU readline keeps one history list and one set of hooks per process, so every call into
/// it goes through ``lock``. The completion closure lives in its own lock because readline
/// calls the completion trampoline while ``LineEditor/readLine(prompt:)`` holds ``lock``.
enum ReadlineBridge {
    /// A completion function: the line up to the cursor and the word being completed, to candidates.
    typealias Completer = @Sendable (_ line: String, _ word: String) -> [String]

    /// The candidates of the completion in progress, handed out one by one to readline.
    struct CompletionState {
        var completer: Completer?
        var pending: [String] = []
        var next = 0
    }

    /// Serialises all use of readline's global state (history list, hooks, the editor itself).
    static let lock = Mutex(())
    static let completion = Mutex(CompletionState())
    /// Set by the SIGINT handler while a line is being edited; read by the event hook.
    static let interrupted = Atomic<Bool>(false)
    /// Set when Ctrl-C cancelled the question being asked.
    static let cancelled = Atomic<Bool>(false)

    /// Points readline's hooks at our trampolines; call with ``lock`` held.
    static func installHooks() {
        bok_rl_install_hooks(attemptCompletion, handleSignalEvent)
        bok_rl_take_signals(promptGetc)
    }
}

/// Readline's `rl_attempted_completion_function`: asks the Swift completer for candidates.
private func attemptCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    // Never fall back to readline's file-name completion: file names are not bok commands.
    bok_rl_set_attempted_completion_over(1)
    guard let text, let buffer = bok_rl_line_buffer(),
        let completer = ReadlineBridge.completion.withLock({ $0.completer })
    else { return nil }
    let word = String(cString: text)
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: max(0, Int(end))), as: UTF8.self)

    let candidates = completer(line, word).filter { $0.hasPrefix(word) }
    guard !candidates.isEmpty else { return nil }
    // A field's name (`category:`, `kategori:`) is followed by its value, not a space.
    if candidates.allSatisfy({ $0.hasSuffix(":") }) { bok_rl_suppress_append() }
    ReadlineBridge.completion.withLock {
        $0.pending = candidates
        $0.next = 0
    }
    return rl_completion_matches(text, nextCandidate)
}

/// Readline's generator: returns the next candidate as a `malloc`ed string, readline frees it.
private func nextCandidate(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    ReadlineBridge.completion.withLock { completion in
        if state == 0 { completion.next = 0 }
        guard completion.next < completion.pending.count else {
            completion.pending = []
            return nil
        }
        defer { completion.next += 1 }
        return strdup(completion.pending[completion.next])
    }
}

/// Readline's `rl_signal_event_hook`; bok takes the signals itself (see ``promptGetc(_:)``).
private func handleSignalEvent() -> Int32 { 0 }

/// The signals bok handles while readline has the terminal: Ctrl-C, Ctrl-Z, and the ones that end it.
let promptSignals: [Int32] = [SIGINT, SIGTSTP, SIGTERM, SIGHUP, SIGQUIT]

/// Wakes ``promptGetc(_:)`` from a signal handler, whichever thread the kernel chose to run it on.
///
/// Readline's own handling only works when the signal lands on the thread blocked in `read`; with
/// other threads about (libcurl's, the mock server's) it often does not, and Ctrl-C then waited
/// for the next key. A pipe wakes the `poll` wherever the handler ran.
enum PromptSignals {
    /// Read end and write end, created once and never closed.
    static let pipeEnds: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }()
    /// The write end, readable from a signal handler without touching lazy initialisation.
    static let writeEnd = Atomic<Int32>(-1)
    /// Ctrl-Z was pressed (or SIGTSTP sent) at the prompt.
    static let stop = Atomic<Bool>(false)
    /// A signal that ends bok (SIGTERM, SIGHUP, SIGQUIT), or 0.
    static let fatal = Atomic<Int32>(0)
    /// Whether Ctrl-C cancels the question (true) or discards the typed line (false).
    static let cancels = Atomic<Bool>(false)

    /// Creates the pipe before any handler can need it.
    static func prepare() {
        writeEnd.store(pipeEnds.write, ordering: .releasing)
    }
}

/// The handler for ``promptSignals`` while a line is edited: notes the signal and wakes the reader
/// (async-signal-safe: atomics and `write` only).
func notePromptSignal(_ signal: Int32) {
    switch signal {
    case SIGINT: ReadlineBridge.interrupted.store(true, ordering: .releasing)
    case SIGTSTP: PromptSignals.stop.store(true, ordering: .releasing)
    default: PromptSignals.fatal.store(signal, ordering: .releasing)
    }
    let fd = PromptSignals.writeEnd.load(ordering: .acquiring)
    guard fd >= 0 else { return }
    var byte: UInt8 = 1
    _ = write(fd, &byte, 1)
}

/// Readline's `rl_getc_function`: one key from the terminal, or a signal acted on at once.
///
/// Ctrl-C at the command prompt shows `^C`, drops the typed text and gives a fresh prompt (as
/// bash and psql do); at a question (a card number) it empties the line and answers Return, so
/// the question is cancelled. Ctrl-Z gives the terminal back and stops bok; after `fg` the
/// prompt and the typed text come back. SIGTERM, SIGHUP and SIGQUIT restore the terminal and
/// end bok as they would have.
func promptGetc(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    var byte: UInt8 = 0
    let fd = stream.map { fileno($0) } ?? STDIN_FILENO
    let wake = PromptSignals.pipeEnds.read
    while true {
        let fatal = PromptSignals.fatal.exchange(0, ordering: .acquiringAndReleasing)
        if fatal != 0 {
            bok_rl_leave_terminal()
            signal(fatal, SIG_DFL)
            raise(fatal)
        }
        if PromptSignals.stop.exchange(false, ordering: .acquiringAndReleasing) {
            _ = "^Z".withCString { write(STDOUT_FILENO, $0, 2) }
            bok_rl_leave_terminal()
            JobControl.stopNow()
            bok_rl_resume_terminal()
        }
        if ReadlineBridge.interrupted.exchange(false, ordering: .acquiringAndReleasing) {
            _ = "^C".withCString { write(STDOUT_FILENO, $0, 2) }
            if PromptSignals.cancels.load(ordering: .acquiring) {
                ReadlineBridge.cancelled.store(true, ordering: .releasing)
                bok_rl_clear_line()
                return 13
            }
            bok_rl_discard_line_and_redisplay()
        }
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, nfds_t(wake >= 0 ? 2 : 1), -1)
        if ready < 0 {
            guard errno == EINTR else { return EOF }
            // A window change still goes through readline's own handler (`rl_catch_sigwinch`).
            rl_check_signals()
            continue
        }
        if wake >= 0, fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wake, &drain, drain.count) > 0 {}
        }
        guard fds[0].revents != 0 else { continue }
        let count = read(fd, &byte, 1)
        if count == 1 { return Int32(byte) }
        if count < 0, errno == EINTR || errno == EAGAIN { continue }
        return EOF
    }
}
