// mock-bench: the mock lending library's speed targets of docs/performance.md, in a release build.
//
//   make bench (swift build -c release --static-swift-stdlib && .build/release/mock-bench [--quick])
//   mock-bench --before OLD-MOCK-BENCH   runs an older build's children in turn with this one's
//
// Measures, as medians of several runs, each in a fresh child process (so that peak memory is one
// catalogue's): the time from starting the server to its first answer being possible (catalogue
// generated and indexed, port open) and the child's peak resident memory (VmHWM), at 200 000
// and 1 000 000 titles, cold (no index cache) and warm (read from the cache the cold run left
// in a scratch $XDG_CACHE_HOME); then search end to end on loopback at 200 000 titles.
//
// --per-query SIZE prints each query's median latency (starting a server per query).
// Child modes (what the parent runs): --child-start SIZE prints "SECONDS PEAK-KB";
// --child-search SIZE prints the search latencies in ms, one line; --serve SEED SIZE prints the
// server's base URL and serves until stdin closes (Benchmarks/mock-compare.py diffs two builds).
import BenchSupport
import Foundation
import Logging
import MockLending

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let quiet = Logger(label: "bok.mock.bench", factory: { _ in SwiftLogNoOpLogHandler() })

/// The peak resident set of this process so far, in kB (Linux's VmHWM).
func peakKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

func value(after flag: String) -> String? {
    guard let at = arguments.firstIndex(of: flag), at + 1 < arguments.count else { return nil }
    return arguments[at + 1]
}

if let size = value(after: "--child-start").flatMap(Int.init) {
    let started = ContinuousClock.now
    let server = try await MockLendingServer.start(MockConfiguration(catalogSize: size), logger: quiet)
    let elapsed = started.duration(to: .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    print(String(format: "%.4f %d", seconds, peakKilobytes()))
    await server.stop()
    exit(0)
}

if let size = value(after: "--child-search").flatMap(Int.init) {
    let search = try await MockBenchmarks.searchLatencies(
        catalogSize: size, queries: MockBenchmarks.benchQueries, runs: quick ? 3 : 10)
    print(search.latenciesMs.map { String(format: "%.4f", $0) }.joined(separator: " "))
    exit(0)
}

// Each query's own median, to see which are slow (not part of make bench).
if let size = value(after: "--per-query").flatMap(Int.init) {
    for query in MockBenchmarks.benchQueries {
        let search = try await MockBenchmarks.searchLatencies(catalogSize: size, queries: [query], runs: 10)
        print(
            String(
                format: "%-22@ median %.2f ms  max %.2f ms", query, median(search.latenciesMs),
                search.latenciesMs.max() ?? .nan))
    }
    exit(0)
}

if let at = arguments.firstIndex(of: "--serve"), at + 2 < arguments.count,
    let seed = UInt64(arguments[at + 1]), let size = Int(arguments[at + 2])
{
    let server = try await MockLendingServer.start(MockConfiguration(seed: seed, catalogSize: size), logger: quiet)
    FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    await server.stop()
    exit(0)
}

/// Runs `binary` with `childArguments` (and its index cache in `cache`, when given) and returns
/// its standard output.
func child(_ binary: String, _ childArguments: [String], cache: URL? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = childArguments
    if let cache {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache.path
        process.environment = environment
    }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(
            domain: "mock-bench", code: Int(process.terminationStatus),
            userInfo: [NSLocalizedDescriptionKey: "\(binary) \(childArguments) failed"])
    }
    return String(decoding: data, as: UTF8.self)
}

let this = URL(fileURLWithPath: arguments[0]).path
let before = value(after: "--before")
let builds = [("this build", this)] + (before.map { [("before", $0)] } ?? [])

func load() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3)
        .joined(separator: " ")
}

print("mock-bench (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores, load \(load()))")
let runs = quick ? 3 : 5
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mock-bench-\(getpid())")
defer { try? FileManager.default.removeItem(at: scratch) }
for size in quick ? [20_000, 200_000] : [200_000, 1_000_000] {
    // The builds take turns, so that a change in the machine's load falls on both. Each run
    // starts cold (an empty cache folder: the index is built, then written as the server stops)
    // and then warm (the same folder: the index is read); an older build without the cache
    // builds its index both times.
    var seconds = [[[Double]]](repeating: [[], []], count: builds.count)
    var peaks = [[[Double]]](repeating: [[], []], count: builds.count)
    for run in 0..<runs {
        for (slot, build) in builds.enumerated() {
            let cache = scratch.appendingPathComponent("\(slot)-\(size)-\(run)")
            for warm in 0..<2 {
                let fields = try child(build.1, ["--child-start", String(size)], cache: cache).split(separator: " ")
                seconds[slot][warm].append(Double(fields[0]) ?? .nan)
                peaks[slot][warm].append(Double(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan)
            }
            try? FileManager.default.removeItem(at: cache)
        }
    }
    let target = [200_000: "   target < 0.5 s", 1_000_000: "   target < 2 s, < 600 MB"][size] ?? ""
    for (slot, build) in builds.enumerated() {
        for (warm, label) in ["cold", "warm"].enumerated() {
            let times = seconds[slot][warm]
            print(
                String(
                    format:
                        "%@: mock with %d titles ready (%@) in  median %.3f s (min %.3f, max %.3f), peak RSS %.0f MB%@",
                    build.0, size, label, median(times), times.min() ?? .nan, times.max() ?? .nan,
                    median(peaks[slot][warm]) / 1024, target))
        }
    }
}

let searchSize = quick ? 20_000 : 200_000
for build in builds {
    let latencies = try child(
        build.1, ["--child-search", String(searchSize)] + (quick ? ["--quick"] : []),
        cache: scratch.appendingPathComponent("search")
    )
    .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    print(
        String(
            format:
                "%@: search end to end on loopback at %d titles (%d searches): p50 %.2f ms  p95 %.2f ms  max %.2f ms",
            build.0, searchSize, latencies.count, percentile(latencies, 0.5), percentile(latencies, 0.95),
            latencies.max() ?? .nan))
}
print("load after: \(load())")
