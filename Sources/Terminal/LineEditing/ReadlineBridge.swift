#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CReadline
import Synchronization

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
    }
}

/// Readline's `rl_attempted_completion_function`: asks the Swift completer for candidates.
private func attemptCompletion(
    _ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32
) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    // Never fall back to readline's file-name completion: file names are not bok commands.
    bok_rl_set_attempted_completion_over(1)
    guard let text, let buffer = bok_rl_line_buffer(),
          let completer = ReadlineBridge.completion.withLock({ $0.completer }) else { return nil }
    let word = String(cString: text)
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: max(0, Int(end))), as: UTF8.self)

    let candidates = completer(line, word).filter { $0.hasPrefix(word) }
    guard !candidates.isEmpty else { return nil }
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

/// Readline's `rl_signal_event_hook`, called after a signal interrupted its read.
///
/// After Ctrl-C, readline has already echoed `^C`; this drops the typed text and shows a
/// fresh prompt on the next line, as bash does, instead of ending the program.
private func handleSignalEvent() -> Int32 {
    guard ReadlineBridge.interrupted.exchange(false, ordering: .acquiringAndReleasing) else { return 0 }
    bok_rl_discard_line_and_redisplay()
    return 0
}

/// Readline's `rl_getc_function` while a question Ctrl-C cancels is asked: reads one key, and
/// after Ctrl-C empties the line and answers Return, so readline returns at once (its own
/// `rl_getc` would call the event hook and wait for another key).
func cancellableGetc(_ stream: UnsafeMutablePointer<FILE>?) -> Int32 {
    var byte: UInt8 = 0
    let fd = stream.map { fileno($0) } ?? STDIN_FILENO
    while true {
        if ReadlineBridge.interrupted.exchange(false, ordering: .acquiringAndReleasing) {
            ReadlineBridge.cancelled.store(true, ordering: .releasing)
            bok_rl_clear_line()
            // As at the main prompt, ^C shows where the question was cancelled.
            _ = "^C".withCString { write(STDOUT_FILENO, $0, 2) }
            return 13
        }
        let count = read(fd, &byte, 1)
        if count == 1 { return Int32(byte) }
        if count < 0, errno == EINTR { continue }
        return EOF
    }
}

/// The SIGINT handler while a line is edited: only notes the interruption (async-signal-safe).
func noteInterrupt(_ signal: Int32) {
    ReadlineBridge.interrupted.store(true, ordering: .releasing)
}
