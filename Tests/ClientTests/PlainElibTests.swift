import Catalog
import Foundation
import MockLending
import Testing

@testable import Client

@Suite("Degrading to plain Elib", .serialized)
@MainActor
struct PlainElibTests {
    @Test("Hits without embedded availability get it from availability calls")
    func completesAvailability() async throws {
        let h = try await Harness(dialect: .searchWithoutAvailability)
        defer { Task { await h.stop() } }
        let screen = await h.run("search thriller")
        let hits = hitLines(screen)
        #expect(hits.count == 20)
        #expect(hits.allSatisfy { $0.line.hasPrefix("✓ Available") || $0.line.hasPrefix("✗ ") }, "\(hits)")
        let object = try await h.json(["search", "thriller"])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.allSatisfy { $0["available"] is Bool })
        #expect(results.contains { $0["reason"] as? String == "product" || $0["reason"] as? String == "library" })
    }

    @Test("A server without search says so and still shows and lends by product id")
    func noSearch() async throws {
        let h = try await Harness(dialect: .upstreamOnly)
        defer { Task { await h.stop() } }
        let search = await h.run("search thriller")
        #expect(search.count == 1)
        #expect(
            search.first?.contains("has no catalogue search. Use info, borrow and the shelf with a product id") == true,
            "\(search)")
        #expect(await h.text("top").contains("no catalogue search"))
        let info = await h.text("info id:3575457")
        #expect(info.contains("Everything You Need to Know About the Brain"), "\(info)")
        #expect(info.contains("Availability"))
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let borrow = await h.text("borrow id:3575457")
        #expect(borrow.hasPrefix("Borrowed"), "\(borrow)")
        let reserve = await h.text("reservations")
        #expect(reserve.contains("does not take reservations"), "\(reserve)")
        let giveBack = await h.text("return 1")
        #expect(giveBack.contains("Loans cannot be returned early at this library"), "\(giveBack)")
    }

    @Test("Without patrons/verify, login says the card is checked at the next loan, and borrow lends at once")
    func noPatronCheck() async throws {
        let h = try await Harness(dialect: .upstreamOnly)
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["9999"])
        let login = await h.text("login")
        #expect(login.contains("cannot check a card and PIN by themselves"), "\(login)")
        // A wrong PIN is said by the loan call itself, in the library's words, and nothing is lent.
        let wrong = await h.text("borrow id:3575457")
        #expect(!wrong.hasPrefix("Borrowed") && !wrong.contains("removed"), "\(wrong)")
        h.session.account = Session.Account()
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let borrow = await h.text("borrow id:3575457")
        #expect(borrow.hasPrefix("Borrowed"), "\(borrow)")
    }

    @Test("A plain library has no library page: library says so, and does not call anything removed")
    func noLibraryPage() async throws {
        let h = try await Harness(dialect: .upstreamOnly)
        defer { Task { await h.stop() } }
        let page = await h.text("library")
        #expect(page.contains("has no library page"), "\(page)")
        #expect(!page.contains("removed"), "\(page)")
    }
}
