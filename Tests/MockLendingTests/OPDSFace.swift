import Catalog
import Foundation
import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mock's OPDS face as bok's own OPDS client sees it, for one test's server.
struct OPDSFace {
    let server: TestServer

    var origin: String { "http://127.0.0.1:\(server.server.port)" }
    var root: URL { URL(string: origin + "/opds/")! }

    /// bok's OPDS client, logged in as `card` when given.
    func client(_ card: String? = nil, pin: String? = nil) -> OPDSClient {
        OPDSClient(root: root, user: card, password: card.map { pin ?? LendingFixtures.pins[$0]! })
    }

    /// The feed at `path` (`/opds/…`) through bok's client.
    func feed(_ path: String, as card: String? = nil) async throws -> OPDSFeed {
        try await client(card).feed(URL(string: origin + path)!)
    }

    /// A raw call, for what the client does not show (statuses, headers, problem documents); through
    /// bok's own transfer (libcurl), as corelibs URLSession waits on a 401's Basic challenge.
    func call(
        _ method: String, _ path: String, card: String? = nil, pin: String? = nil, range: String? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        let url = URL(string: path.hasPrefix("http") ? path : origin + path)!
        var request = HTTPRequest(url: url, method: method)
        if let card {
            let login = "\(card):\(pin ?? LendingFixtures.pins[card]!)"
            request.headers.append(("Authorization", "Basic " + Data(login.utf8).base64EncodedString()))
        }
        if let range { request.headers.append(("Range", range)) }
        let (data, head) = try await BoundedExchange(accept: "*/*", deadline: 10, maxBytes: 16 << 20).run(request)
        return (
            data,
            HTTPURLResponse(url: url, statusCode: head.status, httpVersion: "HTTP/1.1", headerFields: head.headers)!
        )
    }

    /// One book's entry document, read with bok's parser.
    func entry(_ id: String, as card: String? = nil) async throws -> OPDSEntry {
        let (data, http) = try await call("GET", "/opds/books/\(id)", card: card)
        guard http.statusCode == 200 else { throw Unexpected(status: http.statusCode, body: data) }
        return try OPDSParser.entry(data, base: root)
    }

    /// Follows a borrow (or revoke) path with a login: the status and the entry answered.
    func post(_ path: String, as card: String, pin: String? = nil) async throws -> (Int, OPDSEntry?, Problem?) {
        let (data, http) = try await call("POST", path, card: card, pin: pin)
        if (200..<300).contains(http.statusCode) {
            return (http.statusCode, try OPDSParser.entry(data, base: root), nil)
        }
        return (http.statusCode, nil, try? JSONDecoder().decode(Problem.self, from: data))
    }

    struct Problem: Decodable, Equatable {
        var type: String
        var title: String
        var detail: String
        var status: Int
    }

    struct Unexpected: Error {
        let status: Int
        let body: Data
    }

    /// `opensearch:totalResults` of a feed (bok's parser does not keep it).
    func total(_ path: String, as card: String? = nil) async throws -> Int? {
        let (data, _) = try await call("GET", path, card: card)
        let text = String(decoding: data, as: UTF8.self)
        guard let start = text.range(of: "<opensearch:totalResults>"),
            let end = text.range(of: "</opensearch:totalResults>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return Int(text[start.upperBound..<end.lowerBound])
    }
}

extension OPDSEntry {
    /// The product id of a book entry (`urn:bok:product:ID`).
    var productID: String? {
        id.hasPrefix("urn:bok:product:") ? String(id.dropFirst("urn:bok:product:".count)) : nil
    }

    /// The link that returns or cancels (`http://librarysimplified.org/terms/rel/revoke`).
    var revokeLink: OPDSLink? { links.first { $0.relations.contains("http://librarysimplified.org/terms/rel/revoke") } }
}
