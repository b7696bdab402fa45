import Foundation
import Shelf
import Synchronization
import Terminal
import TextSafety

/// The progress of a download on one line of a terminal's stderr, redrawn in place:
///
///     ↓ Fritt fall  [██████████░░░░░░░░░░]  48%  164 kB of 342 kB · 1.2 MB/s
///
/// Only made when stderr is a terminal; piped output gets no bar. Callbacks come from the
/// download's thread, so drawing is locked.
final class DownloadProgressBar: Sendable {
    private let marks: Marks
    private let width: Int
    private let write: @Sendable (String) -> Void
    /// Whether the bar is on the line now; drawing holds it.
    private let drawn = Mutex(false)

    init(
        marks: Marks, width: Int,
        write: @escaping @Sendable (String) -> Void = { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    ) {
        self.marks = marks
        self.width = max(40, width)
        self.write = write
    }

    /// The callback for one download.
    func start(title: String) -> @Sendable (BookDownloader.Progress) -> Void {
        { [self] progress in
            let line = Self.line(title: title, progress: progress, marks: marks, width: width)
            drawn.withLock { drawn in
                drawn = true
                write("\r" + line + "\u{1B}[K")
            }
        }
    }

    /// Clears the bar's line.
    func finish() {
        drawn.withLock { drawn in
            if drawn { write("\r\u{1B}[K") }
            drawn = false
        }
    }

    /// The bar's text for a width of terminal.
    static func line(title: String, progress: BookDownloader.Progress, marks: Marks, width: Int) -> String {
        let received = Int(progress.received)
        var tail: String
        let fraction: Double?
        if let total = progress.total, total > 0 {
            fraction = min(1, Double(progress.received) / Double(total))
            tail =
                String(format: "%3d%%", Int((fraction ?? 0) * 100))
                + "  \(Words.bytes(received)) of \(Words.bytes(Int(total)))"
        } else {
            fraction = nil
            tail = Words.bytes(received)
        }
        if progress.bytesPerSecond > 0 { tail += " \(marks.middleDot) \(Words.bytes(Int(progress.bytesPerSecond)))/s" }
        let barWidth = 20
        var bar = ""
        if let fraction {
            let filled = Int((fraction * Double(barWidth)).rounded(.down))
            bar =
                "[" + String(repeating: marks.unicode ? "█" : "#", count: filled)
                + String(repeating: marks.unicode ? "░" : "-", count: barWidth - filled) + "]  "
        }
        let room = width - 1 - DisplayWidth.of(bar) - DisplayWidth.of(tail) - 6
        let name = DisplayWidth.truncate(SafeText.visibleControls(title), to: max(8, room), ellipsis: marks.ellipsis)
        return "\(marks.downArrow) \(name)  \(bar)\(tail)"
    }
}
