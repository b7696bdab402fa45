import Catalog
import Foundation
import Synchronization
import TestSupport
import Testing

/// The lending and OPDS clients against a library that misbehaves on purpose (issue 17, items 2,
/// 3, 5 and 6): every call ends within its deadline, reads no more than its cap, completes no more
/// than the page asked for, and never follows a redirect to another origin. Bounds are checked
/// generously (a test fails at three times the deadline, never on the exact figure).
@Suite("A hostile library", .serialized)
struct HostileLibraryTests {
    static func service(
        _ server: HostileServer, timeout: TimeInterval = 2, maxBodyBytes: Int = 16 << 20
    ) -> HTTPLendingService {
        HTTPLendingService(
            endpoint: LibraryEndpoint(baseURL: server.baseURL, serviceID: "bok", serviceKey: "secret"),
            timeout: timeout, maxBodyBytes: maxBodyBytes)
    }

    static func products(_ count: Int, from first: Int = 1) -> String {
        (first..<(first + count)).map { #"{"ProductId": "\#($0)", "Title": "Book \#($0)"}"# }.joined(separator: ",")
    }

    /// Runs `work` and says how long it took.
    static func timed<T>(_ work: () async throws -> T) async rethrows -> (T, TimeInterval) {
        let start = Date()
        let value = try await work()
        return (value, Date().timeIntervalSince(start))
    }

    /// A patron's message: one line, no HTTP body, no curl or Foundation text.
    static func isOneLine(_ message: String) -> Bool {
        !message.contains("\n") && !message.contains("NSURLError") && !message.lowercased().contains("curl")
            && !message.contains("Error Domain") && !message.contains("xxxx")
    }

    // MARK: Item 2: a whole call has a deadline

    @Test("A server dripping one byte a second is cut off at the deadline, headers or body")
    func drip() async throws {
        for dripHeaders in [true, false] {
            let body = #"{"Products": [\#(Self.products(3))], "TotalCount": 3}"#
            let head = HostileServer.head(
                200, [("Content-Type", "application/json"), ("Content-Length", String(body.utf8.count))])
            let server = try HostileServer { _ in
                dripHeaders
                    ? [.drip(head + Data(body.utf8), every: 0.5)] : [.send(head), .drip(Data(body.utf8), every: 0.5)]
            }
            defer { server.stop() }
            let (result, seconds) = await Self.timed {
                await #expect(throws: LendingError.self) {
                    try await Self.service(server, timeout: 2).search(SearchRequest(query: "x"))
                }
            }
            #expect(seconds < 6, "dripping \(dripHeaders ? "headers" : "body"): \(seconds) s for a 2 s deadline")
            #expect(result?.kind == .timeout)
            #expect(
                result?.message
                    == """
                    The library at 127.0.0.1:\(server.port) did not answer within 2 s. Try again, or check the \
                    server.
                    """
            )
        }
    }

    @Test("The OPDS client has the same deadline")
    func opdsDrip() async throws {
        let feed = #"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>"#
        let server = try HostileServer { _ in
            [
                .send(HostileServer.head(200, [("Content-Type", "application/atom+xml")])),
                .drip(Data(feed.utf8), every: 0.5),
            ]
        }
        defer { server.stop() }
        let (error, seconds) = await Self.timed {
            await #expect(throws: LendingError.self) { try await OPDSClient(root: server.baseURL, timeout: 2).feed() }
        }
        #expect(seconds < 6, "\(seconds) s for a 2 s deadline")
        #expect(error?.kind == .timeout)
    }

    // MARK: Item 3: the answer cap holds while streaming

    @Test("An endless answer is refused at the cap, and bok stops reading there")
    func endlessAnswer() async throws {
        for announced in [true, false] {
            // 1 GB, announced in Content-Length or not (then the connection's close ends it).
            let total = 1 << 30
            let server = try HostileServer { _ in
                [
                    .send(
                        HostileServer.head(
                            200,
                            [("Content-Type", "application/json")]
                                + (announced ? [("Content-Length", String(total))] : []))),
                    .stream(total: total),
                ]
            }
            defer { server.stop() }
            let (error, seconds) = await Self.timed {
                await #expect(throws: LendingError.self) {
                    try await Self.service(server, timeout: 20, maxBodyBytes: 4 << 20).search(SearchRequest(query: "x"))
                }
            }
            #expect(error?.kind == .badResponse)
            #expect(
                error?.message
                    == """
                    The library at 127.0.0.1:\(server.port) sent an answer larger than 4 MB, so bok stopped \
                    reading it. Try again later.
                    """
            )
            #expect(seconds < 20, "\(seconds) s")
            // The server could write what the cap and the sockets' buffers hold, not the gigabyte.
            try await Task.sleep(for: .milliseconds(300))
            #expect(
                server.bytesSent < 4 << 20 + 32 << 20, "\(server.bytesSent) bytes sent with Content-Length \(announced)"
            )
        }
    }

    @Test("A Content-Length that lies short ends the answer where it says; a long one is a dropped connection")
    func lyingLength() async throws {
        let body = #"{"Products": [\#(Self.products(2))], "TotalCount": 2}"#
        let short = try HostileServer { _ in
            [.send(HostileServer.head(200, [("Content-Length", "10")]) + Data(body.utf8)), .stream(total: 8 << 20)]
        }
        defer { short.stop() }
        let error = await #expect(throws: LendingError.self) {
            try await Self.service(short).search(SearchRequest(query: "x"))
        }
        #expect(error?.kind == .badResponse && Self.isOneLine(error?.message ?? ""), "\(error?.message ?? "")")
        #expect(short.bytesSent < 32 << 20)

        let long = try HostileServer { _ in
            [.send(HostileServer.head(200, [("Content-Length", "100000")]) + Data(body.utf8))]
        }
        defer { long.stop() }
        let (dropped, seconds) = await Self.timed {
            await #expect(throws: LendingError.self) { try await Self.service(long).search(SearchRequest(query: "x")) }
        }
        #expect(dropped?.kind == .dropped, "\(dropped?.message ?? "")")
        #expect(seconds < 6)
    }

    // MARK: Item 5: never trust the server's page size

    @Test("5 000 products for a 20-item page: 20 are shown and at most 20 availability calls made, 6 at a time")
    func flood() async throws {
        let inFlight = Gauge()
        let server = try HostileServer { request in
            if request.path.hasSuffix("/products") {
                return HostileServer.answer(200, json: #"{"Products": [\#(Self.products(5000))], "TotalCount": 5000}"#)
            }
            let id = request.path.split(separator: "/").last.map(String.init) ?? ""
            inFlight.enter()
            defer { inFlight.leave() }
            Thread.sleep(forTimeInterval: 0.05)
            return HostileServer.answer(
                200, json: #"{"Products": [{"ProductID": "\#(id)", "Available": true, "Reason": ""}]}"#)
        }
        defer { server.stop() }
        let (page, seconds) = try await Self.timed {
            try await Self.service(server, timeout: 5).search(SearchRequest(query: "x", limit: 20))
        }
        #expect(page.products.count == 20)
        #expect(page.products.allSatisfy { $0.availability?.available == true })
        let calls = server.requests.filter { $0.path.contains("availability") }.count
        #expect(calls == 20)
        #expect(inFlight.peak <= 6)
        #expect(seconds < 15)
    }

    @Test("Availability calls to a slow server share one deadline: the page comes back with the rest unknown")
    func slowCompletion() async throws {
        let server = try HostileServer { request in
            if request.path.hasSuffix("/products") {
                return HostileServer.answer(200, json: #"{"Products": [\#(Self.products(20))], "TotalCount": 20}"#)
            }
            return [.pause(1.5)]
                + HostileServer.answer(
                    200, json: #"{"Products": [{"ProductID": "1", "Available": true, "Reason": ""}]}"#)
        }
        defer { server.stop() }
        // 20 products, 6 at a time, 1.5 s each: 6 s unbounded; one 2 s budget ends it.
        let (page, seconds) = try await Self.timed {
            try await Self.service(server, timeout: 2).search(SearchRequest(query: "x"))
        }
        #expect(page.products.count == 20)
        #expect(page.products.contains { $0.availability == nil })
        #expect(seconds < 6, "\(seconds) s")
    }

    // MARK: Item 6: redirects stay within the library's origin

    @Test("A redirect to another host or port is not followed, and nothing reaches that server")
    func redirectAway() async throws {
        let elsewhere = try HostileServer(host: "127.0.0.2") { _ in
            HostileServer.answer(200, json: #"{"Library": {"Name": "Evil"}}"#)
        }
        defer { elsewhere.stop() }
        let otherPort = try HostileServer { _ in HostileServer.answer(200, json: #"{"Library": {"Name": "Evil"}}"#) }
        defer { otherPort.stop() }
        for target in [elsewhere.baseURL, otherPort.baseURL, URL(string: "https://127.0.0.1:1/")!] {
            let server = try HostileServer { request in
                [
                    .send(
                        HostileServer.head(
                            302,
                            [
                                (
                                    "Location",
                                    target.absoluteString + "library?"
                                        + (request.target.split(separator: "?").last ?? "")
                                ),
                                ("Content-Length", "0"),
                            ]))
                ]
            }
            defer { server.stop() }
            let error = await #expect(throws: LendingError.self) { try await Self.service(server).library() }
            #expect(error?.kind == .redirected)
            let host = "\(target.host!):\(target.port!)"
            #expect(
                error?.message
                    == """
                    The library at 127.0.0.1:\(server.port) sent bok to another server (\(host)); bok only talks \
                    to the library's own address. If the library has moved, put its new address in the config \
                    file.
                    """
            )
        }
        #expect(elsewhere.requests.isEmpty && otherPort.requests.isEmpty)
    }

    @Test("A redirect within the library's origin is followed")
    func redirectWithin() async throws {
        let server = try HostileServer { request in
            if request.path.hasSuffix("/moved") {
                return HostileServer.answer(
                    200, json: #"{"Library": {"Name": "Stadsbiblioteket", "Alerts": [], "Events": []}}"#)
            }
            return [.send(HostileServer.head(301, [("Location", "/moved"), ("Content-Length", "0")]))]
        }
        defer { server.stop() }
        let page = try await Self.service(server).library()
        #expect(page.name == "Stadsbiblioteket")
    }

    @Test("Upstream's 404 with a Reason means no search and no library page here, not something removed")
    func upstreamNotFound() async throws {
        let server = try HostileServer { _ in
            HostileServer.answer(404, json: #"{"Reason":"Resource not found","ResponseStatus":"NotFound"}"#)
        }
        defer { server.stop() }
        let service = Self.service(server)
        let search = await #expect(throws: LendingError.self) {
            try await service.search(SearchRequest(query: "x", sort: SortSpec(.relevance)))
        }
        #expect(search?.kind == .unsupported && search?.message.contains("has no catalogue search") == true)
        let page = await #expect(throws: LendingError.self) { try await service.library() }
        #expect(page?.kind == .unsupported && page?.message.contains("has no library page") == true)
    }

    @Test("A redirect loop on the library's own server is called a loop, not another server, and ends")
    func redirectLoop() async throws {
        let server = try HostileServer { request in
            let next = request.path.hasSuffix("/a") ? "/b" : "/a"
            return [.send(HostileServer.head(302, [("Location", next), ("Content-Length", "0")]))]
        }
        defer { server.stop() }
        let error = await #expect(throws: LendingError.self) { try await Self.service(server).library() }
        #expect(error?.kind == .redirected)
        #expect(error?.message.contains("(a redirect loop)") == true, "\(String(describing: error?.message))")
        #expect(error?.message.contains("another server") == false)
        #expect(server.requests.count <= 6)
    }

    @Test("An OPDS catalogue's redirect elsewhere takes no password along")
    func opdsRedirectAway() async throws {
        let elsewhere = try HostileServer(host: "127.0.0.2") { _ in
            [.send(HostileServer.head(200, [("Content-Length", "0")]))]
        }
        defer { elsewhere.stop() }
        let server = try HostileServer { _ in
            [
                .send(
                    HostileServer.head(
                        302, [("Location", elsewhere.baseURL.absoluteString + "feed"), ("Content-Length", "0")]))
            ]
        }
        defer { server.stop() }
        let client = OPDSClient(root: server.baseURL, user: "patron", password: "hemligt", timeout: 2)
        let error = await #expect(throws: LendingError.self) { try await client.feed() }
        #expect(error?.kind == .redirected, "\(error?.message ?? "")")
        #expect(elsewhere.requests.isEmpty)
        #expect(server.requests.first?.headers["authorization"] != nil)
    }
}

/// The most calls a server saw at once.
final class Gauge: Sendable {
    /// Calls now, and the most at once.
    private let counts = Mutex((now: 0, most: 0))
    func enter() {
        counts.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { counts.withLock { $0.now -= 1 } }
    var peak: Int { counts.withLock { $0.most } }
}
