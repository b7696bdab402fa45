internal import Foundation
import Localization
import Synchronization
internal import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a ``ReaderView`` on the real terminal: raw mode and the ``ReaderOutput`` (the alternate
/// screen and frames, or for a screen reader lines written once), all undone on the way out
/// (also after Ctrl-C, a kill or a crash); keys from standard input; SIGWINCH and the background
/// page count wake the loop through a pipe.
final class ReaderTerminal {
    /// The pipe the SIGWINCH handler and background work write to, to wake the loop.
    private static let wakeFD = Atomic<Int32>(-1)
    /// SIGTSTP from outside (`kill -TSTP`; Ctrl-Z itself arrives as a key in raw mode).
    fileprivate static let stopAsked = Atomic<Bool>(false)
    /// SIGCONT: the shell may have put its own terminal settings back while bok was stopped.
    fileprivate static let continued = Atomic<Bool>(false)
    /// Bookmarks or highlights of the open book changed on the shelf from outside the reader (a sync
    /// merged another device's): read again at the next wake.
    fileprivate static let annotationsChanged = Atomic<Bool>(false)

    /// Says that the open book's bookmarks or highlights changed on the shelf (from another thread):
    /// the reader reads them again and redraws.
    static func noteAnnotationsChanged() {
        annotationsChanged.store(true, ordering: .releasing)
        wake()
    }

    /// Stops a background page count that is no longer wanted.
    private final class Cancellation: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    private var view: ReaderView
    private let output: any ReaderOutput
    private var decoder = KeyDecoder()
    private var wakePipe: [Int32] = [-1, -1]
    private var counting: Cancellation?
    private var countedLayout: ObjectIdentifier?
    private var size: (columns: Int, rows: Int)
    /// Keys typed while the terminal was asked what it draws (``TerminalQuery``), handled next.
    private var carried: [Key] = []

    /// A view on the terminal; `capabilities` say how it is written (for a screen reader, as lines).
    init(view: ReaderView, capabilities: TerminalCapabilities, size: (columns: Int, rows: Int)) {
        self.view = view
        self.output =
            capabilities.screenReader
            ? LinearReaderOutput() : FullScreenReaderOutput(capabilities: capabilities)
        self.size = size
    }

    /// Reads keys and draws until the reader quits (or, with `firstFrameOnly`, after the first frame).
    func run(firstFrameOnly: Bool) throws(ReaderError) {
        do {
            CrashGuard.install(fd: STDIN_FILENO)
            try RawMode.enter(fd: STDIN_FILENO)
        } catch {
            CrashGuard.uninstall()
            // RawMode's TerminalError says what is wrong and what to do, in the interface language.
            throw ReaderError(.notATerminal, String(describing: error))
        }
        output.take()
        defer {
            counting?.stopped.store(true, ordering: .relaxed)
            view.close()
            output.giveBack()
            RawMode.leave()
            CrashGuard.uninstall()
            signal(SIGWINCH, SIG_DFL)
            signal(SIGTSTP, SIG_DFL)
            signal(SIGCONT, SIG_DFL)
            Self.wakeFD.store(-1, ordering: .releasing)
            if wakePipe[0] >= 0 {
                close(wakePipe[0])
                close(wakePipe[1])
            }
        }
        // The first page does not wait for the contents (a nav of thousands of entries); it is
        // drawn again with the chapter's name from them as soon as they are read.
        view.waitsForContents = false
        draw()
        view.waitsForContents = true
        if firstFrameOnly { return }
        openWakePipe()
        startCounting()
        if !view.session.book.navigationIsRead {
            let book = view.session.book
            Thread.detachNewThread {
                _ = book.tableOfContents
                ReaderTerminal.wake()
            }
        }
        loop()
    }

    private func openWakePipe() {
        guard pipe(&wakePipe) == 0 else { return }
        for fd in wakePipe { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        Self.wakeFD.store(wakePipe[1], ordering: .releasing)
        signal(SIGWINCH, onWindowChange)
        Self.stopAsked.store(false, ordering: .releasing)
        Self.continued.store(false, ordering: .releasing)
        signal(SIGTSTP, onStopOrContinue)
        signal(SIGCONT, onStopOrContinue)
    }

    fileprivate static func wake() {
        let fd = wakeFD.load(ordering: .acquiring)
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0),
            ]
            // While reading aloud, look at where the voice is ten times a second.
            let wait = carried.isEmpty ? (decoder.hasPending ? 40 : (view.session.aloud != nil ? 100 : -1)) : 0
            let ready = poll(&fds, nfds_t(fds.count), Int32(wait))
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            var keys = carried
            carried = []
            if ready == 0, keys.isEmpty { keys = decoder.flush() }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return }
                if count > 0 { keys += decoder.feed(buffer[0..<count]) }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                while read(wakePipe[0], &buffer, buffer.count) > 0 {}
                if Self.stopAsked.exchange(false, ordering: .acquiringAndReleasing) { suspend() }
                if Self.continued.exchange(false, ordering: .acquiringAndReleasing) { takeTerminalAgain() }
                if Self.annotationsChanged.exchange(false, ordering: .acquiringAndReleasing) {
                    view.session.reloadAnnotations()
                    output.forget()
                }
                view.pageCountsChanged()
                let current = TerminalSize.current()
                if current.columns != size.columns || current.rows != size.rows {
                    size = current
                    view.resize(columns: current.columns, rows: current.rows)
                    output.forget()
                }
            }
            for key in keys {
                if key == .ctrl("z") {
                    suspend()
                    continue
                }
                if key == .ctrl("l") {
                    output.forget()
                    continue
                }
                guard view.handle(key) else { return }
                output.keyHandled()
            }
            _ = view.followReadingAloud()
            if ObjectIdentifier(view.session.layout) != countedLayout { startCounting() }
            draw()
        }
    }

    /// Writes what is new on the view, in one write.
    private func draw() {
        // The page's text first; pictures that wait for the terminal's answer or their encoding follow.
        if let cells = view.images as? ImageCells {
            if cells.deferringNewPictures({ output.draw(view) }) { output.draw(view) }
        } else {
            output.draw(view)
        }
        // The first picture asks the terminal what it draws; keys that came with the answers are next.
        let unread = TerminalQuery.takeUnread()
        if !unread.isEmpty { carried += decoder.feed(unread[...]) }
    }

    /// Counts every chapter's pages in the background, for page numbers and the contents.
    private func startCounting() {
        counting?.stopped.store(true, ordering: .relaxed)
        let layout = view.session.layout
        countedLayout = ObjectIdentifier(layout)
        let token = Cancellation()
        counting = token
        Thread.detachNewThread {
            layout.computePageCounts { token.stopped.load(ordering: .relaxed) }
            if !token.stopped.load(ordering: .relaxed) { ReaderTerminal.wake() }
        }
    }

    /// Ctrl-Z (or SIGTSTP): gives the terminal back to the shell, stops, and takes it again on `fg`.
    private func suspend() {
        output.giveBack()
        RawMode.leave()
        // Stops this thread before it returns: a `kill` of the process could be taken by another
        // thread while this one went on into raw mode, and the shell's cooked settings would win.
        JobControl.stopNow()
        Self.continued.store(false, ordering: .releasing)
        takeTerminalAgain()
    }

    /// After `fg` (or any SIGCONT): raw mode, the terminal taken again and the whole page again.
    private func takeTerminalAgain() {
        // The settings may have been changed under us while stopped: apply raw mode afresh, in one
        // step (a SIGCONT noted late brings us here a second time, and must not pass through cooked mode).
        try? RawMode.reapply(fd: STDIN_FILENO)
        output.take()
        output.forget()
    }
}

private func onWindowChange(_ signal: Int32) {
    ReaderTerminal.wake()
}

/// SIGTSTP and SIGCONT while the reader runs: noted, and the loop woken (async-signal-safe).
private func onStopOrContinue(_ signal: Int32) {
    if signal == SIGTSTP {
        ReaderTerminal.stopAsked.store(true, ordering: .releasing)
    } else {
        ReaderTerminal.continued.store(true, ordering: .releasing)
    }
    ReaderTerminal.wake()
}
