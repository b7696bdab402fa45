import Catalog
import Foundation
import Logging
import MockLending
import TestSupport
import Testing

@testable import Client

/// Borrowing from a catalogue that lends as Palace servers do (issue 14): the feed's availability,
/// holds and copies shown as the lending library's marks, `borrow N` with the catalogue's login
/// (the loan's file downloaded, its due day said), and a hold placed on a book that is out. The
/// catalogue is ``LendingCatalogue`` on 127.0.0.1.
@MainActor
@Suite("Borrowing from an OPDS catalogue that lends", .serialized)
struct CatalogueLendingTests {
    func session(root: URL, home: URL) -> CatalogueLoginTests.Catalogue {
        CatalogueLoginTests.Catalogue(root: root, home: home, answers: ["12345"], secrets: ["4321"])
    }

    @Test("browse shows available, out with copies and waiting, and ready; info N says it in the same words")
    func marks() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)

        let list = await bok.text("browse")
        let ready = Words.dayWithWeekday(DayDate(string: LendingCatalogue.day(2))!, today: bok.session.library.today)
        #expect(list.contains("3 books"), "\(list)")
        #expect(list.contains("1  ✓ Available · Ödemarken · Åsa Berg · EPUB"), "\(list)")
        #expect(list.contains("2  ✗ all 3 copies on loan, 2 waiting · Bäcken · Eva Öst · EPUB"), "\(list)")
        #expect(list.contains("3  ready — borrow by \(ready) · Cirkeln"), "\(list)")
        #expect(list.contains("info N, borrow N, read N for a book"), "\(list)")

        let info = await bok.text("info 2")
        #expect(info.contains("Availability ✗ all 3 copies on loan, 2 waiting"), "\(info)")
        #expect(await bok.text("info 1").contains("✓ Available (3 copies)"))

        let json = try #require(try await bok.json(["browse"]))
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.map { $0["availability"] as? String } == ["available", "unavailable", "ready"])
        #expect(entries.allSatisfy { $0["borrowable"] as? Bool == true })
    }

    @Test("borrow N asks for the login, borrows, downloads the EPUB and says the due day; get N finds the file")
    func borrowAndDownload() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        _ = await bok.text("browse")

        let anonymous = await bok.text("borrow 1")
        #expect(anonymous.contains("asks for a user name and password: log in with login"), "\(anonymous)")
        #expect(!showsStatus(anonymous, 401) && !anonymous.contains("HTTP"), "\(anonymous)")
        #expect(await bok.text("get 1").contains("“Ödemarken” is lent by the library: borrow it first"))

        #expect(await bok.text("login").contains("Logged in to 127.0.0.1:\(server.port) as 12345."))
        let borrowed = await bok.text("borrow 1")
        let due = Words.dayWithWeekday(
            DayDate(string: LendingCatalogue.day(LendingCatalogue.loanDays))!, today: bok.session.library.today)
        #expect(
            borrowed.contains("Borrowed “Ödemarken”. Due \(due) — \(LendingCatalogue.loanDays) days."), "\(borrowed)")
        let path = try #require(
            borrowed.range(of: #"(?<=Downloaded to ).*\.epub(?=: read 1 opens it\.)"#, options: .regularExpression)
                .map { String(borrowed[$0]) }, "\(borrowed)")
        #expect(FileManager.default.contents(atPath: path) == LendingCatalogue.book)
        let borrow = server.requests.first { $0.path == "/borrow/1" && $0.headers["authorization"] != nil }
        #expect(borrow?.headers["authorization"]?.hasPrefix("Basic ") == true)
        // The entry on screen is now the loan: its mark says so, and get N finds the file.
        #expect(await bok.text("info 1").contains("✓ on loan to you · due \(due)"))
        #expect(await bok.text("get 1").contains("Downloaded to \(path)"))

        // A ready hold is borrowed the same way.
        #expect(await bok.text("borrow 3").contains("Borrowed “Cirkeln”. Due \(due)"))
    }

    @Test("A book that is out says why and offers reserve N; reserve N places the hold and says the place")
    func holdOnABookThatIsOut() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        _ = await bok.text("login")

        let out = await bok.text("borrow 2")
        #expect(bok.printer.errors.count == 1)
        #expect(
            out.contains(
                "Cannot borrow “Bäcken” now: all 3 copies on loan, 2 waiting. Type reserve 2 to join the queue."),
            "\(out)")
        #expect(!server.requests.contains { $0.path == "/borrow/2" }, "nothing is asked of the library yet")

        let held = await bok.text("reserve 2")
        #expect(held.contains("Reserved “Bäcken”. You are #\(LendingCatalogue.queuePlace) in the queue."), "\(held)")
        #expect(await bok.text("borrow 2").contains("You are #3 in the queue for “Bäcken” already"))
        #expect(await bok.text("reserve 1").contains("“Ödemarken” is available now: borrow 1 borrows it."))
    }
}

extension CatalogueLendingTests {
    @Test("loans, reservations and the shelf come from the catalogue's shelf feed, with the same badges as Elib loans")
    func shelfFeed() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        let today = bok.session.library.today
        let due = Words.dayWithWeekday(DayDate(string: LendingCatalogue.day(LendingCatalogue.loanDays))!, today: today)
        let ready = Words.dayWithWeekday(DayDate(string: LendingCatalogue.day(2))!, today: today)

        #expect(await bok.text("loans") == "loans needs your login at Stadsbiblioteket: type login first.")
        _ = await bok.text("login")
        _ = await bok.text("browse")
        _ = await bok.text("borrow 1")
        _ = await bok.text("reserve 2")

        let loans = await bok.text("loans")
        #expect(loans.contains("1 loan"), "\(loans)")
        #expect(loans.contains("21 days  Ödemarken · due \(due)"), "\(loans)")
        let reservations = await bok.text("reservations")
        #expect(reservations.contains("Cirkeln\n    ready — borrow by \(ready)"), "\(reservations)")
        #expect(reservations.contains("Bäcken\n    #3 in queue"), "\(reservations)")
        let shelf = await bok.text("shelf")
        #expect(shelf.contains("card 12345"), "\(shelf)")
        // Downloaded when it was borrowed: on disk (↓) at once, not only once opened.
        #expect(
            shelf.range(of: #"1  Ödemarken · Åsa Berg +↓ +21 days"#, options: .regularExpression) != nil, "\(shelf)")
        #expect(shelf.range(of: #"2  Cirkeln · Bo Ek .*Ready · borrow by"#, options: .regularExpression) != nil)
        #expect(shelf.range(of: #"3  Bäcken · Eva Öst +#3 in queue"#, options: .regularExpression) != nil)
        #expect(!shelf.contains("urn:") && !shelf.contains("HTTP"), "\(shelf)")
        // Every request for the shelf carried the login; none put it in the address.
        let shelfRequests = server.requests.filter { $0.path == "/loans" }
        #expect(!shelfRequests.isEmpty && shelfRequests.allSatisfy { $0.headers["authorization"] != nil })
        #expect(!server.requests.contains { $0.target.contains("4321") })

        // Numbers now mean the shelf: borrow 2 takes the ready hold through its borrow link.
        let borrowed = await bok.text("borrow 2")
        #expect(borrowed.contains("Borrowed “Cirkeln”. Due \(due) — 21 days."), "\(borrowed)")
        #expect(server.requests.contains { $0.path == "/borrow/3" && $0.headers["authorization"] != nil })
        let after = await bok.text("shelf")
        #expect(after.contains("Loans (2)") && !after.contains("Ready to borrow"), "\(after)")
        // get N does not reach into the feed while numbers mean the shelf.
        #expect(await bok.text("get 1").contains("Numbers now mean the list on screen"))
        // And browse makes them mean the feed's books again.
        #expect(await bok.text("browse").contains("Numbers now mean these books."))
        #expect(await bok.text("info 1").contains("Ödemarken"))
    }

    @Test("return N and cancel N follow the loan's and the hold's revoke links; both leave the shelf")
    func revoke() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        for line in ["login", "browse", "borrow 1", "reserve 2", "loans"] { _ = await bok.text(line) }

        let returned = await bok.text("return 1")
        #expect(returned.contains("Returned “Ödemarken”."), "\(returned)")
        #expect(server.requests.contains { $0.path == "/revoke/1" && $0.headers["authorization"] != nil })
        #expect(await bok.text("loans").contains("You have no loans."))

        let reservations = await bok.text("reservations")
        let number = try #require(
            reservations.range(of: #"\d(?=  Bäcken)"#, options: .regularExpression).map { String(reservations[$0]) },
            "\(reservations)")
        let cancelled = await bok.text("cancel \(number)")
        #expect(cancelled.contains("Bäcken"), "\(cancelled)")
        #expect(!cancelled.contains("HTTP") && !cancelled.contains("urn:"), "\(cancelled)")
        #expect(server.requests.contains { $0.path == "/revoke/2" })
        #expect(!(await bok.text("reservations")).contains("Bäcken"))
        // After logout the password is gone: the shelf is not asked for with it.
        _ = await bok.text("logout")
        let asked = server.requests.count
        #expect(await bok.text("loans") == "loans needs your login at Stadsbiblioteket: type login first.")
        #expect(server.requests.dropFirst(asked).allSatisfy { $0.headers["authorization"] == nil })
        let shelf = await bok.text("shelf")
        #expect(!shelf.contains("Loans (") && !shelf.contains("Bäcken"), "\(shelf)")
        #expect(shelf.contains("Cirkeln"), "\(shelf)")
    }

    @Test("a library that lends by POST: the borrow link's 405 to a GET is followed by a POST")
    func borrowByPost() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321", borrowByPost: true)
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        for line in ["login", "browse"] { _ = await bok.text(line) }
        let borrowed = await bok.text("borrow 1")
        #expect(borrowed.contains("Borrowed “Ödemarken”."), "\(borrowed)")
        let methods = server.requests.filter { $0.path == "/borrow/1" }.map(\.method)
        #expect(methods == ["GET", "POST"], "\(methods)")
    }

    @Test("The mock's OPDS face as a catalogue: login checks the shelf, a wrong PIN is said in the library's words")
    func mockFaceAsCatalogue() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let pin = try #require(MockLendingServer.seededPIN(card: "1001"))

            // The face's feeds answer anyone; its shelf does not, so a wrong PIN is found at login.
            let wrong = CatalogueLoginTests.Catalogue(
                root: server.opdsURL, home: home, answers: ["1001"], secrets: ["0000"])
            let refused = await wrong.text("login")
            #expect(refused.contains("did not accept the login:"), "\(refused)")
            #expect(refused.contains("PIN") && !showsStatus(refused, 401) && !refused.contains("{"), "\(refused)")
            #expect(wrong.session.account.card == nil)

            let bok = CatalogueLoginTests.Catalogue(root: server.opdsURL, home: home, answers: ["1001"], secrets: [pin])
            // Days are counted in the mock's calendar, as `bok --mock` counts them (Startup sets it): on
            // the machine's clock in UTC the day differs from Stockholm's an hour a night.
            bok.session.library.clock.timeZone = MockRules.stockholm
            #expect(await bok.text("login").contains("as 1001"))
            let hits = await bok.text("search natt")
            #expect(hits.contains("✓ Available · Nattens barn"), "\(hits)")
            #expect(await bok.text("borrow 1").contains("Borrowed “Nattens barn”. Due"))
            let loans = await bok.text("loans")
            #expect(loans.contains("28 days  Nattens barn"), "\(loans)")
            // The loan is the library's: the Elib face lists it for the same card.
            let elib = try await HTTPLendingService(
                endpoint: LibraryEndpoint(baseURL: server.baseURL, serviceID: "bok-mock", serviceKey: "mock-secret")
            ).loans(card: "1001", onlyActive: true)
            #expect(elib.map(\.title) == ["Nattens barn"])
        }
    }

    @Test("In a catalogue whose root wants the login, loans and shelf work right after a borrow")
    func rootNeedsLogin() async throws {
        let server = try LendingCatalogue.start(user: "12345", password: "4321", rootNeedsLogin: true)
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bok = session(root: server.baseURL, home: home)
        #expect(await bok.text("login").contains("Logged in to 127.0.0.1:\(server.port) as 12345."))
        _ = await bok.text("browse")
        let borrowed = await bok.text("borrow 1")
        #expect(borrowed.contains("Borrowed “Ödemarken”."), "\(borrowed)")
        let loans = await bok.text("loans")
        #expect(loans.contains("Ödemarken") && !loans.lowercased().contains("log in"), "\(loans)")
        let shelf = await bok.text("shelf")
        #expect(shelf.contains("Ödemarken") && !shelf.lowercased().contains("log in"), "\(shelf)")
    }
}

extension CatalogueLendingTests {
    @Test(
        "Over the mock's OPDS face a book keeps its series, and id:NUMBER finds the book named urn:bok:product:NUMBER")
    func mockFaceSeriesAndIDs() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let bok = CatalogueLoginTests.Catalogue(root: server.opdsURL, home: home, answers: [], secrets: [])
            let elib = HTTPLendingService(
                endpoint: LibraryEndpoint(baseURL: server.baseURL, serviceID: "bok-mock", serviceKey: "mock-secret"))
            let page = try await elib.search(SearchRequest(query: "", limit: 50))
            let book = try #require(page.products.first { $0.series?.order != nil })
            let series = try #require(book.series)
            // A book not seen yet, by the library's own number: found by the catalogue's search.
            let other = try #require(page.products.first { $0.id != book.id })
            let cold = await bok.text("tbr add id:\(other.id)")
            #expect(cold.contains(other.title) && !cold.contains("no product"), "\(cold)")
            let hits = await bok.text("search \(book.title)")
            #expect(hits.contains(book.title), "\(hits)")
            let number = try #require(
                hits.range(
                    of: #"\d+(?=  .* · \#(NSRegularExpression.escapedPattern(for: book.title)))"#,
                    options: .regularExpression
                )
                .map { String(hits[$0]) }, "\(hits)")
            let info = await bok.text("info \(number)")
            #expect(info.contains("\(series.name), book \(series.order!)"), "\(info)")
            // The library's own number, as a scenario written for Elib gives it.
            let added = await bok.text("tbr add id:\(book.id)")
            #expect(added.contains(book.title) && !added.contains("no product"), "\(added)")
        }
    }
}
