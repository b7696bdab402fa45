import Catalog
import Foundation
import MockLending
import Testing

@testable import Client

@Suite("A patron at the monthly limit, and when a book that is out can be had", .serialized)
@MainActor
struct MonthlyLimitTests {
    @Test("Card 1004 after its fifth loan: marks are for the patron, and no message points at a command that refuses")
    func fifthLoan() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1004"], secrets: ["4567"])
        await h.run("top 1")
        let fifth = await h.text("borrow 1")
        #expect(fifth.hasPrefix("Borrowed"), "\(fifth)")

        // The book just borrowed is the patron's, not "all copies on loan".
        #expect(hitLines(await h.run("top 1")).first?.line.hasPrefix("✓ on loan to you · ") == true)
        let top = await h.run("search thriller")
        let limited = hitLines(top).filter {
            $0.line.hasPrefix("✗ your 5 loans this month are used · new loans from 1 December · ")
        }
        #expect(!limited.isEmpty, "\(top)")
        #expect(!top.contains { $0.contains("✓ Available") }, "\(top)")
        let n = try #require(limited.last?.number)

        let borrow = await h.text("borrow \(n)")
        #expect(
            borrow.contains(
                "your 5 loans this month are used. New loans from Tuesday 1 December; tbr add \(n) keeps it"),
            "\(borrow)")
        #expect(!borrow.contains("reserve"))
        let reserve = await h.text("reserve \(n)")
        #expect(reserve.contains("is not out, so there is no queue to join"), "\(reserve)")
        #expect(reserve.contains("tbr add \(n)") && !reserve.contains("borrow \(n)"), "\(reserve)")
        // The one thing offered works.
        #expect(await h.text("tbr add \(n)").hasPrefix("Added "))
        #expect(await h.text("info \(n)").contains("✗ your 5 loans this month are used · new loans from 1 December"))
    }

    @Test("A book that is out shows how many wait and about how long, in the list, in info and when borrowing")
    func estimatedWait() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let top = await h.run("top 10")
        let out = try #require(hitLines(top).first { $0.line.contains("waiting") }, "\(top)")
        #expect(
            out.line.range(of: #"\d+ waiting · ~\d+ (days|weeks|months) · "#, options: .regularExpression) != nil,
            "\(out.line)")
        let info = await h.text("info \(out.number)")
        #expect(
            info.range(of: #"Availability +✗ .*\d+ waiting · ~\d+ (days|weeks|months)"#, options: .regularExpression)
                != nil, "\(info)")
        let borrow = await h.text("borrow \(out.number)")
        #expect(
            borrow.range(
                of: #"waiting · ~\d+ (days|weeks|months)\. Type reserve \#(out.number) to join the queue\."#,
                options: .regularExpression) != nil, "\(borrow)")
    }
}
