import Foundation
import Shelf
import TestSupport
import Testing

/// Book downloads against a server that misbehaves on purpose (issue 17, items 1 and 3): a
/// refused resume, a wrong range, a body past the book's size, a drip. Each ends within a few
/// requests and seconds, with one line and a clean `.part` (none, or a true prefix).
@Suite("Downloading from a hostile server", .serialized)
struct HostileDownloadTests {
    static func timed<T>(_ work: () async throws -> T) async rethrows -> (T, TimeInterval) {
        let start = Date()
        let value = try await work()
        return (value, Date().timeIntervalSince(start))
    }

    static func part(_ target: URL) -> URL { URL(fileURLWithPath: target.path + ".part") }

    @Test("A server answering 416 to everything gets at most two requests and one clear message; no part is left")
    func always416() async throws {
        let server = try HostileServer { _ in [.send(HostileServer.head(416, [("Content-Length", "0")]))] }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        for existingPart in [true, false] {
            if existingPart { try Data(repeating: 0x41, count: 3000).write(to: Self.part(target)) }
            let before = server.requests.count
            let (error, seconds) = await Self.timed {
                await #expect(throws: DownloadError.self) {
                    try await BookDownloader(timeout: 2).download(from: server.baseURL, to: target)
                }
            }
            #expect(server.requests.count - before == (existingPart ? 2 : 1))
            // A bound against retrying until the deadline, loose enough for a loaded machine.
            #expect(seconds < 12)
            #expect(error?.kind == .server)
            // The status is for the debug log; the patron hears what happened and what to do.
            #expect(error?.description == "The library could not send the book just now. Try again later.")
            #expect(error?.detail == "HTTP 416 to a request for the whole file")
            #expect(!FileManager.default.fileExists(atPath: Self.part(target).path))
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
        // The first request resumed; the second asked for the whole file.
        #expect(server.requests.first?.headers["range"] == "bytes=3000-")
        #expect(server.requests.dropFirst().first?.headers["range"] == nil)
    }

    @Test("A 206 that starts elsewhere than the part ends is not appended: bok starts afresh once")
    func wrongRange() async throws {
        let book = Data((0..<50_000).map { UInt8($0 % 251) })
        let server = try HostileServer { request in
            if request.headers["range"] != nil {
                return [
                    .send(
                        HostileServer.head(206, [("Content-Range", "bytes 0-999/50000"), ("Content-Length", "1000")])
                            + book.prefix(1000))
                ]
            }
            return [.send(HostileServer.head(200, [("Content-Length", String(book.count))]) + book)]
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        try Data(repeating: 0x41, count: 3000).write(to: Self.part(target))
        let result = try await BookDownloader(timeout: 2).download(from: server.baseURL, to: target)
        #expect(try Data(contentsOf: target) == book)
        #expect(result.size == Int64(book.count))
        #expect(server.requests.count == 2)
    }

    @Test("An endless body past the book's stated size is refused while it streams; nothing is kept")
    func endlessBody() async throws {
        for announced in [false, true] {
            let server = try HostileServer { _ in
                [
                    .send(HostileServer.head(200, announced ? [("Content-Length", String(1 << 30))] : [])),
                    .stream(total: 1 << 30),
                ]
            }
            defer { server.stop() }
            let dir = try TemporaryDirectory()
            let target = dir.url.appendingPathComponent("book.epub")
            let (error, seconds) = await Self.timed {
                await #expect(throws: DownloadError.self) {
                    try await BookDownloader(timeout: 5).download(from: server.baseURL, to: target, statedSize: 500_000)
                }
            }
            #expect(error?.kind == .tooLarge)
            #expect(
                error?.description
                    == """
                    The library sent far more than the book should take, so bok stopped and kept nothing. Try again \
                    later, or tell the library.
                    """
            )
            #expect(error?.detail == "1 MB")
            #expect(seconds < 15)
            #expect(!FileManager.default.fileExists(atPath: Self.part(target).path))
            #expect(!FileManager.default.fileExists(atPath: target.path))
            // Reading stopped at the limit: what the server could write is the limit and the sockets' buffers.
            try await Task.sleep(for: .milliseconds(300))
            #expect(
                server.bytesSent < 40 << 20, "\(server.bytesSent) bytes sent, Content-Length announced: \(announced)")
        }
        #expect(BookDownloader.maxBytes(statedSize: nil) == 256 << 20)
        #expect(BookDownloader.maxBytes(statedSize: 100 << 20) == 110 << 20)
    }

    @Test("A server that stalls, or drips, ends the download within its bounds and keeps the part for a resume")
    func stallAndDrip() async throws {
        let stall = try HostileServer { _ in
            [
                .send(HostileServer.head(200, [("Content-Length", "100000")]) + Data(repeating: 0x42, count: 2000)),
                .pause(30),
            ]
        }
        defer { stall.stop() }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        let (stalled, stallSeconds) = await Self.timed {
            await #expect(throws: DownloadError.self) {
                try await BookDownloader(timeout: 1).download(from: stall.baseURL, to: target)
            }
        }
        #expect(stalled?.kind == .network)
        #expect(stallSeconds < 6, "\(stallSeconds) s with a 1 s stall limit")
        #expect(BookDownloader.size(of: Self.part(target)) == 2000)

        let drip = try HostileServer { _ in
            [
                .send(HostileServer.head(200, [("Content-Length", "100000")])),
                .drip(Data(repeating: 0x42, count: 100), every: 0.2),
            ]
        }
        defer { drip.stop() }
        let dripTarget = dir.url.appendingPathComponent("drip.epub")
        let (dripped, dripSeconds) = await Self.timed {
            await #expect(throws: DownloadError.self) {
                try await BookDownloader(timeout: 2, maxDuration: 2).download(from: drip.baseURL, to: dripTarget)
            }
        }
        #expect(dripped?.kind == .network)
        #expect(dripSeconds < 6, "\(dripSeconds) s with a 2 s limit")
        #expect(dripped.map { !$0.description.contains("\n") } == true)
    }

    @Test(
        "An HTML page, a zip cut short or a gzip stream sent for an EPUB is not kept and not called downloaded",
        arguments: ["html", "truncated", "gzip"])
    func notAnEPUB(_ kind: String) async throws {
        let zip = Data(
            base64Encoded:
                "UEsDBBQAAAAAAAAAIQBvYassFAAAABQAAAAIAAAAbWltZXR5cGVhcHBsaWNhdGlvbi9lcHViK3ppcFBLAQIUAxQAAAAAAA"
                + "AAIQBvYassFAAAABQAAAAIAAAAAAAAAAAAAACAAQAAAABtaW1ldHlwZVBLBQYAAAAAAQABADYAAAA6AAAAAAA=")!
        let body: Data =
            switch kind {
            case "html": Data("<!doctype html><html><body>Please log in</body></html>".utf8)
            case "truncated": zip.prefix(zip.count - 30)
            default: Data([0x1F, 0x8B, 0x08, 0x00] + [UInt8](repeating: 7, count: 200))
            }
        let server = try HostileServer { _ in
            [.send(HostileServer.head(200, [("Content-Length", "\(body.count)")]) + body)]
        }
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        let target = dir.url.appendingPathComponent("book.epub")
        let error = await #expect(throws: DownloadError.self) {
            try await BookDownloader(timeout: 5).download(from: server.baseURL, to: target, expecting: .epub)
        }
        #expect(error?.kind == .notThatFormat)
        #expect(error?.description.contains("is not a whole EPUB file") == true, "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
        // The whole zip is kept.
        let whole = try HostileServer { _ in
            [.send(HostileServer.head(200, [("Content-Length", "\(zip.count)")]) + zip)]
        }
        defer { whole.stop() }
        _ = try await BookDownloader(timeout: 5).download(from: whole.baseURL, to: target, expecting: .epub)
        #expect(FileManager.default.contents(atPath: target.path) == zip)
    }
}
