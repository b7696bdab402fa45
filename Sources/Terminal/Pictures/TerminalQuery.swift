public import Foundation
import Synchronization

/// Asks the terminal what it can draw, once per run: one write of four questions and one wait,
/// bounded, for the answers.
///
/// The questions are the cell size (`CSI 16 t`), the text area's size (`CSI 14 t`), the primary
/// device attributes (DA1, `CSI c`) and last a status report (DSR, `CSI 5 n`). Terminals answer
/// in order, and every terminal answers the status report, so its answer ends the wait: a
/// terminal that ignores the others costs one round trip, not the whole bound.
public enum TerminalQuery {
    /// What is written to the terminal.
    public static let request = "\u{1B}[16t\u{1B}[14t\u{1B}[c\u{1B}[5n"

    /// The longest wait for the answers.
    public static let bound: Duration = .milliseconds(250)

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
            let asked = ask(input: input, output: output, bound: bound)
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
    /// comes or `bound` passes. Not cached: tests ask a pseudo-terminal of their own.
    public static func ask(input: Int32, output: Int32, bound: Duration) -> (replies: TerminalReplies, unread: [UInt8])
    {
        var settings = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &settings) == 0,
            settings.c_lflag & tcflag_t(ICANON) == 0
        else { return (TerminalReplies(), []) }
        var text = request
        let written = text.withUTF8 { write(output, $0.baseAddress, $0.count) }
        guard written > 0 else { return (TerminalReplies(), []) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: bound)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        var parsed = TerminalReplies.parse([])
        while !parsed.replies.complete {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { break }
            let milliseconds = Int32(
                max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
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
}
