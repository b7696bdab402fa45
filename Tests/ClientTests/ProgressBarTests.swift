import Foundation
import Shelf
import Synchronization
import Terminal
import Testing

@testable import Client

@Suite("The download progress bar")
struct ProgressBarTests {
    @Test("Bytes, percent, rate and a bar, redrawn on one line and cleared at the end")
    func redraws() {
        let written = Written()
        let bar = DownloadProgressBar(marks: Marks(unicode: true), width: 100) { written.add($0) }
        let report = bar.start(title: "Fritt fall")
        let kB: Int64 = 1024
        report(BookDownloader.Progress(received: 164 * kB, total: 342 * kB, bytesPerSecond: 1_300_000))
        report(BookDownloader.Progress(received: 342 * kB, total: 342 * kB, bytesPerSecond: 1_363_148))
        bar.finish()
        let all = written.all
        #expect(all.count == 3)
        #expect(
            all[0] == "\r↓ Fritt fall  [█████████░░░░░░░░░░░]   47%  164 kB of 342 kB · 1.2 MB/s\u{1B}[K", "\(all[0])")
        #expect(all[1].contains("[████████████████████]  100%  342 kB of 342 kB"))
        #expect(all[2] == "\r\u{1B}[K")
    }

    @Test("For a screen reader a line at each quarter, nothing redrawn or cleared")
    func percentLines() {
        let written = Written()
        let bar = DownloadProgressBar(marks: Marks(unicode: true, words: true), width: 100) { written.add($0) }
        let report = bar.start(title: "Fritt fall")
        for received in stride(from: Int64(0), through: 1000, by: 50) {
            report(BookDownloader.Progress(received: received, total: 1000, bytesPerSecond: 9000))
        }
        bar.finish()
        #expect(
            written.all == [25, 50, 75, 100].map { "Fritt fall: \($0)% downloaded\n" }, "\(written.all)")
    }

    @Test("Without a size from the server it counts bytes; ASCII terminals get ASCII")
    func unknownSize() {
        let line = DownloadProgressBar.line(
            title: "Bok", progress: BookDownloader.Progress(received: 5000, total: nil, bytesPerSecond: 0),
            marks: Marks(unicode: false), width: 80)
        #expect(line == "v Bok  4 kB")
    }

    @Test(
        "In a narrow window the line never wraps: the speed, the bar's length and the sizes give way",
        arguments: [
            20, 40, 60, 80, 120,
        ])
    func fitsTheWidth(width: Int) {
        let progress = BookDownloader.Progress(received: 167_936, total: 350_208, bytesPerSecond: 1_258_291)
        for unicode in [true, false] {
            let line = DownloadProgressBar.line(
                title: "Skuggorna över Storsjön och andra berättelser", progress: progress,
                marks: Marks(unicode: unicode), width: width)
            #expect(DisplayWidth.of(line) < width, "\(width) columns: \(line)")
            #expect(line.contains("47%"), "\(line)")
            #expect(line.contains("Skugg"), "the title keeps at least 8 cells: \(line)")
        }
        let wide = DownloadProgressBar.line(
            title: "Fritt fall", progress: progress, marks: Marks(unicode: true), width: 120)
        #expect(wide.contains("164 kB of 342 kB · 1.1 MB/s"), "\(wide)")
    }
}

final class Written: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ text: String) { lines.withLock { $0.append(text) } }
    var all: [String] { lines.withLock { $0 } }
}
