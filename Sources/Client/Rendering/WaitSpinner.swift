import Catalog
import Dispatch
import Foundation
import Localization
import Synchronization
import Terminal

/// Shows that bok is waiting for the library: after 300 ms without an answer, a spinner on
/// stderr (`⠹ Waiting for the library… Ctrl-C stops waiting`), cleared the moment the answer
/// comes. Only made when stderr is a terminal; piped and `--json` output get none.
///
/// Told by `HTTPLendingService` through ``LibraryWait`` (task-local), so it turns only while the
/// command in flight waits, never for a sync in the background, and never over a PIN prompt or
/// the reader, which make no calls of their own while they are on screen.
///
/// For a screen reader (``Marks/words``) nothing turns: the words are written once, as a line
/// of their own, and stay; a spinner redrawn eight times a second would be read out each time.
final class WaitSpinner: LibraryWaitObserver {
    private struct State {
        var waiting = 0
        var timer: (any DispatchSourceTimer)?
        var frame = 0
        var drawn = false
        /// What it says while it turns; the library's wait unless told otherwise.
        var saying: String?
    }

    static let delay: DispatchTimeInterval = .milliseconds(300)
    private let frames: [String]
    private let words: String
    private let dim: @Sendable (String) -> String
    private let unicode: Bool
    /// Whether the words are written once as a line, for a screen reader.
    private let once: Bool
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "bok.wait-spinner")

    init(
        marks: Marks, dim: @escaping @Sendable (String) -> String,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        frames = marks.unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"]
        let waiting = tr("Waiting for the library… Ctrl-C stops waiting")
        // Beside the spinner's frame a space; alone on its line, for a screen reader, none.
        let space = marks.words ? "" : " "
        words = dim(space + (marks.unicode ? waiting : waiting.replacingOccurrences(of: "…", with: "...")))
        self.dim = dim
        unicode = marks.unicode
        once = marks.words
        self.write = write
    }

    /// Turns with other words than the library's wait (another bok's download), until ``ended()``.
    func began(saying words: String) {
        state.withLock { state in
            state.saying = dim(
                (once ? "" : " ") + (unicode ? words : words.replacingOccurrences(of: "…", with: "...")))
        }
        began()
    }

    func began() {
        state.withLock { state in
            state.waiting += 1
            guard state.waiting == 1, state.timer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + Self.delay, repeating: .milliseconds(120))
            timer.setEventHandler { [weak self] in self?.tick() }
            state.timer = timer
            timer.resume()
        }
    }

    func ended() {
        state.withLock { state in
            state.waiting = max(0, state.waiting - 1)
            guard state.waiting == 0 else { return }
            state.timer?.cancel()
            state.timer = nil
            state.saying = nil
            if state.drawn {
                // Back to the start of the line, and the line cleared: the answer prints where the spinner was.
                write("\r\u{1B}[K")
                state.drawn = false
            }
        }
    }

    private func tick() {
        state.withLock { state in
            guard state.waiting > 0, state.timer != nil else { return }
            if once {
                write((state.saying ?? words) + "\n")
                state.timer?.cancel()
                state.timer = nil
                return
            }
            write("\r" + frames[state.frame % frames.count] + (state.saying ?? words))
            state.frame += 1
            state.drawn = true
        }
    }
}
