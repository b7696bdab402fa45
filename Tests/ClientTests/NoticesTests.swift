import Catalog
import Foundation
import Testing

@testable import Client

/// The shelf follows the clock and tells what changed (issue 10, item 4): one line per change,
/// told once, after the sync that found it; `notices` lists them, in words and as JSON.
@Suite("Notices", .serialized)
@MainActor
struct NoticesTests {
    @Test("Moving the clock syncs the shelf: due soon, ended, ready and lapsed are each told once")
    func clockTellsWhatChanged() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("login")
        await h.run("search thriller")
        let hits = h.session.lists.list?.byNumber ?? [:]
        let (lent, reserved) = (try #require(hits[15]?.title), try #require(hits[13]?.title))
        #expect(await h.run("borrow 15").first?.hasPrefix("Borrowed") == true)
        #expect(await h.run("reserve 13").first?.hasPrefix("Reserved") == true)
        // Nothing the patron did here is news.
        #expect(!(await h.run("shelf --sync").joined(separator: "\n").contains("Notice:")))

        var screen = await h.run("mock clock +26d").joined(separator: "\n")
        #expect(screen.contains("Notice: “\(lent)” is due "), "\(screen)")
        #expect(screen.contains("(2 days left)"), "\(screen)")
        #expect(screen.contains("Notice: “\(reserved)” is ready for you: borrow it by "), "\(screen)")
        screen = await h.run("mock clock +3d").joined(separator: "\n")
        #expect(screen.contains("Notice: The loan of “\(lent)” has ended."), "\(screen)")
        #expect(
            screen.contains("Notice: Your reservation of “\(reserved)” lapsed: it was not borrowed by "), "\(screen)")
        // Told once: another sync, and another look, tell nothing new.
        #expect(!(await h.run("shelf --sync").joined(separator: "\n").contains("Notice:")))

        let listed = await h.run("notices")
        #expect(listed.first == "Notices, last 30 days (4)", "\(listed)")
        // A notice is a record: after the loan ended, its due-soon notice still says what it said.
        let dueSoon = try #require(listed.first { $0.contains("“\(lent)” is due") }, "\(listed)")
        #expect(dueSoon.contains("(2 days left)"), "\(dueSoon)")
        #expect(!dueSoon.contains("due today"), "\(dueSoon)")
        let json = try await h.json(["notices"])
        let kinds = (json["notices"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(Set(kinds) == ["dueSoon", "reservationReady", "loanEnded", "reservationEnded"], "\(json)")
    }

    @Test("A loan due within 3 days is told once at a card's first login on this computer")
    func dueSoonToldAtFirstLogin() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1003"], secrets: ["3456"])
        let login = await h.run("login").joined(separator: "\n")
        #expect(login.contains("Notice: “"), "\(login)")
        #expect(login.contains("(2 days left)"), "\(login)")
        // Told once.
        #expect(!(await h.run("shelf --sync").joined(separator: "\n").contains("Notice:")))
    }
}
