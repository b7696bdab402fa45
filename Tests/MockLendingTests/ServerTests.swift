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

/// The server over HTTP, through the real client (`HTTPLendingService`) wherever it can be.
@Suite("Mock lending server")
struct ServerTests {
    /// The text `sort=author` compares, of each hit.
    func authorTexts(_ page: SearchPage) -> [String] { page.products.map(ProductOrdering.authorSortText) }

    @Test("author:Å* sorted by author follows Swedish order both ways")
    func authorPrefixSortedSwedish() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let up = try await client.search(
                SearchRequest(query: "author:Å*", sort: SortSpec(.author, .ascending), limit: 100))
            let down = try await client.search(
                SearchRequest(query: "author:Å*", sort: SortSpec(.author, .descending), limit: 100))
            #expect(up.total >= 10 && up.total == down.total && up.products.count == up.total)
            let swedish = ProductOrdering(collation: Collation(.swedish))
            #expect(up.products.map(\.id) == swedish.sorted(up.products, by: SortSpec(.author, .ascending)).map(\.id))
            #expect(
                down.products.map(\.id) == swedish.sorted(up.products, by: SortSpec(.author, .descending)).map(\.id))
            // A patron sees it: Åberg and Åkesson come after Andersson going up, first going down.
            let names = authorTexts(up)
            let lastNonSwedish = try #require(names.lastIndex { !"ÅÄÖ".contains($0.first!) })
            let firstAring = try #require(names.firstIndex { $0.hasPrefix("Å") })
            #expect(lastNonSwedish < firstAring)
            #expect("ÅÄÖ".contains(authorTexts(down)[0].first!))
            // And in English order Åberg would sort among the A's: the orders really differ.
            let english = ProductOrdering(collation: Collation(.english)).sorted(up.products, by: SortSpec(.author))
            #expect(english.map(\.id) != up.products.map(\.id))
        }
    }

    @Test("Field terms, prefixes and the empty query")
    func queries() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let thrillers = try await client.search(SearchRequest(query: "category:thriller", limit: 100))
            #expect(thrillers.total > 20)
            #expect(thrillers.products.allSatisfy { $0.categories.contains("Thriller") })
            let exact = try await client.search(SearchRequest(query: "title:sommar"))
            let prefix = try await client.search(SearchRequest(query: "title:sommar*"))
            #expect(prefix.total > exact.total)
            let everything = try await client.search(SearchRequest(query: "", sort: SortSpec(.popularity)))
            #expect(everything.total == 600)
            #expect(everything.products.count == 20)
            let popularity = everything.products.map { $0.popularity ?? 0 }
            #expect(popularity == popularity.sorted(by: >))
            let newest = try await client.search(SearchRequest(query: "", sort: SortSpec(.date), limit: 5))
            let dates = newest.products.compactMap(\.publishedDate)
            #expect(dates.count == 5 && dates == dates.sorted(by: >))
        }
    }

    @Test("Filters narrow the hits and totals count every page")
    func filtersAndPagination() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let english = try await client.search(
                SearchRequest(query: "", limit: 100, filters: SearchFilters(language: "en")))
            #expect(english.total > 0 && english.products.allSatisfy { $0.language == "en" })
            let available = try await client.search(
                SearchRequest(
                    query: "category:deckare", limit: 100,
                    filters: SearchFilters(availableOnly: true)))
            #expect(available.products.allSatisfy { $0.availability?.available == true })
            let all = try await client.search(
                SearchRequest(query: "category:deckare", sort: SortSpec(.title), limit: 100))
            #expect(available.total < all.total)
            var pages: [String] = []
            for offset in stride(from: 0, to: all.total, by: 9) {
                let page = try await client.search(
                    SearchRequest(query: "category:deckare", sort: SortSpec(.title), offset: offset, limit: 9))
                #expect(page.total == all.total)
                #expect(page.offset == offset)
                pages += page.products.map(\.id)
            }
            #expect(pages == all.products.map(\.id))
        }
    }

    @Test("Search results carry availability; with card 1002 it says borrower")
    func embeddedAvailability() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let top = try await client.search(SearchRequest(query: "", sort: SortSpec(.popularity), limit: 4))
            #expect(top.products.allSatisfy { $0.availability != nil })
            #expect(top.products[0].availability?.available == true)
            #expect(top.products[1].availability?.reason == .product)
            #expect((top.products[1].availability?.waiting ?? 0) > 0)
            #expect(top.products[2].availability?.reason == .library)
            #expect(top.products[3].publishedDate != nil)
            let asNils = try await client.search(
                SearchRequest(query: "", sort: SortSpec(.popularity), limit: 1, card: "1002"))
            #expect(asNils.products[0].availability?.reason == .borrower)
            // The availability call agrees with the search.
            let id = top.products[0].id
            #expect(try await client.availability(productID: id, card: nil).available)
            #expect(try await client.availability(productID: id, card: "1002").reason == .borrower)
            let out = try await client.availability(productID: top.products[1].id, card: nil)
            #expect(out.reason == .product)
            #expect((out.copies ?? 0) >= 2, "the client learns the copies from libraryproducts")
        }
    }

    @Test("A product, its licence and the library page")
    func productLicenceLibrary() async throws {
        try await TestServer.with { server in
            let client = server.client()
            let hit = try await client.search(SearchRequest(query: "", sort: SortSpec(.popularity), limit: 1)).products[
                0]
            let product = try await client.product(id: hit.id)
            #expect(product.title == hit.title)
            let origin = "http://127.0.0.1:\(server.server.port)/mock/content/\(hit.id)/"
            #expect(product.coverImage == origin + "cover.png")
            if let teaser = product.teaser { #expect(teaser.url == origin + "sample.epub") }
            let models = try await client.licence(productID: hit.id)
            #expect(models.count == 1 && models[0].model == "copies" && models[0].isAvailable)
            let library = try await client.library()
            #expect(library.name == "Malmö stadsbibliotek (simulerat)")
            #expect(library.loanPeriodDays == 28 && library.maxLoansPerMonth == 5 && library.locale == "sv-SE")
            #expect(library.alerts.count >= 2 && library.events.count >= 2)
        }
    }

    @Test("Upstream's spellings: ProductId in a product, ProductID elsewhere, JSON content type")
    func rawSpellings() async throws {
        try await TestServer.with { server in
            let id = "1104729"
            let (product, response) = try await server.rawGet("products/\(id)", checksumOf: [id])
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let productText = String(decoding: product, as: UTF8.self)
            #expect(productText.contains("\"ProductId\":\"\(id)\"") && !productText.contains("ProductID\""))
            let (availability, _) = try await server.rawGet(
                "books/availability/\(id)", checksumOf: ["", id], query: [("card", "")])
            #expect(String(decoding: availability, as: UTF8.self).contains("\"ProductID\":\"\(id)\""))
            let (licence, _) = try await server.rawGet("libraryproducts/\(id)", checksumOf: [id])
            let licenceText = String(decoding: licence, as: UTF8.self)
            #expect(licenceText.contains("\"ProductID\":\"\(id)\"") && licenceText.contains("\"ModelAvailabilities\""))
            let (search, _) = try await server.rawGet("products", checksumOf: ["thriller"], query: [("q", "thriller")])
            let searchText = String(decoding: search, as: UTF8.self)
            #expect(searchText.contains("\"TotalCount\":") && searchText.contains("\"Availability\":{"))
            // The checksum covers the decoded query, spaces and Swedish letters included.
            let (swedish, swedishResponse) = try await server.rawGet(
                "products", checksumOf: ["author:Ö* +sv"],
                query: [("q", "author:Ö* +sv")])
            #expect(swedishResponse.statusCode == 200, "\(String(decoding: swedish, as: UTF8.self))")
        }
    }

    @Test("A wrong checksum or service id is refused with a reason")
    func authentication() async throws {
        try await TestServer.with { server in
            let checksum = await #expect(throws: LendingError.self) {
                _ = try await server.client(serviceKey: "wrong").search(SearchRequest(query: "thriller"))
            }
            #expect(
                checksum?.kind == .unauthorized && checksum?.status == 401 && checksum?.reason == "Invalid checksum")
            let service = await #expect(throws: LendingError.self) {
                _ = try await server.client(serviceID: "someone-else").library()
            }
            #expect(service?.kind == .unauthorized && service?.reason?.contains("service id") == true)
            // The checksum covers the parameters: a valid checksum for another product does not do.
            let (_, response) = try await server.rawGet("products/1104729", checksumOf: ["1112648"])
            #expect(response.statusCode == 401)
        }
    }

    @Test("An unknown product is 404 Product not found")
    func unknownProduct() async throws {
        try await TestServer.with { server in
            for call in ["product", "availability", "licence"] {
                let error = await #expect(throws: LendingError.self) {
                    let client = server.client()
                    switch call {
                    case "product": _ = try await client.product(id: "42")
                    case "availability": _ = try await client.availability(productID: "42", card: nil)
                    default: _ = try await client.licence(productID: "42")
                    }
                }
                #expect(error?.kind == .notFound && error?.reason == "Product not found", "\(call)")
            }
            let (body, response) = try await server.rawGet("products/42", checksumOf: ["42"])
            #expect(response.statusCode == 404)
            #expect(String(decoding: body, as: UTF8.self).contains("\"ResponseStatus\":\"NotFound\""))
        }
    }

    @Test("A query that does not parse is 400 with the parser's explanation")
    func badQuery() async throws {
        try await TestServer.with { server in
            let error = await #expect(throws: LendingError.self) {
                _ = try await server.client().search(SearchRequest(query: "colour:red"))
            }
            #expect(error?.status == 400 && error?.reason?.contains("Unknown field \"colour:\"") == true)
        }
    }

    @Test("Faults: malformed, slow, failing and dropped answers reach the client as the right errors")
    func faults() async throws {
        try await TestServer.with { server in
            let client = server.client(timeout: 2)
            let request = SearchRequest(query: "thriller")

            try await server.control("POST", "faults", json: #"{"Malformed": true}"#)
            let malformed = await #expect(throws: LendingError.self) { _ = try await client.search(request) }
            #expect(malformed?.kind == .badResponse)

            try await server.control("POST", "faults", json: #"{"ErrorRate": 1.0}"#)
            let failing = await #expect(throws: LendingError.self) { _ = try await client.library() }
            #expect(failing?.kind == .rejected && failing?.status == 500)

            try await server.control("POST", "faults", json: #"{"LatencyMs": 600}"#)
            let fast = server.client(timeout: 0.3)
            let slow = await #expect(throws: LendingError.self) { _ = try await fast.library() }
            #expect(slow?.kind == .timeout)
            let started = ContinuousClock.now
            _ = try await client.library()
            #expect(started.duration(to: .now) >= .milliseconds(600), "latency applies before answering")

            try await server.control("POST", "faults", json: #"{"Drop": true}"#)
            let dropped = await #expect(throws: LendingError.self) { _ = try await client.library() }
            #expect(dropped?.kind == .dropped || dropped?.kind == .unreachable, "\(String(describing: dropped))")

            // Control routes are never faulted, so the faults can be cleared.
            let (state, _) = try await server.control("GET", "state")
            #expect(String(decoding: state, as: UTF8.self).contains("\"Drop\":true"))
            try await server.control("DELETE", "faults")
            #expect(try await client.library().name.contains("Malmö"))
        }
    }

    @Test("Faults that make no sense are refused")
    func badFaults() async throws {
        try await TestServer.with { server in
            let (body, response) = try await server.control("POST", "faults", json: #"{"ErrorRate": 3}"#)
            #expect(response.statusCode == 400)
            #expect(String(decoding: body, as: UTF8.self).contains("ErrorRate"))
            let (_, notJSON) = try await server.control("POST", "faults", json: "drop please")
            #expect(notJSON.statusCode == 400)
        }
    }

    @Test("State and reset")
    func stateAndReset() async throws {
        try await TestServer.with(MockConfiguration(seed: 5, catalogSize: 300)) { server in
            let (data, response) = try await server.control("GET", "state")
            #expect(response.statusCode == 200)
            let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(state["Seed"] as? Int == 5)
            #expect(state["CatalogSize"] as? Int == 300)
            #expect((state["Loans"] as? [Any])?.count ?? 0 >= 11)
            #expect((state["Waiting"] as? Int ?? 0) > 0)
            #expect(state["Clock"] is String)
            let patrons = try #require(state["Patrons"] as? [[String: Any]])
            #expect(patrons.map { $0["Card"] as? String } == ["1001", "1002", "1003", "1004"])
            try await server.control("POST", "faults", json: #"{"LatencyMs": 5}"#)
            let (reset, _) = try await server.control("POST", "reset")
            #expect(String(decoding: reset, as: UTF8.self).contains("\"LatencyMs\":0"))
        }
    }

    @Test("Two servers with the same seed serve the same catalogue")
    func sameSeedSameServer() async throws {
        let a = try await TestServer.with {
            try await $0.client().search(SearchRequest(query: "", sort: SortSpec(.title), limit: 50))
        }
        let b = try await TestServer.with {
            try await $0.client().search(SearchRequest(query: "", sort: SortSpec(.title), limit: 50))
        }
        #expect(a.products.map(\.id) == b.products.map(\.id))
    }
}

/// `bok mock-server` and `bok --mock` start the server and stop it when they end.
@Suite("Stopping the server", .serialized)
struct StoppingServerTests {
    @Test("stop closes the port")
    func stopClosesPort() async throws {
        let configuration = MockConfiguration(seed: 9, catalogSize: 200)
        let server = try await MockLendingServer.start(configuration, logger: TestServer.quiet)
        let client = HTTPLendingService(
            endpoint: LibraryEndpoint(
                baseURL: server.baseURL, serviceID: configuration.serviceID,
                serviceKey: configuration.serviceKey))
        #expect(try await client.search(SearchRequest(query: "")).total == 200)
        await server.stop()
        let error = await #expect(throws: LendingError.self) { _ = try await client.library() }
        #expect(error?.kind == .unreachable, "the port is closed after stopping")
    }

    /// Connections waiting past the limit used to be accepted while the server stopped, and NIO
    /// stopped the whole process over their unfinished writers (about one stop in five).
    @Test("Stopping with connections waiting past the limit ends cleanly")
    func stopWithBacklog() async throws {
        for _ in 0..<25 {
            var configuration = MockConfiguration(seed: 9, catalogSize: 50)
            configuration.maxConnections = 2
            configuration.idleTimeout = .milliseconds(200)
            let server = try await MockLendingServer.start(configuration, logger: TestServer.quiet)
            var waiting: [Int32] = []
            for _ in 0..<12 {
                let fd = try #require(RawConnection.open(port: server.port))
                RawConnection.send(fd, "GET /mock/clock HTTP/1.1\r\n")
                waiting.append(fd)
            }
            try await Task.sleep(for: .milliseconds(250))
            for fd in waiting { close(fd) }
            await server.stop()
        }
    }
}
