import Catalog
import Foundation
import MockLending
import Testing

@testable import Client

@Suite("Borrowing and reserving from the REPL", .serialized)
@MainActor
struct LendingREPLTests {
    /// A harness whose patron answers the card and PIN prompts.
    func harness(card: String = "1001", pin: String = "1234") async throws -> (Harness, ScriptedPatronPrompt) {
        let h = try await Harness()
        let prompt = ScriptedPatronPrompt(answers: [card], secrets: [pin])
        h.session.account.prompt = prompt
        return (h, prompt)
    }

    @Test("borrow N asks for the card and PIN once, and answers with the due date in words")
    func borrow() async throws {
        let (h, prompt) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let screen = await h.run("borrow 1")
        #expect(prompt.asked == ["Library card number: ", "PIN for card 1001: "])
        let line = try #require(screen.first)
        #expect(
            line.range(
                of:
                    #"""
                    ^Borrowed “.+”\. Due (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} \#
                    [A-Z][a-z]+ — 28 days\.$
                    """#,
                options: .regularExpression) != nil, "\(line)")
        let loans = await h.text("loans")
        #expect(loans.contains("28 days"))
        // The PIN is kept for the session: no second prompt.
        await h.run("whoami")
        #expect(prompt.asked.count == 2)
        #expect(await h.text("whoami").contains("1 of 5 loans used this month"))
    }

    @Test("A wrong PIN gets the library's words, and no loan is made")
    func wrongPIN() async throws {
        let (h, _) = try await harness(pin: "9999")
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let screen = await h.run("borrow 1")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("Wrong PIN") == true, "\(screen)")
        #expect(screen.first?.contains("9999") == false)
        let loans = try await h.session.library.service.loans(card: "1001", onlyActive: true)
        #expect(loans.isEmpty)
    }

    @Test("Five wrong PINs lock the card, and the message says until when")
    func lockout() async throws {
        let (h, prompt) = try await harness(pin: "0000")
        defer { Task { await h.stop() } }
        prompt.secrets = Array(repeating: "0000", count: 6)
        prompt.answers = Array(repeating: "1001", count: 6)
        // One login: each wrong PIN typed is asked for again, until the library locks the card.
        let last = await h.run("login")
        #expect(last.first?.contains("locked") == true, "\(last)")
        #expect(last.first?.range(of: #"\d\d:\d\d"#, options: .regularExpression) != nil)
    }

    @Test("A patron at the monthly limit is told so, with what to do")
    func atLimit() async throws {
        let (h, _) = try await harness(card: "1002", pin: "2345")
        defer { Task { await h.stop() } }
        let object = try await h.json(["search", "category:Thriller", "--sort", "popularity"])
        let borrowed = Set(try await h.session.library.service.loans(card: "1002", onlyActive: true).map(\.productID))
        let available = try #require(
            (object["results"] as? [[String: Any]])?.first {
                $0["reason"] as? String == "borrower"
                    || ($0["available"] as? Bool == true && !borrowed.contains($0["id"] as? String ?? ""))
            })
        let number = try #require(available["number"] as? Int)
        let screen = await h.run("borrow \(number)")
        #expect(screen.count == 1)
        #expect(
            screen.first?.contains("your 5 loans this month are used. New loans from Tuesday 1 December") == true,
            "\(screen)")
        #expect(screen.first?.contains("reserve") == false, "\(screen)")
    }

    @Test("A book that is out: borrow says why and offers reserve; reserve gives the place in the queue")
    func reserveWhenOut() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        let object = try await h.json(["top", "10"])
        let out = try #require((object["results"] as? [[String: Any]])?.first { $0["reason"] as? String == "product" })
        let n = try #require(out["number"] as? Int)
        let borrow = await h.text("borrow \(n)")
        #expect(borrow.contains("Type reserve \(n) to join the queue"), "\(borrow)")
        let reserve = await h.text("reserve \(n)")
        #expect(
            reserve.range(
                of: #"Reserved “.+”\. You are #\d+ in the queue, expected around"#, options: .regularExpression) != nil,
            "\(reserve)")
        let list = await h.text("reservations")
        #expect(list.contains("in queue"))
        let cancel = await h.text("cancel 1")
        #expect(cancel.hasPrefix("Cancelled your reservation of"))
        #expect(await h.text("reservations").contains("You have no reservations"))
    }

    @Test("Reserving an available book says to borrow it instead")
    func reserveAvailable() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let screen = await h.run("reserve 1")
        #expect(
            screen == [
                "“\(h.session.lists.list!.byNumber[1]!.title)” can be borrowed now, no need to queue. Type borrow 1."
            ])
    }

    @Test("A product id that does not exist")
    func unknownProduct() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("borrow id:999999")
        #expect(screen == ["The library has no product 999999. Check the id, or search for the title."])
    }

    @Test("A reservation comes due when the copy comes back, by the mock clock")
    func reservationComesDue() async throws {
        let (h, _) = try await harness(card: "1003", pin: "3456")
        defer { Task { await h.stop() } }
        let before = await h.text("reservations")
        #expect(!before.contains("ready — borrow by"))
        #expect(await h.text("mock clock +2d").contains("The mock library's clock"))
        let after = await h.text("reservations")
        #expect(after.contains("ready — borrow by"), "\(after)")
    }

    @Test("A loan runs out when the mock clock passes its last day")
    func loanRunsOut() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        await h.run("borrow 1")
        #expect(await h.text("loans").contains("28 days"))
        await h.run("mock clock +27d")
        #expect(await h.text("loans").contains("1 day "))
        await h.run("mock clock +1d")
        #expect(await h.text("loans").contains("today"))
        await h.run("mock clock +1d")
        #expect(await h.text("loans").contains("You have no loans"))
    }

    @Test("A lost answer to a borrow is checked before retrying: exactly one loan")
    func droppedBorrow() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        await h.run("login")
        #expect(await h.text("mock fault drop-after-commit").contains("drops the connection"))
        let screen = await h.run("borrow 1")
        #expect(screen.first?.hasPrefix("Borrowed") == true, "\(screen)")
        await h.run("mock fault off")
        let loans = try await h.session.library.service.loans(card: "1001", onlyActive: true)
        #expect(loans.count == 1)
    }

    @Test("mock commands are refused against a library that is not the mock")
    func mockRefusedElsewhere() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        let service = HTTPLendingService(
            endpoint: LibraryEndpoint(
                baseURL: URL(string: "http://127.0.0.1:9/library/v3.0/")!, serviceID: "x", serviceKey: "y"))
        let real = Session(
            library: LibraryConnection(
                kind: .elib, service: service,
                identity: LibraryIdentity(baseURL: service.endpoint.baseURL.absoluteString, serviceID: "x"),
                name: "Real", alphabet: .swedish, reach: .init(controlBase: { service.endpoint.baseURL })),
            theme: .plain, logger: h.session.logger)
        let repl = REPL(session: real, printer: h.printer)
        h.printer.clear()
        await repl.execute("mock clock +1d")
        #expect(
            h.printer.screen.first?.contains("not the mock") == true
                || h.printer.screen.first?.contains("real library") == true, "\(h.printer.screen)")
    }
}
