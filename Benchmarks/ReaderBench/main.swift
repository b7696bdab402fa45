import BenchSupport
import Foundation
import MockLending
import Reader
import Terminal

// reader-bench: makes a novel-length EPUB and measures the reader on it.
//
//   reader-bench generate OUT.epub [--shape novel|nested-toc|many-small|huge-chapter|images|cover-page|picture-book]
//                                  [--chapters 60] [--bytes 3500000]
//   reader-bench generate-library DIR [--count 5000]        small books with their own metadata, for calibre
//   reader-bench read FILE [--first-frame] [--badge TEXT]   the full-screen reader (a pty test drives it)
//   reader-bench measure FILE [--columns 120] [--rows 40]   page turn, search, re-layout, memory, in-process
//
// Benchmarks/reader-bench.sh runs all of it, and epy, in a 120×40 pseudo-terminal;
// Benchmarks/calibre-bench.py puts a generated library in calibre and times bok browsing it.
#if canImport(Glibc)
import Glibc
#endif

func argument(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Arithmetic that takes the same time on every call (a few tenths of a millisecond).
@inline(never) func fixedWork() -> UInt64 {
    var x: UInt64 = 88_172_645_463_325_252
    for _ in 0..<300_000 {
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
    }
    return x
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, arguments.count >= 2 else {
    fail(
        "usage: reader-bench generate OUT.epub | generate-library DIR [--count N] | read FILE [--first-frame] "
            + "| measure FILE")
}
let path = arguments[1]

switch command {
case "generate":
    let shape = argument("--shape", in: arguments) ?? "novel"
    guard var generator = NovelGenerator.shapes[shape] else {
        fail("unknown shape \(shape); choose one of \(NovelGenerator.shapes.keys.sorted().joined(separator: ", "))")
    }
    if let chapters = argument("--chapters", in: arguments).flatMap(Int.init) { generator.chapters = chapters }
    if let bytes = argument("--bytes", in: arguments).flatMap(Int.init) { generator.textBytes = bytes }
    let files = generator.files()
    var zip = ZipWriter()
    for (name, bytes, compress) in files { zip.add(name, bytes, method: compress ? .deflated : .stored) }
    let archive = zip.finish()
    guard FileManager.default.createFile(atPath: path, contents: Data(archive)) else { fail("could not write \(path)") }
    let text = files.filter { $0.0.hasSuffix(".xhtml") }.reduce(0) { $0 + $1.1.count }
    print("wrote \(path): \(shape), \(archive.count) bytes, \(generator.chapters) chapters, \(text) bytes of XHTML")

case "generate-library":
    let count = argument("--count", in: arguments).flatMap(Int.init) ?? 5_000
    guard count > 0, count <= LibraryGenerator.capacity else {
        fail("--count must be from 1 to \(LibraryGenerator.capacity)")
    }
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        fail("could not make \(path): \(error.localizedDescription)")
    }
    var zipped = 0
    var text = 0
    for number in 0..<count {
        var book = LibraryGenerator.book(number)
        let files = book.files()
        var zip = ZipWriter()
        for (name, bytes, compress) in files { zip.add(name, bytes, method: compress ? .deflated : .stored) }
        let archive = zip.finish()
        let file = path + "/" + String(format: "book-%05d.epub", number + 1)
        guard FileManager.default.createFile(atPath: file, contents: Data(archive)) else {
            fail("could not write \(file)")
        }
        zipped += archive.count
        text += files.filter { $0.0.hasPrefix("OEBPS/ch") }.reduce(0) { $0 + $1.1.count }
    }
    print("wrote \(count) books to \(path): \(zipped) bytes zipped, \(text / count) bytes of chapter XHTML a book")

case "read":
    do {
        try ReaderApp.run(
            path: path, store: InMemoryPositionStore(), badge: argument("--badge", in: arguments),
            capabilities: .detect(), firstFrameOnly: arguments.contains("--first-frame"))
    } catch {
        fail(error.message)
    }

case "measure":
    let columns = argument("--columns", in: arguments).flatMap(Int.init) ?? 120
    let rows = argument("--rows", in: arguments).flatMap(Int.init) ?? 40
    let clock = ContinuousClock()
    func ms(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
    let capabilities = TerminalCapabilities(isTTY: true, colorDepth: .trueColor, unicode: true)

    var view: ReaderView!
    let open = clock.measure {
        let book = try! EPUBBook.open(path: path)
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: columns, rows: rows - 1)
        view = ReaderView(session: session, capabilities: capabilities, badge: "12 days", columns: columns, rows: rows)
        _ = view.renderedRows()
    }
    print(String(format: "first frame in-process: %.2f ms", ms(open)))
    // Where a first frame's time goes: converting the first chapter, and laying it out (a fresh
    // copy of the book, so nothing is cached from the frame above).
    do {
        let fresh = BookContent(book: try! EPUBBook.open(path: path))
        let first = fresh.book.readingOrder.first ?? 0
        var document: ChapterDocument!
        let convert = clock.measure { document = fresh.document(at: first) }
        var lines = 0
        let settings = view.session.layout.settings
        let layout = clock.measure {
            lines = ChapterLayout.make(document, spineIndex: first, settings: settings).lines.count
        }
        print(
            String(
                format: "first chapter (%d characters): convert %.1f ms, lay out %.1f ms (%d lines)",
                document.plainText.utf16.count, ms(convert), ms(layout), lines))
    }

    // What the reader does once its first frame is drawn: count every chapter's pages on a thread
    // of its own (which first readies the chapter on screen for finding places in it), while the
    // patron reads the page. Turns are timed from a moment later, a reader's first key.
    let counting = view.session.layout
    let count = BackgroundResult { ContinuousClock().measure { counting.computePageCounts() } }
    usleep(300_000)

    // Keys 10 ms apart, quicker than a held key repeats (25–30 a second): the reader makes the
    // next chapter ready between keys, as it does while a patron reads. Beside each turn, the same
    // arithmetic every time is timed too: where it is slow as well, the machine was (a shared
    // 2-core machine takes a core away now and then), not the reader.
    var turns: [Double] = []
    var fixed: [Double] = []
    var sink: UInt64 = 0
    for _ in 0..<300 {
        usleep(10_000)
        let turn = clock.measure {
            _ = view.handle(.character(" "))
            _ = view.renderedRows().joined()
        }
        turns.append(ms(turn))
        fixed.append(ms(clock.measure { sink &+= fixedWork() }))
    }
    print(
        String(
            format: "page turn (key to frame text): median %.3f ms, 99th percentile %.2f ms, max %.2f ms "
                + "over %d turns", median(turns), percentile(turns, 0.99), turns.max()!, turns.count))
    if sink == 1 { print("") }  // uses the arithmetic's result, so that it is not left out
    print(
        String(
            format: "the same arithmetic beside each turn (the machine's jitter): median %.3f ms, "
                + "99th percentile %.2f ms, max %.2f ms", median(fixed), percentile(fixed, 0.99), fixed.max()!))

    var session = view.session
    let content = session.content
    let cold = clock.measure { _ = try! content.search("lighthouse|ferryman") }
    var warmRuns: [Double] = []
    var hits = 0
    for _ in 0..<5 {
        warmRuns.append(ms(clock.measure { hits = try! content.search("lighthouse|ferryman").count }))
    }
    print(
        String(
            format:
                """
                whole-book search: cold (converting every chapter) %.1f ms, warm median %.1f ms, %d hits (capped \
                at 2000)
                """,
            ms(cold), median(warmRuns), hits))
    let literal = clock.measure { _ = try! content.search("the gulls followed", limit: 100_000) }
    print(String(format: "whole-book search, plain phrase, all hits: %.1f ms", ms(literal)))

    let countTime = ms(count.value)
    let pages = session.layout.pageNumber(of: PagePosition(spineIndex: 0, page: 0))?.total ?? 0
    print(
        String(
            format: "page count at %d×%d (background task, beside the turns): %.1f ms, %d pages", columns, rows,
            countTime, pages))
    var relayouts: [Double] = []
    for width in [90, 70, 110] {
        relayouts.append(
            ms(
                clock.measure {
                    session.resize(columns: width, rows: rows - 1)
                    _ = session.visiblePages()
                }))
    }
    print(String(format: "re-layout to a new width, page on screen: median %.2f ms", median(relayouts)))
    let full = clock.measure {
        session.resize(columns: 100, rows: rows - 1)
        session.layout.computePageCounts()
    }
    print(String(format: "full re-layout of the whole book at a new width: %.1f ms", ms(full)))
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    print("peak memory (max RSS) of this process: \(usage.ru_maxrss / 1024) MB")

default:
    fail("unknown command \(command)")
}
