import Foundation
import TestSupport
import Testing

@testable import Catalog

/// A library's annotation service that answers badly is bounded as every server bok talks to is:
/// garbage, a huge answer, a slow one and a redirect away are each a failure said in words, and the
/// card and PIN go only in the Authorization header, never in an address.
struct LibraryAnnotationsHostileTests {
    static let client = LibraryAnnotations(card: "1001", pin: "4711", deadline: 2)

    static func service(_ server: HostileServer) -> URL {
        server.baseURL.appendingPathComponent("annotations/books/7/")
    }

    static func name(_ server: HostileServer) -> String { "127.0.0.1:\(server.port)" }

    @Test("Garbage, a huge answer, a slow one and a redirect away are each a failure in words, in bounds")
    func bounded() async throws {
        let garbage = try HostileServer.start { _ in HostileServer.answer(200, json: "<html>not json</html>") }
        defer { garbage.stop() }
        await #expect(throws: LibraryAnnotations.Failure(kind: .strangeAnswer, server: Self.name(garbage))) {
            _ = try await Self.client.annotations(at: Self.service(garbage))
        }
        let huge = try HostileServer.start { _ in
            [.send(HostileServer.head(200, [("Content-Type", "application/ld+json")])), .stream(total: 50 << 20)]
        }
        defer { huge.stop() }
        await #expect(throws: LibraryAnnotations.Failure(kind: .unreachable, server: Self.name(huge))) {
            _ = try await Self.client.annotations(at: Self.service(huge))
        }
        #expect(huge.bytesSent < 8 << 20, "read on past the bound: \(huge.bytesSent) bytes")
        let slow = try HostileServer.start { _ in [.pause(30)] }
        defer { slow.stop() }
        let started = Date()
        await #expect(throws: LibraryAnnotations.Failure(kind: .unreachable, server: Self.name(slow))) {
            _ = try await LibraryAnnotations(card: "1001", pin: "4711", deadline: 1).annotations(
                at: Self.service(slow))
        }
        #expect(Date().timeIntervalSince(started) < 10)
        let away = try HostileServer.start { _ in
            [.send(HostileServer.head(302, [("Location", "http://127.0.0.2:9/annotations/")]))]
        }
        defer { away.stop() }
        await #expect(throws: LibraryAnnotations.Failure.self) {
            _ = try await Self.client.annotations(at: Self.service(away))
        }
        #expect(away.requests.count == 1, "the redirect was not followed")
    }

    @Test("A list of 10 000 annotations is read to 5 000; what cannot be placed is left out, not an error")
    func manyAndStrange() async throws {
        let item =
            #"{"id":"/a/1","motivation":"http://www.w3.org/ns/oa#bookmarking","#
            + #""target":{"source":"x","selector":{"type":"FragmentSelector","value":"epubcfi(/6/4!/4/2/1:0)"}}}"#
        let odd =
            #"{"id":"/a/2","motivation":"http://www.w3.org/ns/oa#bookmarking","target":{"selector":{"#
            + #""type":"FragmentSelector","value":"{\"idref\":\"c1\",\"contentCFI\":\"/4/2\"}"}}}"#
        let items = [odd] + Array(repeating: item, count: 10_000)
        let body = #"{"first":{"items":["# + items.joined(separator: ",") + "]}}"
        let server = try HostileServer.start { _ in HostileServer.answer(200, json: body) }
        defer { server.stop() }
        let read = try await Self.client.annotations(at: Self.service(server))
        #expect(read.count == 4_999, "the first 5 000 items, less the one bok cannot place")
        #expect(read.allSatisfy { $0.cfi == "epubcfi(/6/4!/4/2/1:0)" })
    }

    @Test("The card and PIN go only in the Authorization header")
    func secretsOnlyInTheHeader() async throws {
        let server = try HostileServer.start { _ in
            HostileServer.answer(200, json: #"{"first":{"items":[]}}"#)
        }
        defer { server.stop() }
        _ = try await Self.client.annotations(at: Self.service(server))
        try? await Self.client.remove(server.baseURL.appendingPathComponent("annotations/9"))
        let requests = server.requests
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.headers["authorization"] == "Basic " + Data("1001:4711".utf8).base64EncodedString())
            #expect(!request.target.contains("4711") && !request.target.contains("1001"), "\(request.target)")
        }
    }
}
