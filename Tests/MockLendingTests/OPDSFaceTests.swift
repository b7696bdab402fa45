import Catalog
import Foundation
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mock's OPDS face (`/opds/`), read with bok's own OPDS parser and client, against the Elib
/// API of the same server: the same books, the same order, the same loans and the same refusals.
@Suite("Mock lending: the OPDS face")
struct OPDSFaceTests {
    static let acquisition = "application/atom+xml;profile=opds-catalog;kind=acquisition"

    @Test("The root feed is named as the library page, links search, shelf, popular, new and login, lists categories")
    func root() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let feed = try await face.client().feed()
            #expect(feed.title == (try await server.client().library().name))
            func href(_ rel: String) -> String? { feed.link(rel)?.href.path }
            #expect(feed.link("self")?.href == face.root && feed.link("start")?.href == face.root)
            #expect(href("http://opds-spec.org/shelf") == "/opds/loans")
            #expect(feed.link("http://opds-spec.org/shelf")?.type == Self.acquisition)
            #expect(href("http://opds-spec.org/sort/popular") == "/opds/top")
            #expect(href("http://opds-spec.org/sort/new") == "/opds/new")
            #expect(feed.link("search")?.type == "application/opensearchdescription+xml")
            #expect(feed.link("http://opds-spec.org/auth/document")?.href.path == "/opds/authentication")
            // Also without the slash.
            #expect(try await face.feed("/opds").title == feed.title)

            #expect(Array(feed.entries.prefix(2).map(\.title)) == ["Popular", "New"])
            let categories = Set(Fixtures.catalog.products.flatMap(\.categories))
            #expect(Set(feed.entries.dropFirst(2).map(\.title)) == categories)
            #expect(feed.entries.dropFirst(2).count == categories.count)
            for entry in feed.entries {
                let link = try #require(entry.navigation, "\(entry.title)")
                #expect(link.type == Self.acquisition && link.relations == ["subsection"])
            }
            // A category leads to its books, as a category filter on the Elib search.
            let crime = try #require(feed.entries.first { $0.title == "Deckare" })
            let books = try await face.client().feed(crime.navigation!.href)
            let elib = try await server.client().search(
                SearchRequest(query: "", filters: SearchFilters(category: "Deckare")))
            #expect(books.entries.compactMap(\.productID) == elib.products.map(\.id) && !books.entries.isEmpty)
            #expect(books.entries.allSatisfy { $0.subjects.contains("Deckare") })
        }
    }

    @Test("The authentication document is read by bok's parser: the library's name, Library card and PIN")
    func authenticationDocument() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let document = try #require(try await face.client().authentication())
            #expect(document.title == (try await server.client().library().name))
            #expect(document.description == "Log in with your library card and PIN.")
            #expect(document.basic?.loginLabel == "Library card" && document.basic?.passwordLabel == "PIN")
            let (data, _) = try await face.call("GET", "/opds/authentication")
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(json["id"] as? String == face.origin + "/opds/authentication")

            // A call that needs a login and has none: 401, a Basic challenge and the same document.
            let id = LendingFixtures.accessTitle()
            for path in ["/opds/books/\(id)/borrow", "/opds/loans", "/opds/books/\(id)/revoke"] {
                let (body, http) = try await face.call("GET", path)
                #expect(http.statusCode == 401, "\(path)")
                #expect(http.value(forHTTPHeaderField: "WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
                #expect(
                    http.value(forHTTPHeaderField: "Content-Type") == "application/vnd.opds.authentication.v1.0+json")
                #expect(try OPDSAuthentication.parse(body).basic?.passwordLabel == "PIN")
            }
        }
    }

    @Test(
        "Search through the OpenSearch description finds what the Elib search finds, in its order",
        arguments: [
            ("", SortKey.relevance), ("author:Å*", .relevance), ("deckare", .title), ("natt", .author),
            ("", .date), ("thriller", .popularity),
        ])
    func searchMatchesElib(query: String, sort: SortKey) async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let elib = try await server.client().search(SearchRequest(query: query, sort: SortSpec(sort)))
            #expect(!elib.products.isEmpty)
            var feed = try await face.client().search(query, from: try await face.client().feed())
            if sort != .relevance {
                let facet = try #require(feed.facets.first { $0.title?.lowercased() == sort.rawValue })
                feed = try await face.client().feed(facet.href)
            }
            #expect(feed.entries.compactMap(\.productID) == elib.products.map(\.id))
            let path = "/opds/search" + (feed.link("self").map { "?" + ($0.href.query ?? "") } ?? "")
            #expect(try await face.total(path) == elib.total)
        }
    }

    @Test("Pages follow next and previous links with the same total, and the last page has no next")
    func paging() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let all = try await server.client().search(SearchRequest(query: "author:Å*", limit: 100))
            #expect(all.total > 20)
            var path = "/opds/search?q=author%3A%C3%85%2A&limit=10"
            var seen: [String] = []
            var pages: [OPDSFeed] = []
            while true {
                let feed = try await face.feed(path)
                #expect(try await face.total(path) == all.total)
                pages.append(feed)
                seen += feed.entries.compactMap(\.productID)
                guard let next = feed.link("next") else { break }
                path = next.href.path + "?" + (next.href.query ?? "")
            }
            #expect(seen == all.products.map(\.id))
            #expect(pages.count == (all.total + 9) / 10)
            #expect(pages[0].link("previous") == nil && pages[0].link("first") == nil)
            let back = try await face.client().feed(try #require(pages[1].link("previous")).href)
            #expect(back.entries.map(\.id) == pages[0].entries.map(\.id))
            let first = try await face.client().feed(try #require(pages.last?.link("first")).href)
            #expect(first.entries.map(\.id) == pages[0].entries.map(\.id))
        }
    }

    @Test("Facets: sort keys, the order's two directions, available now or all; each the Elib search's order")
    func facets() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let feed = try await face.feed("/opds/search?q=deckare")
            func group(_ feed: OPDSFeed, _ name: String) -> [String?] {
                feed.facets.filter { $0.facetGroup == name }.map(\.title)
            }
            #expect(group(feed, "Sort by") == ["Relevance", "Title", "Author", "Date", "Popularity"])
            #expect(group(feed, "Order") == ["Ascending", "Descending"])
            #expect(group(feed, "Availability") == ["Available now", "All"])
            #expect(feed.facets.filter(\.isActiveFacet).map(\.title) == ["Relevance", "Descending", "All"])
            let byTitle = try await face.client().feed(try #require(feed.facets.first { $0.title == "Title" }).href)
            #expect(byTitle.facets.filter(\.isActiveFacet).map(\.title) == ["Title", "Ascending", "All"])
            let elib = try await server.client().search(SearchRequest(query: "deckare", sort: SortSpec(.title)))
            #expect(byTitle.entries.compactMap(\.productID) == elib.products.map(\.id))
            // The other direction, then only what can be borrowed now, as the Elib search gives them.
            let backwards = try await face.client().feed(
                try #require(byTitle.facets.first { $0.title == "Descending" }).href)
            let elibBackwards = try await server.client().search(
                SearchRequest(query: "deckare", sort: SortSpec(.title, .descending)))
            #expect(backwards.entries.compactMap(\.productID) == elibBackwards.products.map(\.id))
            let now = try await face.client().feed(
                try #require(backwards.facets.first { $0.title == "Available now" }).href)
            let elibNow = try await server.client().search(
                SearchRequest(
                    query: "deckare", sort: SortSpec(.title, .descending), filters: SearchFilters(availableOnly: true)))
            #expect(now.entries.compactMap(\.productID) == elibNow.products.map(\.id))
            #expect(now.facets.filter(\.isActiveFacet).map(\.title) == ["Title", "Descending", "Available now"])
        }
    }

    @Test("Popular and New are bok's top and new lists from the Elib API, paged the same way")
    func topAndNew() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let root = try await face.client().feed()
            for (rel, sort) in [
                ("http://opds-spec.org/sort/popular", SortKey.popularity), ("http://opds-spec.org/sort/new", .date),
            ] {
                let first = try await face.client().feed(try #require(root.link(rel)).href)
                let elib = try await server.client().search(SearchRequest(query: "", sort: SortSpec(sort), limit: 40))
                let second = try await face.client().feed(try #require(first.link("next")).href)
                #expect(
                    (first.entries + second.entries).compactMap(\.productID) == elib.products.map(\.id), "\(sort)")
                #expect(try await face.total(try #require(root.link(rel)).href.path) == elib.total)
            }
        }
    }

    @Test("Anonymous entries say what the Elib API says: available or not, patrons waiting, copies")
    func anonymousAvailability() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let elib = try await server.client().search(
                SearchRequest(query: "", sort: SortSpec(.popularity), limit: 100))
            let feed = try await face.feed("/opds/top?limit=100")
            #expect(feed.entries.count == 100)
            var out = 0
            for (entry, product) in zip(feed.entries, elib.products) {
                let lending = try #require(entry.lending, "\(product.id)")
                let availability = try #require(product.availability)
                #expect(entry.borrowLink != nil && entry.revokeLink == nil && entry.formats.first == "EPUB")
                #expect(lending.state == (availability.available ? .available : .unavailable), "\(product.id)")
                #expect(lending.copies == availability.copies, "\(product.id)")
                if let waiting = availability.waiting { #expect(lending.holds == waiting, "\(product.id)") }
                if lending.copies != nil { #expect((lending.copiesAvailable == 0) == !availability.available) }
                if !availability.available { out += 1 }
            }
            // The popular end of the catalogue has books out, so both states are shown.
            #expect(out > 0 && out < 100)
        }
    }

    @Test("Borrow makes the Elib loan: 201, the file's link, until its expiry day, revoke; a second borrow keeps it")
    func borrow() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.lastCopyTitle()
            let before = try await face.entry(id, as: "1001")
            #expect(before.lending?.state == .available && before.revokeLink == nil)
            let entry = try await face.client("1001").borrow(try #require(before.borrowLink))
            let loans = try await server.lending.loans(card: "1001", onlyActive: true)
            let loan = try #require(loans.first { $0.productID == id })
            #expect(entry.productID == id && entry.lending?.state == .available)
            #expect(entry.lending?.until == loan.expiryDate && loan.expiryDate == LendingFixtures.day(28))
            #expect(entry.epub?.href.path == "/opds/loans/\(loan.id)/fulfil")
            #expect(entry.borrowLink == nil && entry.revokeLink?.href.path == "/opds/books/\(id)/revoke")

            let (status, again, _) = try await face.post("/opds/books/\(id)/borrow", as: "1001")
            #expect(status == 200 && again?.epub?.href == entry.epub?.href)
            #expect(try await server.lending.loans(card: "1001", onlyActive: true).count == loans.count)
            let (made, _, _) = try await face.post("/opds/books/\(LendingFixtures.accessTitle())/borrow", as: "1001")
            #expect(made == 201)

            // Made on the Elib API, shown by OPDS.
            let other = LendingFixtures.accessTitle(1)
            let elibLoan = try await server.lending.createLoan(card: "1001", pin: "1234", productID: other)
            let shown = try await face.entry(other, as: "1001")
            #expect(shown.epub?.href.path == "/opds/loans/\(elibLoan.id)/fulfil")
            #expect(shown.lending?.until == elibLoan.expiryDate)
            // For anyone else it is a book like any other.
            #expect(try await face.entry(other).revokeLink == nil)
        }
    }

    @Test("Borrowing a book that is out places a hold with the patron's place; a second time is refused")
    func hold() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.lastCopyTitle(onlyCopy: true)
            _ = try await server.lending.createLoan(card: "1001", pin: "1234", productID: id)
            let out = try await face.entry(id, as: "1002")
            #expect(out.lending?.state == .unavailable && out.lending?.copiesAvailable == 0)
            let (status, entry, _) = try await face.post("/opds/books/\(id)/borrow", as: "1002")
            let reservation = try #require(
                try await server.lending.reservations(card: "1002").first { $0.productID == id })
            #expect(status == 201 && entry?.lending?.state == .reserved)
            #expect(entry?.lending?.position == reservation.queuePosition && reservation.queuePosition == 1)
            #expect(entry?.lending?.holds == 1 && entry?.revokeLink != nil && entry?.borrowLink != nil)
            #expect(entry?.lending?.since == LendingFixtures.day())
            let (twice, _, problem) = try await face.post("/opds/books/\(id)/borrow", as: "1002")
            #expect(twice == 403 && problem?.detail == "You have already reserved this book")
        }
    }

    @Test("A ready reservation is shown as ready until its last day and borrowed by the borrow link")
    func readyReservation() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.comingBackTitle
            #expect(try await face.entry(id, as: "1003").lending?.state == .reserved)
            try await server.control("POST", "clock", json: #"{"Advance": "2d"}"#)
            let ready = try await face.entry(id, as: "1003")
            let reservation = try #require(
                try await server.lending.reservations(card: "1003").first { $0.productID == id })
            #expect(ready.lending?.state == .ready && ready.lending?.until == reservation.readyUntil)
            #expect(reservation.readyUntil == LendingFixtures.day(5))
            let (status, loan, _) = try await face.post("/opds/books/\(id)/borrow", as: "1003")
            #expect(
                status == 201 && loan?.lending?.state == .available && loan?.lending?.until == LendingFixtures.day(30))
            #expect(try await server.lending.loans(card: "1003", onlyActive: true).contains { $0.productID == id })
            #expect(try await server.lending.reservations(card: "1003").contains { $0.productID == id } == false)
        }
    }

    @Test("The shelf feed lists the card's loans and holds as the Elib API does, each in the patron's form")
    func shelf() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            for card in ["1001", "1002", "1003", "1004"] {
                let root = try await face.client(card).feed()
                let shelf = try await face.client(card).feed(try #require(root.link("http://opds-spec.org/shelf")).href)
                #expect(shelf.title == "Loans")
                let loans = try await server.lending.loans(card: card, onlyActive: true)
                let holds = try await server.lending.reservations(card: card)
                #expect(
                    shelf.entries.compactMap(\.productID) == loans.map(\.productID) + holds.map(\.productID), "\(card)")
                for entry in shelf.entries {
                    #expect(entry.revokeLink != nil)
                    if let loan = loans.first(where: { $0.productID == entry.productID }) {
                        #expect(entry.lending?.state == .available && entry.lending?.until == loan.expiryDate)
                    } else if let hold = holds.first(where: { $0.productID == entry.productID }) {
                        #expect(entry.lending?.state == (hold.ready ? .ready : .reserved))
                        #expect(hold.ready || entry.lending?.position == hold.queuePosition)
                    }
                }
            }
            #expect(!(try await server.lending.reservations(card: "1003")).isEmpty)
        }
    }

    @Test("Revoke returns a loan and cancels a hold (gone from the Elib lists too); nothing to revoke is 404")
    func revoke() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.lastCopyTitle()
            _ = try await face.post("/opds/books/\(id)/borrow", as: "1001")
            let (_, returned) = try await face.call("DELETE", "/opds/books/\(id)/revoke", card: "1001")
            #expect(returned.statusCode == 200)
            let after = try OPDSParser.entry(
                try await face.call("GET", "/opds/books/\(id)", card: "1001").0, base: face.root)
            #expect(after.revokeLink == nil && after.lending?.state == .available)
            #expect(
                try await server.lending.loans(card: "1001", onlyActive: true).contains { $0.productID == id } == false)

            let queued = LendingFixtures.comingBackTitle
            let (status, cancelled, _) = try await face.post("/opds/books/\(queued)/revoke", as: "1003")
            #expect(status == 200 && cancelled?.revokeLink == nil && cancelled?.lending?.state == .unavailable)
            #expect(try await server.lending.reservations(card: "1003").contains { $0.productID == queued } == false)

            let (none, _, problem) = try await face.post("/opds/books/\(id)/revoke", as: "1001")
            #expect(none == 404)
            #expect(problem?.detail == "“\(LendingFixtures.title(id))” is not on loan to you or reserved by you.")
        }
    }

    @Test("Fulfil serves the loan's EPUB as the Elib content link does, ranges too, to its own card only")
    func fulfil() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.accessTitle()
            let (_, entry, _) = try await face.post("/opds/books/\(id)/borrow", as: "1001")
            let link = try #require(entry?.epub)
            let loan = try #require(
                try await server.lending.loans(card: "1001", onlyActive: true).first { $0.productID == id })
            let (elib, _) = try await server.download(try #require(loan.links.first?.contents.first?.url))
            let (book, http) = try await face.call("GET", link.href.absoluteString, card: "1001")
            #expect(http.statusCode == 200 && http.value(forHTTPHeaderField: "Content-Type") == "application/epub+zip")
            #expect(book == elib && book.count > 1000 && book.starts(with: Array("PK".utf8)))
            let (part, partial) = try await face.call(
                "GET", link.href.absoluteString, card: "1001", range: "bytes=100-")
            #expect(partial.statusCode == 206 && part == elib.dropFirst(100))

            let (_, stranger) = try await face.call("GET", link.href.absoluteString, card: "1003")
            #expect(stranger.statusCode == 403)
            let (_, anonymous) = try await face.call("GET", link.href.absoluteString)
            #expect(anonymous.statusCode == 401)
            _ = try await face.post("/opds/books/\(id)/revoke", as: "1001")
            let (ended, gone) = try await face.call("GET", link.href.absoluteString, card: "1001")
            #expect(gone.statusCode == 403)
            let problem = try JSONDecoder().decode(OPDSFace.Problem.self, from: ended)
            #expect(problem.detail.contains("was returned on") && problem.status == 403)
        }
    }

    @Test("A wrong PIN is 401 with the Elib words, never the PIN; the card locks (403) after as many tries as on Elib")
    func wrongPIN() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let id = LendingFixtures.accessTitle()
            for attempt in 1...4 {
                let (data, http) = try await face.call("POST", "/opds/books/\(id)/borrow", card: "1002", pin: "9999")
                #expect(http.statusCode == 401 && http.value(forHTTPHeaderField: "WWW-Authenticate") != nil)
                #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
                let problem = try JSONDecoder().decode(OPDSFace.Problem.self, from: data)
                #expect(
                    problem.detail == "Wrong PIN for card 1002; \(5 - attempt) \(attempt == 4 ? "try" : "tries") left "
                        + "before the card is locked for 15 minutes.")
                #expect(problem.status == 401)
                #expect(!String(decoding: data, as: UTF8.self).contains("9999"))
            }
            let (fifth, _, problem) = try await face.post("/opds/books/\(id)/borrow", as: "1002", pin: "9999")
            #expect(fifth == 403 && problem?.detail == "Card 1002 is locked after 5 wrong PINs; try again after 10:15.")
            // The same card on the Elib API is locked too, even with the right PIN.
            let elib = await #expect(throws: LendingError.self) {
                _ = try await server.lending.verifyPatron(card: "1002", pin: "2345")
            }
            #expect(elib?.status == 403 && elib?.reason == problem?.detail)
            let (right, _, locked) = try await face.post("/opds/books/\(id)/borrow", as: "1002")
            #expect(right == 403 && locked?.detail == problem?.detail)
            // bok's client says the login was not accepted.
            let refused = await #expect(throws: LendingError.self) {
                _ = try await face.client("1002").feed(URL(string: face.origin + "/opds/loans")!)
            }
            #expect(refused?.kind == .unauthorized)

            // A wrong PIN on a feed counts too (the face is no way around the lock), and the feed is anyone's.
            for _ in 1...4 {
                let entry = try await face.client("1001", pin: "0000").feed(
                    URL(string: face.origin + "/opds/search?q=&limit=1")!)
                #expect(entry.entries.first?.revokeLink == nil)
            }
            let fifthOnFeed = await #expect(throws: LendingError.self) {
                _ = try await server.lending.createLoan(card: "1001", pin: "0000", productID: id)
            }
            #expect(fifthOnFeed?.reason?.contains("locked after 5 wrong PINs") == true)
        }
    }

    @Test("At the monthly limit: entries say unavailable for that card, and borrow is 403 in the Elib words")
    func loanLimit() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let (status, _, _) = try await face.post("/opds/books/\(LendingFixtures.accessTitle())/borrow", as: "1004")
            #expect(status == 201)
            let id = LendingFixtures.accessTitle(1)
            #expect(try await face.entry(id).lending?.state == .available)
            #expect(try await face.entry(id, as: "1004").lending?.state == .unavailable)
            #expect(try await server.client().availability(productID: id, card: "1004").reason == .borrower)
            let elib = await #expect(throws: LendingError.self) {
                _ = try await server.lending.createLoan(card: "1004", pin: "4567", productID: id)
            }
            let (refused, _, problem) = try await face.post("/opds/books/\(id)/borrow", as: "1004")
            #expect(refused == 403 && problem?.detail == elib?.reason && problem?.detail.contains("5 loans") == true)
            #expect(problem?.type.hasSuffix("loan-limit-reached") == true)
            // bok's client shows the library's own words.
            let shown = await #expect(throws: LendingError.self) {
                _ = try await face.client("1004").borrow(try #require(try await face.entry(id, as: "1004").borrowLink))
            }
            #expect(shown?.status == 403 && shown?.message.contains(elib?.reason ?? "?") == true)
        }
    }

    @Test("The virtual clock moves a new loan's last day as it moves the Elib expiry, and ends loans")
    func clock() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            try await server.control("POST", "clock", json: #"{"Advance": "3d"}"#)
            let id = LendingFixtures.accessTitle()
            let (_, entry, _) = try await face.post("/opds/books/\(id)/borrow", as: "1001")
            let loan = try #require(
                try await server.lending.loans(card: "1001", onlyActive: true).first { $0.productID == id })
            #expect(entry?.lending?.until == LendingFixtures.day(31) && loan.expiryDate == LendingFixtures.day(31))
            #expect(entry?.lending?.since == LendingFixtures.day(3))
            try await server.control("POST", "clock", json: #"{"Advance": "29d"}"#)
            let shelf = try await face.feed("/opds/loans", as: "1001")
            #expect(!shelf.entries.contains { $0.productID == id })
            let (_, ended) = try await face.call("GET", try #require(entry?.epub).href.absoluteString, card: "1001")
            #expect(ended.statusCode == 403)
        }
    }

    @Test("Markup and control characters in a book's words are escaped: bok's parser reads them back")
    func escaping() throws {
        var product = try #require(Fixtures.catalog.products.first)
        product.title = "Tom & Jerry <3 \"Ö\" ]]> &amp;"
        product.description = "a\u{1B}[2J\u{0}b\u{9B}c\u{202E}d"
        product.categories = ["A&B \"quoted\" <x>"]
        let standing = BookStanding(0, card: nil, in: Fixtures.state)
        let writer = OPDSFeedWriter(timeZone: MockRules.stockholm, now: Fixtures.clock, libraryName: "L & <M>")
        let entry = try OPDSParser.entry(
            Data(writer.entryDocument(.init(product: product, standing: standing)).utf8),
            base: URL(string: "http://127.0.0.1/opds/")!)
        #expect(entry.title == product.title)
        #expect(entry.subjects == product.categories)
        // ESC and NUL cannot be written in XML at all; the rest arrives and bok's parser makes it safe.
        let summary = try #require(entry.summary)
        #expect(!summary.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{0}" || $0 == "\u{9B}" })
        #expect(["a", "b", "c", "d"].allSatisfy(summary.contains))
    }

    @Test("The Hostile fault reaches the OPDS face too, and its feeds stay well-formed")
    func hostile() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let plain = try await face.feed("/opds/top?limit=5")
            try await server.control("POST", "faults", json: #"{"Hostile": true}"#)
            let hostile = try await face.feed("/opds/top?limit=5")
            #expect(hostile.entries.count == 5)
            for (before, after) in zip(plain.entries, hostile.entries) {
                #expect(after.title.hasPrefix(before.title) && after.title != before.title)
                #expect(!after.title.contains("\u{1B}") && !(after.summary ?? "").contains("\u{9B}"))
            }
        }
    }

    @Test("Faults apply to the OPDS face: server errors, malformed pages, and a borrow whose answer is lost")
    func faults() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            try await server.control("POST", "faults", json: #"{"ErrorRate": 1}"#)
            #expect(try await face.call("GET", "/opds/").1.statusCode == 500)
            try await server.control("POST", "faults", json: #"{"Malformed": true}"#)
            let malformed = await #expect(throws: LendingError.self) { _ = try await face.client().feed() }
            #expect(malformed?.kind == .badResponse)
            try await server.control("POST", "faults", json: #"{"DropAfterCommit": true}"#)
            let id = LendingFixtures.accessTitle()
            await #expect(throws: (any Error).self) {
                _ = try await face.call("POST", "/opds/books/\(id)/borrow", card: "1001")
            }
            // The loan was made all the same, and borrowing again finds it rather than making another.
            try await server.control("DELETE", "faults")
            #expect(
                try await server.lending.loans(card: "1001", onlyActive: true).filter { $0.productID == id }.count == 1)
            let (again, entry, _) = try await face.post("/opds/books/\(id)/borrow", as: "1001")
            #expect(again == 200 && entry?.lending?.state == .available && entry?.epub != nil)
        }
    }

    @Test("Unknown books are 404 problems; search mistakes are 400 problems in the Elib words")
    func mistakes() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            for (method, path) in [("GET", "/opds/books/0000000"), ("POST", "/opds/books/0000000/borrow")] {
                let (data, http) = try await face.call(method, path, card: "1001")
                #expect(
                    http.statusCode == 404
                        && http.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
                #expect(try JSONDecoder().decode(OPDSFace.Problem.self, from: data).status == 404)
            }
            let (data, http) = try await face.call("GET", "/opds/search?q=x&sort=colour")
            #expect(http.statusCode == 400)
            #expect(
                try JSONDecoder().decode(OPDSFace.Problem.self, from: data).detail.hasPrefix("Unknown sort \"colour\""))
        }
    }
}
