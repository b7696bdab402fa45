import Foundation
import TestSupport
import Testing

@testable import Catalog

/// Reading places through calibre's content server (calibre 6.13 from Debian), with a user: what
/// one device leaves, another reads; without the login nothing is sent; a refused login, a book
/// calibre does not have and a stopped server are each said in their own words.
@Suite("Reading places through calibre", .serialized, .enabled(if: CalibreServer.isInstalled, "needs calibre"))
struct CalibreSyncTests {
    /// The book's acquisition link, as calibre's own catalogue writes it.
    static func link(_ server: CalibreServer, user: String, password: String) async throws -> CalibreBookLink {
        let client = OPDSClient(root: server.root, user: user, password: password)
        let root = try await client.feed()
        let byTitle = try #require(root.entries.first { $0.title.contains("Title") }?.navigation?.href)
        let books = try await client.feed(byTitle)
        let acquisition = try #require(books.entries.first?.epub?.href)
        return try #require(CalibreBookLink(acquisition: acquisition), "\(acquisition)")
    }

    @Test func aPlaceLeftByOneDeviceIsReadByAnother() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Vintern 1953", author: "Anna Åberg", language: "sv")], user: ("elsa", "hemligt"))
        defer { server.stop() }
        let link = try await Self.link(server, user: "elsa", password: "hemligt")
        #expect(link.format == "EPUB" && link.bookID > 0)
        #expect(link.server.absoluteString == "http://127.0.0.1:\(server.port)")

        let sync = CalibreSync(user: "elsa", password: "hemligt")
        #expect(try await sync.positions(of: link).isEmpty)
        try await sync.send("epubcfi(/2/2/4/4/1:3)", fraction: 0.43, device: "phone", of: link)
        try await Task.sleep(for: .milliseconds(1100))
        try await sync.send("epubcfi(/2/2/4/2/1:0)", fraction: 0.1, device: "laptop", of: link)
        let places = try await sync.positions(of: link)
        #expect(places.map(\.device) == ["laptop", "phone"], "newest first")
        #expect(places.last?.cfi == "epubcfi(/2/2/4/4/1:3)" && places.last?.fraction == 0.43)
    }

    @Test func withoutTheLoginNothingIsSentAndEachFailureIsSaid() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "The Lake", author: "John Smith", language: "en")], user: ("elsa", "hemligt"))
        let link = try await Self.link(server, user: "elsa", password: "hemligt")
        let name = "127.0.0.1:\(server.port)"
        await #expect(throws: CalibreSync.Failure(kind: .needsLogin, server: name)) {
            try await CalibreSync(user: nil, password: nil).send(
                "epubcfi(/2/2/4/2/1:0)", fraction: 0, device: "x", of: link)
        }
        await #expect(throws: CalibreSync.Failure(kind: .loginRefused, server: name)) {
            try await CalibreSync(user: "elsa", password: "fel").positions(of: link)
        }
        var missing = link
        missing.bookID = 999
        await #expect(throws: CalibreSync.Failure(kind: .strangeAnswer, server: name)) {
            try await CalibreSync(user: "elsa", password: "hemligt").send(
                "epubcfi(/2/2/4/2/1:0)", fraction: 0, device: "x", of: missing)
        }
        server.stop()
        let failure = await #expect(throws: CalibreSync.Failure.self) {
            try await CalibreSync(user: "elsa", password: "hemligt", deadline: 2).positions(of: link)
        }
        #expect(failure?.kind == .unreachable)
        #expect(failure?.patronMessage == "\(name) did not answer; your place waits and is sent next time.")
    }

    @Test(arguments: [
        ("http://h:8080/get/EPUB/3/Calibre_Library", "http://h:8080", "Calibre_Library", 3),
        ("https://h/calibre/get/epub/12/my%20books?x=1", "https://h/calibre", "my books", 12),
    ])
    func acquisitionLinksNameTheBook(url: String, server: String, library: String, id: Int) throws {
        let link = try #require(CalibreBookLink(acquisition: URL(string: url)!))
        #expect(link.server.absoluteString == server && link.library == library && link.bookID == id)
        #expect(link.format == "EPUB")
    }

    @Test(arguments: [
        "http://h/get/EPUB/x/lib", "http://h/opds/get/EPUB", "ftp://h/get/EPUB/3/lib", "http://h/books/3.epub",
    ])
    func otherLinksAreNotCalibres(url: String) {
        #expect(CalibreBookLink(acquisition: URL(string: url)!) == nil)
    }
}

/// A sync server that is not what it says: huge, slow, garbage, redirecting elsewhere. Each is
/// bounded, said in one line, and nothing of what it sent is shown.
struct HostileSyncServerTests {
    static func link(_ server: HostileServer) -> CalibreBookLink {
        CalibreBookLink(
            server: URL(string: "http://127.0.0.1:\(server.port)")!, library: "lib", bookID: 1, format: "EPUB")
    }

    @Test(arguments: ["huge", "slow", "garbage", "elsewhere", "control"])
    func boundedAndSaidInWords(kind: String) async throws {
        let server = try HostileServer.start { _ in
            switch kind {
            case "huge":
                [.send(HostileServer.head(200, [("Content-Type", "application/json")])), .stream(total: 50 << 20)]
            case "slow":
                [
                    .send(HostileServer.head(200, [("Content-Type", "application/json")])),
                    .drip(Data(repeating: 0x20, count: 100), every: 0.5),
                ]
            case "garbage": HostileServer.answer(200, json: "<html>not json</html>")
            case "elsewhere": [.send(HostileServer.head(302, [("Location", "http://192.0.2.1/steal")]))]
            default:
                HostileServer.answer(
                    200,
                    json: #"{"1:EPUB": [{"device": "\u001b]0;pwned\u0007phone\u001b[2J", "cfi": "epubcfi(/2/2)", "#
                        + #""epoch": 1, "pos_frac": 7}]}"#)
            }
        }
        defer { server.stop() }
        let started = Date()
        let sync = CalibreSync(user: "elsa", password: "hemligt", deadline: 2)
        do {
            let places = try await sync.positions(of: Self.link(server))
            #expect(kind == "control", "\(kind) was taken as places: \(places)")
            #expect(places.first?.device.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } == true)
            #expect(places.first?.fraction == 1, "a fraction past the end is the end")
        } catch {
            #expect(kind != "control")
            #expect(!error.patronMessage.contains("html") && !error.patronMessage.contains("192.0.2.1"))
            #expect([.unreachable, .strangeAnswer].contains(error.kind), "\(kind): \(error)")
        }
        #expect(Date().timeIntervalSince(started) < 4, "\(kind) took too long")
        #expect(server.bytesSent < 50 << 20, "\(kind): all of a huge answer was read")
    }
}
