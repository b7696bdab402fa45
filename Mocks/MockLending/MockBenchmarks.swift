import Catalog
import Foundation
import Logging

/// Measurements of the mock server for `bok-bench` (run them in a release build).
public enum MockBenchmarks {
    /// Queries that exercise the index: words, a prefix, a field term, a phrase, the whole catalogue.
    public static let sampleQueries = [
        "thriller", "author:Å*", "döden", "title:sommar*", "\"huset vid sjön\"", "", "stjärn",
        "category:fantasy drakens",
    ]

    /// The queries `bok-bench` and `mock-bench` time: common words, prefixes, field terms, filters' words.
    public static let benchQueries = [
        "thriller", "author:Å*", "sommar", "category:Deckare", "the", "öland", "title:natt*", "fantasy drake",
        "isbn:978*", "publisher:norrsken", "barn", "klassiker", "mörker*", "language:en", "kärlek", "biografi",
    ]

    /// Starts a server with `catalogSize` products and times end-to-end searches through
    /// `HTTPLendingService` on loopback.
    /// - Parameters:
    ///   - queries: Query texts; each run sends every query once, with sorts in turn.
    ///   - runs: How many times to send the whole list (after one warm-up round, not timed).
    /// - Returns: Seconds from start to listening (catalogue generation plus indexing) and each
    ///   search's latency in milliseconds.
    public static func searchLatencies(
        catalogSize: Int = 200_000, queries: [String], runs: Int
    ) async throws
        -> (generationSeconds: Double, latenciesMs: [Double])
    {
        let quiet = Logger(label: "bok.mock.bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let configuration = MockConfiguration(catalogSize: catalogSize)
        let server = try await MockLendingServer.start(configuration, logger: quiet)
        let client = HTTPLendingService(
            endpoint: LibraryEndpoint(
                baseURL: server.baseURL, serviceID: configuration.serviceID,
                serviceKey: configuration.serviceKey))
        let sorts: [SortSpec] = [
            SortSpec(.relevance), SortSpec(.title), SortSpec(.author, .descending), SortSpec(.popularity),
            SortSpec(.date),
        ]
        var latencies: [Double] = []
        latencies.reserveCapacity(runs * queries.count)
        do {
            for round in 0...runs {
                for (number, text) in queries.enumerated() {
                    let request = SearchRequest(query: text, sort: sorts[(round + number) % sorts.count], limit: 20)
                    let started = ContinuousClock.now
                    _ = try await client.search(request)
                    let elapsed = started.duration(to: .now)
                    if round > 0 { latencies.append(MockLendingServer.seconds(elapsed) * 1_000) }
                }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return (server.preparationSeconds, latencies)
    }
}
