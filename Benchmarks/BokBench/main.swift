// bok-bench: the speed targets of docs/performance.md, measured in a release build.
//
//   make bench (swift build -c release --static-swift-stdlib && .build/release/bok-bench [--quick])
//
// Reports medians (and p95 where asked) for: start-up to the prompt, search end to end on
// loopback against a 200 000-book mock, and sorting 10 000 results by author in Swedish order.
import Catalog
import Foundation
import MockLending

let quick = CommandLine.arguments.contains("--quick")

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

/// Time from starting `bok --mock` to its prompt: the banner's last line is printed just before it.
func startupTimes(runs: Int) throws -> [Double] {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bok")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw NSError(domain: "bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "build bok first: \(binary.path) is missing"])
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
    let products = CatalogGenerator(seed: 7, size: 10_000).generate().products
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

let queries = ["thriller", "author:Å*", "sommar", "category:Deckare", "the", "öland", "title:natt*", "fantasy drake",
               "isbn:978*", "publisher:norrsken", "barn", "klassiker", "mörker*", "language:en", "kärlek", "biografi"]

print("bok-bench (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)")
let startup = try startupTimes(runs: quick ? 5 : 21)
print("start-up to prompt (bok --mock, 600 books):  median \(ms(median(startup)))  p95 \(ms(percentile(startup, 0.95)))   target < 100 ms")

let sorting = sortTimes(runs: quick ? 5 : 31)
print("sort 10 000 results by author (Swedish):      median \(ms(median(sorting)))  p95 \(ms(percentile(sorting, 0.95)))   target < 20 ms")

let size = quick ? 20_000 : 200_000
let search = try await MockBenchmarks.searchLatencies(catalogSize: size, queries: queries, runs: quick ? 3 : 10)
print("mock with \(size) books generated in          \(String(format: "%.2f s", search.generationSeconds))")
print("search end to end on loopback (\(search.latenciesMs.count) searches): p50 \(ms(percentile(search.latenciesMs, 0.5)))  p95 \(ms(percentile(search.latenciesMs, 0.95)))   target p95 < 50 ms")
