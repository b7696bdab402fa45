import Catalog
import Foundation
import TestSupport
import Testing

@testable import Client

/// The library's answer to a borrow is lost (issue 17, items 14–15): bok settles it at once by
/// asking for the patron's loans, and when it cannot know, says so and lets the next sync tell.
@Suite("A lost answer to a borrow", .serialized)
@MainActor
struct LostAnswerTests {
    @Test(
        """
        Item 14: the lost answer is settled by one look at the loans, at once: the borrow succeeds and there is \
        one loan
        """
    )
    func settledAtOnce() async throws {
        let h = try await Harness(wrap: { LosingService($0, failingChecks: 0) })
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("login")
        await h.run("top 1")
        let started = ContinuousClock.now
        let screen = await h.run("borrow 1")
        #expect(ContinuousClock.now - started < .seconds(3), "the lost answer was waited out")
        #expect(screen.first?.hasPrefix("Borrowed") == true, "\(screen)")
        let loans = try await h.session.library.service.loans(card: "1001", onlyActive: true)
        #expect(loans.count == 1)
    }

    @Test("Item 15: when the check fails too, bok says it cannot tell, and the next sync tells of the loan as a notice")
    func unknownThenNoticed() async throws {
        // The look at the loans after the lost answer fails, and so does the sync right after it.
        let h = try await Harness(wrap: { LosingService($0, failingChecks: 2) })
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("login")
        await h.run("top 1")
        let title = try #require(h.session.lists.list?.byNumber[1]?.title)
        let screen = await h.run("borrow 1").joined(separator: "\n")
        #expect(screen.contains("cannot tell whether it made the loan"), "\(screen)")
        #expect(screen.contains("next sync"), "\(screen)")
        #expect(!screen.contains("failed") && !screen.contains("HTTP"), "\(screen)")

        let shelf = await h.run("shelf --sync").joined(separator: "\n")
        #expect(shelf.contains("Notice: New loan on your card: “\(title)”"), "\(shelf)")
        #expect(shelf.contains("Loans (1)"), "\(shelf)")
        // Told once.
        #expect(!(await h.run("shelf --sync").joined(separator: "\n").contains("Notice:")))
        let notices = await h.run("notices").joined(separator: "\n")
        #expect(notices.contains("New loan on your card: “\(title)”"), "\(notices)")
    }
}
