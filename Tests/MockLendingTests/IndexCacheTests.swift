import Catalog
import Foundation
import Logging
import Testing

@testable import MockLending

@Suite("Index cache")
struct IndexCacheTests {
    static let collation = Collation(locale: MockLibraryPage.locale)

    /// A fresh folder for one test's cache files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bok-index-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Queries in every sort and order, over several pages and with filters: what a patron can ask.
    static func answers(_ catalog: GeneratedCatalog) throws -> [String] {
        let search = try #require(catalog.search)
        var answers: [String] = []
        let sorts = SortKey.allCases.flatMap { [SortSpec($0, .ascending), SortSpec($0, .descending)] }
        let queries = MockBenchmarks.benchQueries + ["", "isbn:9789*", "\"huset vid\"", "stjärn", "sjön*"]
        for (number, text) in queries.enumerated() {
            for sort in sorts {
                for offset in [0, 40] {
                    let options = SearchOptions(
                        query: text.isEmpty ? nil : try SearchQuery.parse(text), sort: sort, offset: offset,
                        limit: 20, category: number % 3 == 0 ? "deckare" : nil, language: number % 4 == 1 ? "sv" : nil,
                        publisher: nil, availableOnly: number % 5 == 2)
                    let page = search.search(options) { catalog.licences[$0].isExhausted == false }
                    answers.append("\(text) \(sort) \(offset): \(page.total) \(page.indices)")
                }
            }
        }
        let similar = [0, catalog.products.count / 2].map { search.similarCandidates(to: catalog.products[$0], at: $0) }
        answers.append("similar \(similar)")
        answers.append("licences \(catalog.licences)")
        answers.append("top \(catalog.topByPopularity)")
        answers.append("products \([1, catalog.products.count - 1].map { catalog.products[$0] })")
        return answers
    }

    @Test(
        "A catalogue read from the cache answers as the generated one does",
        arguments: [(1, 3_000), (7, 20_000), (42, 1_200)] as [(UInt64, Int)])
    func sameAnswers(seed: UInt64, size: Int) throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let generator = CatalogGenerator(seed: seed, size: size)
        let built = IndexCache.catalog(generator, collation: Self.collation, directory: directory)
        #expect(!built.fromCache)
        try IndexCache.write(built.catalog, collation: Self.collation, directory: directory)
        let read = IndexCache.catalog(generator, collation: Self.collation, directory: directory)
        #expect(read.fromCache)
        #expect(try Self.answers(read.catalog) == Self.answers(built.catalog))
    }

    /// Writes seed 3's 2 000-book catalogue to a fresh folder and returns the folder and the file.
    static func written() throws -> (directory: URL, file: URL, answers: [String]) {
        let directory = try folder()
        let generator = CatalogGenerator(seed: 3, size: 2_000)
        let catalog = generator.generate(indexingIn: collation)
        try IndexCache.write(catalog, collation: collation, directory: directory)
        return (directory, IndexCache.file(in: directory, for: generator), try answers(catalog))
    }

    static let damages: [String] = ["truncated", "byte flipped", "header only", "empty", "foreign", "other seed"]

    @Test("A damaged, short or foreign cache file is not used: the catalogue is built again", arguments: damages)
    func damagedFileIsRebuilt(damage: String) throws {
        let (directory, file, expected) = try Self.written()
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes = try Data(contentsOf: file)
        switch damage {
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "byte flipped": bytes[bytes.count / 2] ^= 0x40
        case "header only": bytes = bytes.prefix(IndexCache.headerSize)
        case "empty": bytes = Data()
        case "foreign": bytes = Data("<html>not an index</html>".utf8)
        default:
            // Another catalogue's whole file under this one's name.
            let other = CatalogGenerator(seed: 4, size: 2_000)
            try IndexCache.write(
                other.generate(indexingIn: Self.collation), collation: Self.collation, directory: directory)
            bytes = try Data(contentsOf: IndexCache.file(in: directory, for: other))
        }
        try bytes.write(to: file)
        let generator = CatalogGenerator(seed: 3, size: 2_000)
        #expect(IndexCache.load(file.path, generator: generator, collation: Self.collation) == nil)
        let again = IndexCache.catalog(generator, collation: Self.collation, directory: directory)
        #expect(!again.fromCache)
        #expect(try Self.answers(again.catalog) == expected)
    }

    @Test("A server with a large catalogue writes the cache at its first start and reads it at the next")
    func serverUsesTheCache() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = MockConfiguration(seed: 5, catalogSize: 1_500)
        configuration.indexCacheDirectory = directory
        configuration.indexCacheMinimumSize = 1_000
        let first = try await MockLendingServer.start(
            configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(!first.library.indexFromCache)
        await first.stop()
        let file = IndexCache.file(in: directory, for: CatalogGenerator(seed: 5, size: 1_500))
        #expect(FileManager.default.fileExists(atPath: file.path))
        let second = try await MockLendingServer.start(
            configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        #expect(second.library.indexFromCache)
        #expect(try Self.answers(second.library.catalog) == Self.answers(first.library.catalog))
        await second.stop()
    }
}

@Suite("Search pages by walking the sort orders")
struct SortWalkTests {
    @Test("Walking the precomputed orders gives the pages sorting the hits gives")
    func walkingEqualsSorting() throws {
        let catalog = CatalogGenerator(seed: 11, size: 4_000).generate(indexingIn: IndexCacheTests.collation)
        let search = try #require(catalog.search)
        let sorts = SortKey.allCases.flatMap { [SortSpec($0, .ascending), SortSpec($0, .descending)] }
        let queries = MockBenchmarks.benchQueries + ["", "sommar natt", "language:sv", "a*", "\"huset vid\""]
        var compared = 0
        for text in queries {
            for sort in sorts {
                for (offset, limit) in [(0, 20), (20, 20), (1_000, 100), (0, 4_000)] {
                    for availableOnly in [false, true] {
                        let options = SearchOptions(
                            query: text.isEmpty ? nil : try SearchQuery.parse(text), sort: sort, offset: offset,
                            limit: limit, category: nil, language: nil, publisher: nil, availableOnly: availableOnly)
                        let available = { (index: Int) in !catalog.licences[index].isExhausted }
                        let walked = search.search(options, walking: true, isAvailable: available)
                        let sorted = search.search(options, walking: false, isAvailable: available)
                        #expect(walked.total == sorted.total, "\(text) \(sort)")
                        #expect(walked.indices == sorted.indices, "\(text) \(sort) \(offset) \(availableOnly)")
                        compared += walked.indices.count
                    }
                }
            }
        }
        #expect(compared > 100_000)
    }

    @Test("Sorting 16 bits at a time orders keys as a comparison sort does")
    func radixSort() {
        var rng = SplitMix64(seed: 5)
        for (count, bits) in [(0, 48), (1, 16), (70_000, 48), (5_000, 56), (3_000, 20)] {
            let keys = (0..<count).map { _ in rng.next() & (UInt64.max >> (64 - bits)) }
            #expect(SortRanks.radixSorted(keys, bits: bits) == keys.sorted(), "\(count) keys of \(bits) bits")
        }
    }
}

@Suite("Hits of recent queries kept")
struct MatchCacheTests {
    @Test("A query asked again answers from the kept hits as a search that never saw it does")
    func keptHitsAnswerTheSame() throws {
        let catalog = CatalogGenerator(seed: 13, size: 3_000).generate(indexingIn: IndexCacheTests.collation)
        let search = try #require(catalog.search)
        let queries = MockBenchmarks.benchQueries + ["", "sommar natt", "a*", "zzzz"]
        for round in 0..<2 {
            for text in queries {
                for sort in [SortSpec(.relevance), SortSpec(.title, .descending), SortSpec(.rating)] {
                    let options = SearchOptions(
                        query: text.isEmpty ? nil : try SearchQuery.parse(text), sort: sort, offset: 20 * round,
                        limit: 20, category: round == 1 ? "deckare" : nil)
                    let fresh = CatalogSearch(products: search.products, index: search.index, ranks: search.ranks)
                    let never = fresh.search(options) { _ in true }
                    let kept = search.search(options) { _ in true }
                    #expect(kept.total == never.total, "\(text)")
                    #expect(kept.indices == never.indices, "\(text) \(sort)")
                }
            }
        }
    }

    @Test("Hits sorted by product index, whether many or few")
    func sortedHits() {
        let few = SearchIndex.Hits(indices: [9, 2, 5], scores: [1, 2, 3])
        #expect(MatchCache.sorted(few, count: 1_000).indices == [2, 5, 9])
        #expect(MatchCache.sorted(few, count: 1_000).scores == [2, 3, 1])
        #expect(MatchCache.sorted(few, count: 10).indices == [2, 5, 9])
        #expect(MatchCache.sorted(few, count: 10).scores == [2, 3, 1])
    }
}
