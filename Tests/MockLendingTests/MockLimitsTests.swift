import Catalog
import Foundation
import TestSupport
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The mock stays usable under abuse (half-sent requests) and serves everything it advertises.
@Suite("Mock lending: limits, covers and the clock's range", .serialized)
struct MockLimitsTests {
    @Test(
        """
        500 half-sent requests: normal requests still answer at once, and the half-sent ones are closed after the \
        timeout
        """
    )
    func slowloris() async throws {
        var configuration = MockConfiguration()
        configuration.idleTimeout = .seconds(1)
        try await TestServer.with(configuration) { server in
            let port = server.server.port
            var halfOpen: [Int32] = []
            defer { for fd in halfOpen { close(fd) } }
            for _ in 0..<500 {
                let fd = try #require(RawConnection.open(port: port))
                RawConnection.send(fd, "GET /mock/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                halfOpen.append(fd)
            }
            let started = ContinuousClock.now
            for _ in 0..<20 {
                let answer = try #require(RawConnection.get(port: port, path: "/mock/clock"))
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(80))")
            }
            let elapsed = ContinuousClock.now - started
            #expect(elapsed < .seconds(3), "20 requests during the slowloris took \(elapsed)")

            // The timeout is 1 s; allow 3× that (plus connect time) before calling them held open.
            let deadline = ContinuousClock.now + .seconds(4)
            var closed = 0
            for fd in halfOpen where RawConnection.waitForClose(fd, until: deadline) { closed += 1 }
            #expect(closed == halfOpen.count, "\(halfOpen.count - closed) half-sent requests still open")
        }
    }

    @Test("Past the connection limit a request waits for a slot (freed by the timeout) instead of adding one more")
    func connectionLimit() async throws {
        var configuration = MockConfiguration()
        configuration.idleTimeout = .seconds(1)
        configuration.maxConnections = 10
        try await TestServer.with(configuration) { server in
            let port = server.server.port
            var halfOpen: [Int32] = []
            defer { for fd in halfOpen { close(fd) } }
            // NIO accepts a few connections per wake-up, so go well past the limit.
            for _ in 0..<25 {
                let fd = try #require(RawConnection.open(port: port))
                RawConnection.send(fd, "GET /mock/clock HTTP/1.1\r\n")
                halfOpen.append(fd)
            }
            let started = ContinuousClock.now
            let answer = try #require(RawConnection.get(port: port, path: "/mock/clock"))
            let waited = ContinuousClock.now - started
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(waited > .milliseconds(500), "answered in \(waited): the limit did not hold")
            #expect(waited < .seconds(5))
        }
    }

    @Test("A slow answer (the latency fault) is not cut by the idle timeout, for a GET or a POST with a form")
    func slowAnswerKept() async throws {
        var configuration = MockConfiguration()
        configuration.idleTimeout = .seconds(1)
        try await TestServer.with(configuration) { server in
            try await server.control("POST", "faults", json: #"{"LatencyMs": 2500}"#)
            let client = server.client(timeout: 10)
            _ = try await client.library()
            let product = server.server.library.catalog.products[0]
            do {
                _ = try await client.createLoan(card: "1001", pin: "1234", productID: product.id)
            } catch let error as LendingError {
                // A refusal is an answer; a cut connection has no status.
                #expect(error.status != nil, "\(error)")
            }
        }
    }

    @Test("The advertised cover URL answers a PNG of the book's cover")
    func cover() async throws {
        try await TestServer.with { server in
            let origin = "http://127.0.0.1:\(server.server.port)"
            for product in server.server.library.catalog.products.prefix(3) {
                let link = origin + (try #require(product.coverImage))
                #expect(link.hasSuffix("/cover.png"))
                let (data, response) = try await server.download(link)
                #expect(response.statusCode == 200, "\(link)")
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/png")
                #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
                // The same picture as the first page of the book.
                let epub = MockBooks.archive(for: product, seed: server.configuration.seed, sample: true)
                #expect(epub.firstRange(of: Array(data)) != nil, "the cover in \(product.id)'s EPUB differs")
            }
            let (_, missing) = try await server.download(
                "http://127.0.0.1:\(server.server.port)/mock/content/nosuch/cover.png")
            #expect(missing.statusCode == 404)
        }
    }

    @Test("The clock refuses to move past 9999-01-01, so due dates keep four-digit years")
    func clockRange() async throws {
        try await TestServer.with(
            MockConfiguration(clockStart: Timestamp.parse("2026-11-18T10:00:00Z"), clockRuns: false)
        ) { server in
            for body in [#"{"Set": "9999-12-31T10:00:00Z"}"#, #"{"Advance": "999999999d"}"#] {
                let (data, response) = try await server.control("POST", "clock", json: body)
                #expect(response.statusCode == 400, "\(body)")
                let reason =
                    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])["Reason"] as? String
                #expect(reason?.contains("9999-01-01") == true, "\(reason ?? "")")
            }
            #expect(await server.server.now() == Timestamp.parse("2026-11-18T10:00:00Z"))
            let (_, fine) = try await server.control("POST", "clock", json: #"{"Set": "9998-12-31T10:00:00Z"}"#)
            #expect(fine.statusCode == 200)
        }
    }
}
