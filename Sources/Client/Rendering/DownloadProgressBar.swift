import Foundation
import Localization
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
///
/// For a screen reader (``Marks/words``) nothing is redrawn: a line `Fritt fall: 25%` is written
/// at each quarter, and the bar never.
final class DownloadProgressBar: Sendable {
    private let marks: Marks
    private let width: Int
    private let write: @Sendable (String) -> Void
    /// Whether the bar is on the line now; drawing holds it.
    private let drawn = Mutex(false)
    /// For a screen reader: the quarters said so far of the download in progress.
    private let quartersSaid = Mutex(0)

    init(
        marks: Marks, width: Int,
        write: @escaping @Sendable (String) -> Void = { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    ) {
        self.marks = marks
        self.width = max(20, width)
        self.write = write
    }

    /// The callback for one download.
    func start(title: String) -> @Sendable (BookDownloader.Progress) -> Void {
        if marks.words { return percentLines(title: title) }
        return { [self] progress in
            let line = Self.line(title: title, progress: progress, marks: marks, width: width)
            drawn.withLock { drawn in
                drawn = true
                write("\r" + line + "\u{1B}[K")
            }
        }
    }

    /// For a screen reader: `Fritt fall: 25%` as a line of its own at each quarter, no bar, no redraw.
    private func percentLines(title: String) -> @Sendable (BookDownloader.Progress) -> Void {
        quartersSaid.withLock { $0 = 0 }
        let name = SafeText.line(title)
        return { [self] progress in
            guard let total = progress.total, total > 0 else { return }
            let quarter = Int(min(1, Double(progress.received) / Double(total)) * 4)
            quartersSaid.withLock { said in
                guard quarter > said else { return }
                said = quarter
                write(tr("{title}: {percent}% downloaded", ["title": name, "percent": quarter * 25]) + "\n")
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

    /// The bar's text for a width of terminal: in a narrow one the speed goes first, then the
    /// bar shortens, then the sizes go, then the bar, so that the line never wraps and the title
    /// keeps at least 8 cells.
    static func line(title: String, progress: BookDownloader.Progress, marks: Marks, width: Int) -> String {
        let received = Int(progress.received)
        let fraction = progress.total.flatMap { $0 > 0 ? min(1, Double(progress.received) / Double($0)) : nil }
        let percent = fraction.map { String(format: "%3d%%", Int($0 * 100)) }
        let sizes =
            progress.total.map {
                tr("{received} of {total}", ["received": Words.bytes(received), "total": Words.bytes(Int($0))])
            } ?? Words.bytes(received)
        let speed =
            progress.bytesPerSecond > 0 ? " \(marks.middleDot) \(Words.bytes(Int(progress.bytesPerSecond)))/s" : ""
        func bar(_ cells: Int) -> String {
            guard let fraction, cells > 0 else { return "" }
            let filled = Int((fraction * Double(cells)).rounded(.down))
            return "[" + String(repeating: marks.unicode ? "█" : "#", count: filled)
                + String(repeating: marks.unicode ? "░" : "-", count: cells - filled) + "]  "
        }
        // `48%  164 kB of 342 kB · 1.2 MB/s`; without a total, the bytes so far stand for the percent.
        func tail(sizes withSizes: Bool, speed withSpeed: Bool) -> String {
            let parts = [percent, withSizes || percent == nil ? sizes : nil].compactMap { $0 }
            return parts.joined(separator: "  ") + (withSpeed ? speed : "")
        }
        // From the whole line to the least: the arrow, 8 cells of title and the percent.
        let shapes = [
            (bar(20), tail(sizes: true, speed: true)), (bar(20), tail(sizes: true, speed: false)),
            (bar(10), tail(sizes: true, speed: false)), (bar(10), tail(sizes: false, speed: false)),
            ("", tail(sizes: false, speed: false)),
        ]
        let title = SafeText.visibleControls(title)
        for (index, (barText, tailText)) in shapes.enumerated() {
            let room = width - 1 - DisplayWidth.of(barText) - DisplayWidth.of(tailText) - 4
            guard room >= 8 || index == shapes.count - 1 else { continue }
            let name = DisplayWidth.truncate(title, to: max(1, room), ellipsis: marks.ellipsis)
            return "\(marks.downArrow) \(name)  \(barText)\(tailText)"
        }
        return ""
    }
}
