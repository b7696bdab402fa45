import Catalog
import Foundation
import TestSupport
import Testing

/// An OPDS catalogue seen as a lending service (``OPDSLendingService``): pages gathered across the
/// server's own page size, the total from `opensearch:totalResults`, an order through the feed's
/// facets (and a clear refusal where there is none), filters applied to what the feed gives, and
/// top and new from the root's popular and new feeds. Against ``HostileServer`` on 127.0.0.1.
struct OPDSLendingServiceTests {
    /// Twelve books, four to a page; `sort=title` lists them by title, `order=desc` backwards.
    static func catalogue() throws -> HostileServer {
        let titles = (1...12).map { String(format: "Book %02d", $0) }
        @Sendable func page(_ query: [String: String]) -> String {
            var order = Array(titles.indices)
            if query["sort"] == "title" { order.sort { titles[$0] < titles[$1] } } else { order.reverse() }
            if query["order"] == "desc" { order.reverse() }
            let start = Int(query["start"] ?? "0") ?? 0
            let shown = order.dropFirst(start).prefix(4)
            func link(_ start: Int) -> String {
                "/search?q=x&amp;start=\(start)"
                    + (query["sort"].map { "&amp;sort=\($0)" } ?? "")
                    + (query["order"].map { "&amp;order=\($0)" } ?? "")
            }
            var feed = """
                <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" \
                xmlns:opds="http://opds-spec.org/2010/catalog" \
                xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"><title>Hits</title>\
                <opensearch:totalResults>12</opensearch:totalResults>\
                <link rel="http://opds-spec.org/facet" href="/search?q=x&amp;sort=title" title="Title" \
                opds:facetGroup="Sort by" opds:activeFacet="\(query["sort"] == "title")"/>\
                <link rel="http://opds-spec.org/facet" href="\(link(0))&amp;order=desc" title="Descending" \
                opds:facetGroup="Order"/>
                """
            if start + 4 < titles.count { feed += #"<link rel="next" href="\#(link(start + 4))"/>"# }
            for index in shown {
                let available = index % 2 == 0 ? "available" : "unavailable"
                feed += """
                    <entry><id>urn:book:\(index + 1)</id><title>\(titles[index])</title>\
                    <author><name>Åsa Berg</name></author><dcterms:language \
                    xmlns:dcterms="http://purl.org/dc/terms/">\(index < 6 ? "sv" : "en")</dcterms:language>\
                    <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/\(index + 1)" \
                    type="application/atom+xml;type=entry;profile=opds-catalog">\
                    <opds:availability status="\(available)"/></link></entry>
                    """
            }
            return feed + "</feed>"
        }
        return try HostileServer.start { request in
            let atom = "application/atom+xml;profile=opds-catalog"
            func reply(_ text: String) -> [HostileServer.Step] {
                let body = Data(text.utf8)
                return [
                    .send(
                        HostileServer.head(200, [("Content-Type", atom), ("Content-Length", String(body.count))])
                            + body)
                ]
            }
            let query = Dictionary(
                (URLComponents(string: request.target)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { a, _ in a })
            switch request.path {
            case "/":
                return reply(
                    #"<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Lånebiblioteket</title>"#
                        + #"<link rel="search" href="/search?q={searchTerms}" type="application/atom+xml"/>"#
                        + #"<link rel="http://opds-spec.org/sort/popular" href="/search?q=x&amp;sort=title" "#
                        + #"type="application/atom+xml"/></feed>"#)
            case "/search": return reply(page(query))
            default: return HostileServer.answer(404, json: "{}")
            }
        }
    }

    @Test("pages are gathered across the server's page size, with its total")
    func pagesAcrossPageSizes() async throws {
        let server = try Self.catalogue()
        defer { server.stop() }
        let service = OPDSLendingService(client: OPDSClient(root: server.baseURL, timeout: 5))
        let first = try await service.search(SearchRequest(query: "x", limit: 6))
        #expect(first.total == 12)
        #expect(first.products.map(\.title) == (7...12).reversed().map { String(format: "Book %02d", $0) })
        let second = try await service.search(SearchRequest(query: "x", offset: 6, limit: 6))
        #expect(second.products.map(\.title) == (1...6).reversed().map { String(format: "Book %02d", $0) })
        #expect(second.offset == 6)
        // The second page did not fetch the first again.
        #expect(server.requests.filter { $0.path == "/search" }.count == 3)
        // The feed's words become the lending model's.
        let book = try await service.product(id: "urn:book:12")
        #expect(book.contributors.map(\.lastName) == ["Berg"] && book.language == "en")
        #expect(book.availability?.available == false)
    }

    @Test("an order is a facet; the other direction is the Order facet; an order the feed lacks is refused in words")
    func orderThroughFacets() async throws {
        let server = try Self.catalogue()
        defer { server.stop() }
        let service = OPDSLendingService(client: OPDSClient(root: server.baseURL, timeout: 5))
        let byTitle = try await service.search(SearchRequest(query: "x", sort: SortSpec(.title), limit: 3))
        #expect(byTitle.products.map(\.title) == ["Book 01", "Book 02", "Book 03"])
        let backwards = try await service.search(
            SearchRequest(query: "x", sort: SortSpec(.title, .descending), limit: 3))
        #expect(backwards.products.map(\.title) == ["Book 12", "Book 11", "Book 10"])
        await #expect {
            _ = try await service.search(SearchRequest(query: "x", sort: SortSpec(.rating), limit: 3))
        } throws: { error in
            (error as? LendingError)?.kind == .unsupported
                && (error as? LendingError)?.message
                    == "The catalogue at 127.0.0.1:\(server.port) cannot sort by rating."
        }
    }

    @Test("filters the feed has no facet for are applied to every page; top is the root's popular feed")
    func filtersAndTop() async throws {
        let server = try Self.catalogue()
        defer { server.stop() }
        let service = OPDSLendingService(client: OPDSClient(root: server.baseURL, timeout: 5))
        let available = try await service.search(
            SearchRequest(query: "x", limit: 20, filters: SearchFilters(language: "sv", availableOnly: true)))
        #expect(available.total == 3)
        #expect(available.products.map(\.title) == ["Book 05", "Book 03", "Book 01"])
        // Pages are followed only until the hits asked for are there; while a next page exists the
        // total says there is more, so more goes on.
        let requests = server.requests.count
        let one = try await service.search(
            SearchRequest(query: "x", limit: 1, filters: SearchFilters(language: "sv", availableOnly: true)))
        #expect(one.products.map(\.title) == ["Book 05"] && one.total == 2)
        #expect(server.requests.count - requests == 2)
        let next = try await service.search(
            SearchRequest(query: "x", offset: 1, limit: 1, filters: SearchFilters(language: "sv", availableOnly: true)))
        #expect(next.products.map(\.title) == ["Book 03"] && next.total == 3)
        let top = try await service.search(SearchRequest(query: "", sort: SortSpec(.popularity), limit: 2))
        #expect(top.products.map(\.title) == ["Book 01", "Book 02"])
        #expect(try await service.library().name == "Lånebiblioteket")
    }
}
