import Catalog
import Foundation
import Logging
import Shelf
import Synchronization
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Book downloads against the mock library on loopback, with its content faults.
@Suite("Downloading books")
struct DownloadTests {
    /// A started mock and the sample URL of a product that has one.
    static func server() async throws -> (MockLendingServer, URL) {
        let server = try await MockLendingServer.start(
            MockConfiguration(seed: 1, catalogSize: 600, clockRuns: false),
            logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
        let product = try #require(CatalogGenerator(seed: 1, size: 600).generate().products.first { $0.teaser != nil })
        let url = URL(string: "/mock/content/\(product.id)/sample.epub", relativeTo: server.baseURL)!.absoluteURL
        return (server, url)
    }

    static func setFaults(_ json: String, on server: MockLendingServer) async throws {
        var request = URLRequest(url: URL(string: "/mock/faults", relativeTo: server.baseURL)!.absoluteURL)
        request.httpMethod = "POST"
        request.httpBody = Data(json.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("A whole download is renamed into place, with the SHA-256 the server names, and no part file left")
    func whole() async throws {
        let (server, url) = try await Self.server()
        defer { Task { await server.stop() } }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("books/sample.epub")
        let reports = Reports()
        let result = try await BookDownloader().download(from: url, to: target) { reports.add($0) }
        let bytes = try Data(contentsOf: target)
        #expect(bytes.prefix(2) == Data("PK".utf8))
        #expect(result.size == Int64(bytes.count) && result.resumedFrom == 0 && result.refetched == 0)
        #expect(result.sha256 == (try BookDownloader.sha256(of: target)))
        #expect(!FileManager.default.fileExists(atPath: target.path + ".part"))
        #expect(reports.last?.received == Int64(bytes.count) && reports.last?.total == Int64(bytes.count))
    }

    @Test("A download cut off mid-way keeps its part, and the next attempt asks for the rest with Range")
    func resumes() async throws {
        let (server, url) = try await Self.server()
        defer { Task { await server.stop() } }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        try await Self.setFaults(#"{"CutContentAfter": 5000}"#, on: server)
        await #expect(throws: DownloadError.self) { try await BookDownloader().download(from: url, to: target) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let partSize = try FileManager.default.attributesOfItem(atPath: target.path + ".part")[.size] as? Int
        #expect(partSize == 5000)

        try await Self.setFaults("{}", on: server)
        let result = try await BookDownloader().download(from: url, to: target)
        #expect(result.resumedFrom == 5000 && result.refetched == 0)
        let whole = try await URLSession.shared.data(from: url).0
        #expect(try Data(contentsOf: target) == whole)
    }

    @Test("A damaged copy is refused and fetched again; damaged twice, nothing is kept")
    func refusesDamagedCopies() async throws {
        let (server, url) = try await Self.server()
        defer { Task { await server.stop() } }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        // A stale part from another file: the digest catches the mix, the second try starts afresh.
        try Data(repeating: 0x41, count: 3000).write(to: URL(fileURLWithPath: target.path + ".part"))
        let fixed = try await BookDownloader().download(from: url, to: target)
        #expect(fixed.resumedFrom == 3000 && fixed.refetched == 1)
        #expect(try Data(contentsOf: target) == (try await URLSession.shared.data(from: url).0))

        try FileManager.default.removeItem(at: target)
        try await Self.setFaults(#"{"CorruptContent": true}"#, on: server)
        let error = await #expect(throws: DownloadError.self) {
            try await BookDownloader().download(from: url, to: target)
        }
        #expect(error?.kind == .checksumMismatch)
        #expect(error?.description.contains("was damaged on the way, twice; nothing was kept") == true)
        // No checksums in the message: they are for the debug log.
        #expect(error?.description.contains("SHA-256") == false)
        #expect(error?.detail.hasPrefix("expected SHA-256 ") == true)
        let named = error?.about(book: "“Boken”", retry: "read 3").description
        #expect(
            named
                == "The download of “Boken” was damaged on the way, twice; nothing was kept. "
                + "Type read 3 to fetch it again.")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(!FileManager.default.fileExists(atPath: target.path + ".part"))
    }

    @Test("A full disk stops the download with a clear message and removes the partial file")
    func fullDisk() async throws {
        let (server, url) = try await Self.server()
        defer { Task { await server.stop() } }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        // The part file is /dev/full: every write fails with ENOSPC, as on a full disk.
        try FileManager.default.createSymbolicLink(atPath: target.path + ".part", withDestinationPath: "/dev/full")
        let error = await #expect(throws: DownloadError.self) {
            try await BookDownloader().download(from: url, to: target)
        }
        #expect(error?.kind == .diskFull)
        #expect(error?.description.hasPrefix("The disk is full") == true)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: target.path + ".part")) == nil)
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}

/// Progress reports, collected from the download's thread.
final class Reports: Sendable {
    private let all = Mutex<[BookDownloader.Progress]>([])
    func add(_ report: BookDownloader.Progress) { all.withLock { $0.append(report) } }
    var last: BookDownloader.Progress? { all.withLock { $0.last } }
}
