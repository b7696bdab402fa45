public import Foundation
import Synchronization

/// Asks the terminal what it can draw, once per run: one write of four questions and one wait,
/// bounded, for the answers.
///
/// The questions are whether it draws kitty's graphics (a query that stores nothing,
/// `APC G i=31,a=q … ST`, which terminals without them ignore: Konsole does not name itself, but
/// answers it), the cell size (`CSI 16 t`), the text area's size (`CSI 14 t`), the terminal's
/// name and version (XTVERSION, `CSI > 0 q`), the primary device attributes (DA1, `CSI c`) and
/// last a status report (DSR, `CSI 5 n`). Terminals answer
/// in order, and every terminal answers the status report, so its answer ends the wait: a
/// terminal that ignores the others costs one round trip, not the whole bound.
public enum TerminalQuery {
    /// What is written to the terminal.
    public static let request =
        "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[14t\u{1B}[>0q\u{1B}[c\u{1B}[5n"

    /// The longest wait for the answers, in milliseconds. (Whole milliseconds and the monotonic
    /// clock rather than `Duration`, whose 128-bit arithmetic is code a first page would load.)
    public static let boundMilliseconds = 250

    private struct State {
        /// The answers of this run's query; nil until asked.
        var replies: TerminalReplies?
        /// Keys that arrived with the answers, for the key loop to read.
        var unread: [UInt8] = []
    }
    private static let state = Mutex(State())

    /// This run's answers: asked on the first call (while the terminal is in raw mode), the
    /// same answers after. Keys typed meanwhile are kept for ``takeUnread()``.
    ///
    /// Nothing is asked, and no answer is given, when `input` is not a terminal in raw mode
    /// (in cooked mode the answers would be echoed and wait for Return).
    public static func askOnce(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> TerminalReplies {
        state.withLock { state in
            if let replies = state.replies { return replies }
            let asked = ask(input: input, output: output, boundMilliseconds: boundMilliseconds)
            state.replies = asked.replies
            state.unread += asked.unread
            return asked.replies
        }
    }

    /// The keys that arrived with the answers, once.
    public static func takeUnread() -> [UInt8] {
        state.withLock { state in
            defer { state.unread = [] }
            return state.unread
        }
    }

    /// Writes ``request`` to `output` and reads the answers from `input` until the status report
    /// comes or `boundMilliseconds` pass. Not cached: tests ask a pseudo-terminal of their own.
    public static func ask(
        input: Int32, output: Int32, boundMilliseconds: Int
    ) -> (replies: TerminalReplies, unread: [UInt8]) {
        var settings = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &settings) == 0,
            settings.c_lflag & tcflag_t(ICANON) == 0
        else { return (TerminalReplies(), []) }
        var text = request
        let written = text.withUTF8 { write(output, $0.baseAddress, $0.count) }
        guard written > 0 else { return (TerminalReplies(), []) }
        let deadline = now() + max(0, boundMilliseconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        var parsed = TerminalReplies.parse([])
        while !parsed.replies.complete {
            let left = deadline - now()
            guard left > 0 else { break }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(left))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(input, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            received += buffer[0..<count]
            parsed = TerminalReplies.parse(received)
        }
        return (parsed.replies, parsed.unread + parsed.pending)
    }

    /// The monotonic clock in milliseconds.
    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}

extension TerminalQuery {
    /// ``askOnce(input:output:)`` from a line-mode terminal (the prompt between commands): echo
    /// and line mode are turned off for the wait, so that the answers are neither shown nor held
    /// for Return, and restored after. Nothing is asked when `input` is not a terminal.
    public static func askOnceFromLineMode(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO
    ) -> TerminalReplies {
        var saved = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &saved) == 0 else { return TerminalReplies() }
        guard saved.c_lflag & tcflag_t(ICANON) != 0 else { return askOnce(input: input, output: output) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return TerminalReplies() }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        return askOnce(input: input, output: output)
    }
}
