// shelf-bench: the shelf's speed targets of docs/performance.md, measured in a release build.
//
//   make bench (swift build -c release --static-swift-stdlib && .build/release/shelf-bench)
//
// A shelf of 1 000 loans (each read, each with a file on disk), 5 000 bookmarks and 5 000
// highlights. Measures, as medians:
//   - saving a reading position (ShelfStore.savePosition, what the reader does on a page turn);
//   - reading the shelf from the database (ShelfStore.shelf, the query behind `shelf`);
//   - `shelf` end to end inside bok: the command as a patron runs it, with the library offline
//     (so the shelf comes from the database), timed by bok's own BOK_LOG=debug line.
import BenchSupport
import Catalog
import Foundation
import GRDB
import Reader
import Shelf

func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bok")
guard FileManager.default.isExecutableFile(atPath: binary.path) else {
    FileHandle.standardError.write(
        Data(
            """
            shelf-bench: build bok first (make bench, or swift build -c release --static-swift-stdlib); \
            \(binary.path) is missing\n
            """
            .utf8))
    exit(1)
}

let work = FileManager.default.temporaryDirectory.appendingPathComponent("shelf-bench-\(getpid())")
// SHELF_BENCH_KEEP=1 keeps the filled home, to profile bok on it (printed at the end).
defer {
    if ProcessInfo.processInfo.environment["SHELF_BENCH_KEEP"] == nil {
        try? FileManager.default.removeItem(at: work)
    } else {
        print("kept: \(work.path)")
    }
}
var environment = ProcessInfo.processInfo.environment
environment["XDG_DATA_HOME"] = work.appendingPathComponent("data").path
environment["XDG_CONFIG_HOME"] = work.appendingPathComponent("config").path
// A library nobody answers at: the shelf shows what is stored, as offline.
environment["BOK_LIBRARY_URL"] = "http://127.0.0.1:9/library/v3.0"
environment["BOK_SERVICE_ID"] = "bench"
environment["BOK_SERVICE_KEY"] = "bench"
environment["BOK_LOG"] = "debug"
environment["NO_COLOR"] = "1"

/// Runs bok with `input` on stdin; returns stderr.
@MainActor func runBok(_ arguments: [String], input: String) throws -> String {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    // The shelf itself is not needed, and a full stdout pipe would stop bok.
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let errors = Data(stderr.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    return String(decoding: errors, as: UTF8.self)
}

// 1. bok makes the database and its library profile.
_ = try runBok(["shelf"], input: "")
let database = try ShelfDatabase.open(at: work.appendingPathComponent("data/bok/shelf.sqlite"))
let store = ShelfStore(database: database)
guard let profileID = try store.libraries().first?.id else { fatalError("bok made no library profile") }

// 2. Fill it: 1 000 loans, each with a position and a recorded file; 5 000 bookmarks, 5 000 highlights.
let today = DayDate(Date(), in: TimeZone(identifier: "Europe/Stockholm")!)
let card = "1001"
let firstNames = ["Anna", "Åsa", "Erik", "Örjan", "Karin", "Lars", "Émile", "Maja", "Nils", "Ärla"]
let lastNames = [
    "Andersson", "Åkesson", "Berg", "Ek", "Lindgren", "Zetterberg", "Ås", "Östlund", "Ringqvist", "Ärnlund",
]
let fill = now()
try database.writer.write { db in
    for i in 0..<1_000 {
        let author = "\(firstNames[i % 10]) \(lastNames[(i / 10) % 10])"
        try LoanRecord(
            libraryProfile: profileID, card: card, loanID: "L\(i)", productID: "p\(i)", title: "Bok nummer \(i) om Åre",
            authors: author, expiryDate: today.adding(days: 1 + i % 28), createdDate: Date(), syncedAt: Date()
        ).insert(db)
        try DownloadRecord(
            productID: "p\(i)", loanID: "L\(i)", path: "/books/p\(i).epub", size: 300_000,
            sha256: String(repeating: "a", count: 64), downloadedAt: Date()
        ).insert(db)
    }
    try db.execute(sql: "UPDATE libraryProfile SET lastSyncedAt = ? WHERE id = ?", arguments: [Date(), profileID])
}
for i in 0..<1_000 {
    try store.recordBookIdentity(productID: "p\(i)", bookID: BookID(rawValue: "epub:p\(i)"))
    try store.savePosition(
        Locator(spineIndex: i % 20, offset: i * 7, snippet: "Det var en gång"), percent: Double(i % 100),
        bookID: BookID(rawValue: "epub:p\(i)"))
}
for i in 0..<5_000 {
    let book = BookID(rawValue: "epub:p\(i % 1_000)")
    try store.addBookmark(Locator(spineIndex: i % 30, offset: i, snippet: "bokmärke \(i)"), bookID: book)
    try store.saveHighlight(
        Highlight(
            start: Locator(spineIndex: i % 30, offset: i), end: Locator(spineIndex: i % 30, offset: i + 40),
            color: .yellow, note: i % 3 == 0 ? "anteckning" : nil, text: "en mening att minnas"),
        bookID: book)
}
try store.setSetting(ShelfStore.lastCardKey(profileID), to: card)
print(
    """
    shelf of \(try store.loans().count) loans, \(try store.annotationCount()) bookmarks and highlights (filled in \
    \(Int(now() - fill)) ms)
    """
)

// 3. Saving a position, as on a page turn.
var saves: [Double] = []
for i in 0..<2_000 {
    let start = now()
    try store.savePosition(
        Locator(spineIndex: i % 20, offset: i, snippet: "sida"), percent: Double(i % 100), bookID: "epub:p7")
    saves.append(now() - start)
}
print(
    """
    save a reading position: median \(ms(median(saves))), p95 \(ms(percentile(saves, 0.95))) (2000 saves; target \
    < 2 ms)
    """
)

// 4. The shelf from the database.
var reads: [Double] = []
let scope = ShelfScope(profileID: profileID, card: card)
for _ in 0..<31 {
    let start = now()
    let shelf = try store.shelf(today: today, scope: scope)
    precondition(shelf.entries(.loans).count == 1_000)
    reads.append(now() - start)
}
print("ShelfStore.shelf (query and badges): median \(ms(median(reads))), p95 \(ms(percentile(reads, 0.95))) (31 runs)")

// 5. `shelf` in bok, end to end, offline.
let stderr = try runBok([], input: String(repeating: "shelf\n", count: 31) + "quit\n")
let times = stderr.split(separator: "\n").compactMap { line -> Double? in
    guard line.contains("command=shelf"), let match = line.firstMatch(of: /ms=([0-9.]+)/) else { return nil }
    return Double(match.1)
}
guard times.count == 31 else {
    print("bok printed \(times.count) timings, not 31:\n\(stderr.prefix(2_000))")
    exit(1)
}
// The first run opens the database; the rest are what a patron sees each time.
print(
    "shelf in bok (1000 loans, rendered, offline): median \(ms(median(Array(times.dropFirst())))), "
        + "p95 \(ms(percentile(Array(times.dropFirst()), 0.95))), first \(ms(times[0])) (target < 30 ms)")

// 6. A shelf of 10 000 books (issue 34): the 1 000 loans above, 6 000 ended loans and 3 000 samples,
// each with a reading position; `bok shelf` as one process, start to exit, as a shell runs it.
try database.writer.write { db in
    for i in 1_000..<7_000 {
        let author = "\(firstNames[i % 10]) \(lastNames[(i / 10) % 10])"
        try LoanRecord(
            libraryProfile: profileID, card: card, loanID: "L\(i)", productID: "p\(i)", title: "Bok nummer \(i) om Åre",
            authors: author, expiryDate: today.adding(days: -(i % 300)), createdDate: Date(), active: false,
            endedAt: Date(timeIntervalSinceNow: -Double(i % 300) * 86_400), syncedAt: Date()
        ).insert(db)
    }
    for i in 7_000..<10_000 {
        try SampleRecord(
            card: card, productID: "p\(i)", title: "Provläsning \(i)", authors: "\(firstNames[i % 10]) Berg",
            addedAt: Date(), path: "/books/sample-p\(i).epub"
        ).insert(db)
    }
}
for i in 1_000..<10_000 {
    try store.recordBookIdentity(productID: "p\(i)", bookID: BookID(rawValue: "epub:p\(i)"))
    try store.savePosition(
        Locator(spineIndex: i % 20, offset: i * 7, snippet: "Det var en gång"), percent: Double(i % 100),
        bookID: BookID(rawValue: "epub:p\(i)"))
}
var bigReads: [Double] = []
for _ in 0..<11 {
    let start = now()
    _ = try store.shelf(today: today, scope: scope)
    bigReads.append(now() - start)
}
print("ShelfStore.shelf at 10 000 books: median \(ms(median(bigReads))), p95 \(ms(percentile(bigReads, 0.95)))")
// As a patron runs it: no debug log (which the timings above read).
environment["BOK_LOG"] = "error"
var whole: [Double] = []
for _ in 0..<11 {
    guard let elapsed = timedRun(binary.path, ["shelf"], environment: environment) else {
        print("bok shelf failed on the filled shelf (kept with SHELF_BENCH_KEEP=1)")
        exit(1)
    }
    whole.append(elapsed)
}
print(
    "bok shelf, one process (10 000 books: 1 000 loans, 6 000 ended, 3 000 samples): median "
        + "\(ms(median(Array(whole.dropFirst())))), p95 \(ms(percentile(Array(whole.dropFirst()), 0.95))), "
        + "first \(ms(whole[0])) (target < 50 ms)")
