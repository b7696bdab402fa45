import Catalog
import Foundation
import Testing

@testable import Client

@Suite("Smaller wrong turns of a patron's day", .serialized)
@MainActor
struct SmallTurnsTests {
    func harness() async throws -> (Harness, ScriptedPatronPrompt) {
        let h = try await Harness()
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        h.session.account.prompt = prompt
        return (h, prompt)
    }

    @Test("info id:X shows the waiting count that info N shows")
    func infoByID() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        let top = await h.run("top 10")
        let out = try #require(hitLines(top).first { $0.line.contains("waiting") }, "\(top)")
        let id = try #require(h.session.lists.list?.byNumber[out.number]?.id)
        let byNumber = await h.run("info \(out.number)")
        let line = try #require(byNumber.first { $0.hasPrefix("Availability") })
        #expect(line.contains("waiting"), "\(line)")
        let byID = await h.run("info id:\(id)")
        #expect(byID.first { $0.hasPrefix("Availability") } == line, "\(byID)")
    }

    @Test("notes N works on an ended loan: highlights stay exportable")
    func notesAfterTheLoan() async throws {
        let (h, _) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        await h.run("borrow 1")
        await h.run("mock clock +29d")
        let shelf = await h.run("shelf --sync")
        #expect(shelf.contains("Ended (1)"), "\(shelf)")
        let notes = await h.text("notes 1")
        #expect(notes.hasPrefix("# "), "\(notes)")
        // Reading it still refuses, and says what to do.
        #expect(await h.text("read 1").contains("borrow id:"))
    }

    @Test("return N asks Return “Title” now? [y/N] where someone can answer; --yes does not ask")
    func returnAsks() async throws {
        let (h, prompt) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let title = try #require(h.session.lists.list?.byNumber[1]?.title)
        await h.run("borrow 1")
        await h.run("loans")
        prompt.confirmations = [false, true]
        #expect(await h.text("return 1") == "Kept “\(title)”; nothing was returned.")
        #expect(prompt.asked.last == "Return “\(title)” now? [y/N] ")
        #expect(try await h.session.library.service.loans(card: "1001", onlyActive: true).contains { $0.active })
        #expect(await h.text("return 1") == "Returned “\(title)”.")

        await h.run("top 1")
        await h.run("borrow 1")
        await h.run("loans")
        prompt.confirmations = [false]
        #expect(await h.text("return 1 --yes") == "Returned “\(title)”.")
        #expect(prompt.confirmations == [false])
    }

    @Test("cancel N asks too, with the place in the queue that would be lost; --yes does not ask")
    func cancelAsks() async throws {
        let (h, prompt) = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 2")
        let title = try #require(h.session.lists.list?.byNumber[2]?.title)
        await h.run("reserve 2")
        await h.run("reservations")
        prompt.confirmations = [false, true]
        #expect(await h.text("cancel 1") == "Kept your reservation of “\(title)”; nothing was cancelled.")
        let asked = try #require(prompt.asked.last)
        #expect(asked.hasPrefix("Cancel your reservation of “\(title)”? You would lose your place #"), "\(asked)")
        #expect(asked.hasSuffix(" in the queue. [y/N] "), "\(asked)")
        #expect(try await !h.session.library.service.reservations(card: "1001").isEmpty)
        #expect(await h.text("cancel 1") == "Cancelled your reservation of “\(title)”.")

        await h.run("top 2")
        await h.run("reserve 2")
        await h.run("reservations")
        prompt.confirmations = [false]
        #expect(await h.text("cancel 1 --yes") == "Cancelled your reservation of “\(title)”.")
        #expect(prompt.confirmations == [false])
    }
}
