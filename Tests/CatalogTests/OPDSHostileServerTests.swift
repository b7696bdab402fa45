import Catalog
import Foundation
import TestSupport
import Testing

/// A catalogue server that misbehaves (issue 14, "bad servers"): each case ends in one line worded
/// for the patron, within bounded time, and bok goes on. All traffic stays on 127.0.0.x.
@Suite("OPDS against a hostile server", .serialized)
struct OPDSHostileServerTests {
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>urn:test</id><title>Test</title><updated>2026-11-25T10:00:00Z</updated>
          <entry><id>urn:a</id><title>No links at all</title><updated>2026-11-25T10:00:00Z</updated></entry>
          <entry><id>urn:b</id><title>Climbing</title><updated>2026-11-25T10:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" \
        href="../../../../../../etc/passwd"/>
            <link rel="http://opds-spec.org/acquisition/open-access" type="application/epub+zip" \
        href="file:///etc/passwd"/>
          </entry>
        </feed>
        """

    static func atom(_ body: String) -> [HostileServer.Step] {
        let bytes = Data(body.utf8)
        return [
            .send(
                HostileServer.head(
                    200,
                    [
                        ("Content-Type", "application/atom+xml;profile=opds-catalog"),
                        ("Content-Length", String(bytes.count)),
                    ]) + bytes)
        ]
    }

    @Test(
        """
        An entry without links is listed with nothing to get; a link that climbs stays on the catalogue's host; \
        file: is dropped
        """
    )
    func linksStayOnTheHost() async throws {
        let server = try HostileServer.start { _ in Self.atom(Self.feed) }
        defer { server.stop() }
        let feed = try await OPDSClient(root: server.baseURL.appendingPathComponent("opds"), timeout: 5).feed()
        #expect(feed.entries.map(\.title) == ["No links at all", "Climbing"])
        #expect(feed.entries[0].acquisitions.isEmpty)
        let links = feed.entries[1].acquisitions.map(\.href)
        #expect(
            !links.isEmpty
                && links.allSatisfy { $0.scheme == "http" && $0.host == "127.0.0.1" && $0.port == server.port },
            "\(links)")
        #expect(!links.contains { $0.absoluteString.hasPrefix("file:") })
    }

    @Test("A page that is not a feed is one line, not a parser's words")
    func notAFeed() async throws {
        let server = try HostileServer.start { _ in
            let page = Data("<html><body><h1>Logga in</h1></body></html>".utf8)
            return [
                .send(
                    HostileServer.head(200, [("Content-Type", "text/html"), ("Content-Length", String(page.count))])
                        + page)
            ]
        }
        defer { server.stop() }
        let error = await #expect(throws: LendingError.self) {
            try await OPDSClient(root: server.baseURL, timeout: 5).feed()
        }
        let message = error?.message ?? ""
        #expect(!message.contains("\n") && message.contains("not") && !message.contains("XMLParser"), "\(message)")
    }

    /// A catalogue on 127.0.0.1 whose every answer is a redirect to a feed on 127.0.0.2.
    static func redirecting() throws -> (catalogue: HostileServer, elsewhere: HostileServer) {
        let elsewhere = try HostileServer.start(host: "127.0.0.2") { _ in Self.atom(Self.feed) }
        let location = elsewhere.baseURL.appendingPathComponent("opds").absoluteString
        let server = try HostileServer.start { _ in
            [.send(HostileServer.head(302, [("Location", location), ("Content-Length", "0")]))]
        }
        return (server, elsewhere)
    }

    @Test("A redirect to another host is not followed: nothing reaches it")
    func redirectElsewhere() async throws {
        let (server, elsewhere) = try Self.redirecting()
        defer {
            server.stop()
            elsewhere.stop()
        }
        let error = await #expect(throws: LendingError.self) {
            try await OPDSClient(root: server.baseURL, user: "elsa", password: "hemligt", timeout: 5).feed()
        }
        #expect(error?.kind == .redirected, "\(String(describing: error))")
        #expect(elsewhere.requests.isEmpty, "the catalogue's password could have gone to another host")
    }

    @Test(
        "A redirect to a server the profile allows is followed, without the password; http is never allowed from https")
    func redirectAllowed() async throws {
        let (server, elsewhere) = try Self.redirecting()
        defer {
            server.stop()
            elsewhere.stop()
        }
        var client = OPDSClient(root: server.baseURL, user: "elsa", password: "hemligt", timeout: 5)
        // Another port of the allowed host is still another server.
        client.redirectsAllowed = RedirectAllowance(["127.0.0.2:\(elsewhere.port + 1)"])
        await #expect(throws: LendingError.self) { try await client.feed() }
        #expect(elsewhere.requests.isEmpty)

        client.redirectsAllowed = RedirectAllowance(["127.0.0.2"])
        let feed = try await client.feed()
        #expect(!feed.entries.isEmpty)
        #expect(server.requests.first?.headers["authorization"] != nil)
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.allSatisfy { $0.headers["authorization"] == nil }, "the password went along")
        // A login kept: the client with it keeps the allowance too.
        #expect(client.with(user: nil, password: nil).redirectsAllowed == client.redirectsAllowed)

        let https = try #require(Origin(URL(string: "https://library.example.org/opds")!))
        let http = try #require(Origin(URL(string: "http://cdn.example.org/book.epub")!))
        #expect(!RedirectAllowance(["cdn.example.org"]).allows(http, from: https))
        #expect(RedirectAllowance(["cdn.example.org"]).allows(http, from: Origin(URL(string: "http://a.org")!)!))
    }

    @Test("A 50 MB feed is refused at the cap, in bounded time")
    func hugeFeed() async throws {
        let server = try HostileServer.start { _ in
            [.send(HostileServer.head(200, [("Content-Type", "application/atom+xml")])), .stream(total: 50 << 20)]
        }
        defer { server.stop() }
        let started = ContinuousClock.now
        let error = await #expect(throws: LendingError.self) {
            try await OPDSClient(root: server.baseURL, timeout: 10).feed()
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(error?.message.contains("MB") == true, "\(String(describing: error))")
        #expect(server.bytesSent < 40 << 20, "read \(server.bytesSent) bytes of a 50 MB answer")
    }

    @Test("A feed dripped a byte at a time ends at the deadline with one line")
    func drip() async throws {
        let server = try HostileServer.start { _ in
            [
                .send(
                    HostileServer.head(200, [("Content-Type", "application/atom+xml"), ("Content-Length", "100000")])),
                .drip(Data(repeating: 0x20, count: 200), every: 0.2),
            ]
        }
        defer { server.stop() }
        let started = ContinuousClock.now
        let error = await #expect(throws: LendingError.self) {
            try await OPDSClient(root: server.baseURL, timeout: 2).feed()
        }
        let took = ContinuousClock.now - started
        #expect(took < .seconds(6), "took \(took) against a 2 s deadline")
        #expect(error?.kind == .timeout, "\(String(describing: error))")
    }
}
