import Catalog
import Foundation
import MockLending
import Testing

@testable import Client

@Suite("Numbers mean the list on screen", .serialized)
@MainActor
struct ListNumbersTests {
    func harness(card: String, pin: String) async throws -> Harness {
        let h = try await Harness()
        h.session.account.prompt = ScriptedPatronPrompt(answers: [card], secrets: [pin])
        return h
    }

    @Test("After reservations, borrow 1 takes reservation 1, not hit 1 of an earlier search")
    func reservationsThenBorrow() async throws {
        let h = try await harness(card: "1003", pin: "3456")
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let hit1 = try #require(h.session.lists.list?.byNumber[1]?.title)
        await h.run("mock clock +2d")
        let list = await h.run("reservations")
        #expect(list.contains { $0.contains("Numbers now mean these reservations.") }, "\(list)")
        #expect(list.contains { $0.contains("ready — borrow by") && $0.contains("id:") }, "\(list)")
        #expect(list.last?.contains("borrow 1 takes the ready book (or borrow id:") == true, "\(list)")
        #expect(list[1].hasSuffix("Vintern 1953"), "\(list)")
        #expect(await h.text("info 1").hasPrefix("Vintern 1953"))
        let borrowed = await h.text("borrow 1")
        #expect(borrowed.hasPrefix("Borrowed “Vintern 1953”."), "\(borrowed)")
        #expect(!borrowed.contains(hit1))
        // Reservation 2 is still in the queue: return does not apply, and says what does.
        #expect(await h.text("return 2").contains("is reserved, not on loan: cancel 2 leaves the queue."))
        #expect(await h.text("reserve 2").hasPrefix("You have reserved "))
        let queued = await h.text("borrow 2")
        #expect(queued.contains("is not ready for you yet: you are #") && !queued.contains("reserve 2"), "\(queued)")
        #expect(await h.text("cancel 2").hasPrefix("Cancelled your reservation of"))
        #expect(await h.text("cancel 2").contains("cancelled that reservation already"))
    }

    @Test("An empty shelf or to-be-read list leaves the numbers to the list before it")
    func emptyListsKeepTheNumbers() async throws {
        let h = try await harness(card: "1001", pin: "1234")
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let hit1 = try #require(h.session.lists.list?.byNumber[1]?.title)
        for command in ["shelf", "tbr", "shelf sort title"] {
            let empty = await h.text(command)
            #expect(!empty.contains("Numbers now mean"), "\(command): \(empty)")
            let info = await h.text("info 1")
            #expect(info.hasPrefix(hit1), "after \(command): \(info)")
        }
    }

    @Test("loans, shelf and a search each take over the numbers, and say so")
    func loansShelfSearch() async throws {
        let h = try await harness(card: "1002", pin: "2345")
        defer { Task { await h.stop() } }
        await h.run("top 3")
        let loans = await h.run("loans")
        #expect(
            loans.last
                == "Numbers now mean these loans. return N ends a loan early, read N opens it, info N tells more.",
            "\(loans)")
        let first = try #require(loans.dropFirst().first { $0.hasPrefix(" 1  ") })
        let info = await h.text("info 1")
        let loanTitle = try #require(info.split(separator: "\n").first.map(String.init))
        #expect(first.contains(loanTitle), "\(first) / \(info)")
        #expect(await h.text("cancel 1").contains("is on loan, not reserved: return 1 ends the loan early."))
        let numbers = CommandTable().completions(line: "return ", word: "", session: h.session)
        #expect(numbers == (1...h.session.lists.loanList.count).map(String.init), "\(numbers)")
        #expect(await h.text("borrow 1").contains("You already have “\(loanTitle)” on loan"))

        let top = await h.run("top 3")
        #expect(top.last?.hasPrefix("Numbers now mean these books.") == true, "\(top)")
        let hit = try #require(h.session.lists.list?.byNumber[1]?.title)
        #expect(await h.text("return 1") == "“\(hit)” is not on loan to you. Type loans to see what you can return.")
        #expect(await h.text("cancel 1") == "You have no reservation of “\(hit)”. Type reservations to see yours.")

        let shelf = await h.run("shelf")
        #expect(shelf.last?.hasPrefix("Numbers now mean this list.") == true, "\(shelf)")
        let row = try #require(shelf.first { $0.hasPrefix(" 1  ") })
        let returned = await h.text("return 1")
        #expect(
            returned.hasPrefix("Returned “") && row.contains(returned.dropFirst(10).prefix(while: { $0 != "”" })),
            "\(returned) / \(row)")
        #expect(await h.text("return 1").contains("already"))
    }
}
