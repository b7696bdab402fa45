// bok-bench: the speed targets of docs/performance.md, measured in a release build.
//
//   make bench (swift build -c release --static-swift-stdlib && .build/release/bok-bench [--quick])
//   bok-bench --opds: the feed parsing alone (for perf, or two builds side by side)
//
// Reports medians (and p95 where asked) for: start-up to the prompt, search end to end on
// loopback against a 200 000-book mock, sorting 10 000 results by author in Swedish order, and
// parsing a 5 000-entry OPDS acquisition feed (Atom, as calibre writes them; and OPDS 2 JSON).
import BenchSupport
import Catalog
import Foundation
import MockLending

let quick = CommandLine.arguments.contains("--quick")
/// `--opds`: only the feed parsing, for profiling it and for builds side by side.
let opdsOnly = CommandLine.arguments.contains("--opds")

func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

/// Time from starting `bok --mock` to its prompt: the banner's last line is printed just before it.
func startupTimes(runs: Int) throws -> [Double] {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "bok")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw NSError(
            domain: "bench", code: 1,
            userInfo: [NSLocalizedDescriptionKey: "build bok first: \(binary.path) is missing"])
    }
    var times: [Double] = []
    for _ in 0..<runs {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--mock"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = NSTemporaryDirectory() + "bok-bench"
        process.environment = environment
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        let start = now()
        try process.run()
        var seen = Data()
        // availableData returns what has arrived; read(upToCount:) would wait for a full buffer.
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
            seen.append(chunk)
            if String(decoding: seen, as: UTF8.self).contains("Type help for commands") { break }
        }
        times.append(now() - start)
        try input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
    return times
}

func sortTimes(runs: Int) -> [Double] {
    let products = Array(CatalogGenerator(seed: 7, size: 10_000).generate().products)
    let ordering = ProductOrdering(collation: Collation(.swedish))
    var times: [Double] = []
    for _ in 0..<runs {
        let start = now()
        let sorted = ordering.sorted(products, by: SortSpec(.author))
        times.append(now() - start)
        precondition(sorted.count == products.count)
    }
    return times
}

/// A 5 000-entry acquisition feed shaped like calibre's: title, author, summary, categories,
/// cover and EPUB links, in Atom; and the same as OPDS 2 JSON.
func opdsFeeds(entries: Int) -> (atom: Data, json: Data) {
    let products = CatalogGenerator(seed: 3, size: entries).generate().products
    var atom =
        #"""
        <?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" \#
        xmlns:dc="http://purl.org/dc/terms/" \#
        xmlns:opds="http://opds-spec.org/2010/catalog"><id>urn:bench</id><title>Bench</title><updated>\#
        2026-11-25T10:00:00Z</updated>
        """#
    var publications: [String] = []
    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
    func json(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
    for product in products {
        let author = product.authors.first?.fullName ?? "Okänd"
        atom +=
            """
            <entry><id>urn:\(product.id)</id><title>\(escape(product.title))</title><updated>\
            2026-11-25T10:00:00Z</updated>
            """
            + "<author><name>\(escape(author))</name></author><dc:language>\(product.language ?? "sv")</dc:language>"
            + "<summary>\(escape(product.description ?? ""))</summary>"
            + product.categories.map { "<category term=\"\(escape($0))\" label=\"\(escape($0))\"/>" }.joined()
            + "<link rel=\"http://opds-spec.org/image\" type=\"image/png\" href=\"/get/cover/\(product.id)\"/>"
                + """
                <link rel=\"http://opds-spec.org/acquisition\" type=\"application/epub+zip\" \
                href=\"/get/epub/\(product.id)\"/></entry>
                """
        publications.append(
            #"""
            {"metadata":{"title":"\#(json(product.title))","author":"\#(json(author))",\#
            "language":"\#(product.language ?? "sv")","description":"\#(json(product.description ?? ""))"},\#
            "links":[{"rel":"http://opds-spec.org/acquisition","type":"application/epub+zip",\#
            "href":"/get/epub/\#(product.id)"}],"images":[{"href":"/get/cover/\#(product.id)","type":"image/png"}]}
            """#
        )
    }
    atom += "</feed>"
    let json =
        #"""
        {"metadata":{"title":"Bench"},"links":[{"rel":"self","href":"/opds2","type":"application/opds+json"}],\#
        "publications":[
        """#
        + publications.joined(separator: ",") + "]}"
    return (Data(atom.utf8), Data(json.utf8))
}

/// The thread's CPU time in milliseconds: on a machine other builds share, it moves less than the wall time.
func threadCPU() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
}

/// Wall and thread CPU times of parsing `data`, in milliseconds.
func parseTimes(_ data: Data, runs: Int) throws -> (wall: [Double], cpu: [Double]) {
    let base = URL(string: "http://127.0.0.1:8080/opds")!
    var times: [Double] = []
    var cpu: [Double] = []
    for _ in 0..<runs {
        let start = now()
        let startCPU = threadCPU()
        let feed = try OPDSParser.feed(data, base: base)
        cpu.append(threadCPU() - startCPU)
        times.append(now() - start)
        precondition(feed.entries.count == 5_000, "parsed \(feed.entries.count) entries")
    }
    return (times, cpu)
}

print("bok-bench (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
if !opdsOnly {
    let startup = try startupTimes(runs: quick ? 5 : 21)
    print(
        """
        start-up to prompt (bok --mock, 600 books):  median \(ms(median(startup)))  p95 \
        \(ms(percentile(startup, 0.95)))   target < 100 ms
        """
    )

    let sorting = sortTimes(runs: quick ? 5 : 31)
    print(
        """
        sort 10 000 results by author (Swedish):      median \(ms(median(sorting)))  p95 \
        \(ms(percentile(sorting, 0.95)))   target < 20 ms
        """
    )
}

let (atomFeed, jsonFeed) = opdsFeeds(entries: 5_000)
let atomParse = try parseTimes(atomFeed, runs: quick ? 3 : opdsOnly ? 31 : 11)
print(
    """
    parse a 5 000-entry OPDS feed, Atom (\(atomFeed.count >> 10) KB):   median \(ms(median(atomParse.wall)))  p95 \
    \(ms(percentile(atomParse.wall, 0.95)))  CPU \(ms(median(atomParse.cpu)))   target < 40 ms
    """
)
let jsonParse = try parseTimes(jsonFeed, runs: quick ? 3 : opdsOnly ? 31 : 11)
print(
    """
    parse a 5 000-entry OPDS 2 feed, JSON (\(jsonFeed.count >> 10) KB): median \(ms(median(jsonParse.wall)))  p95 \
    \(ms(percentile(jsonParse.wall, 0.95)))  CPU \(ms(median(jsonParse.cpu)))   target < 40 ms
    """
)
if opdsOnly { exit(0) }

let size = quick ? 20_000 : 200_000
let search = try await MockBenchmarks.searchLatencies(
    catalogSize: size, queries: MockBenchmarks.benchQueries, runs: quick ? 3 : 10)
print(
    """
    mock with \(size) books generated in          \(String(format: "%.2f s", search.generationSeconds))   target \
    < 0.5 s at 200 000
    """
)
print(
    """
    search end to end on loopback (\(search.latenciesMs.count) searches): p50 \
    \(ms(percentile(search.latenciesMs, 0.5)))  p95 \(ms(percentile(search.latenciesMs, 0.95)))   target p95 < 5 ms
    """
)
