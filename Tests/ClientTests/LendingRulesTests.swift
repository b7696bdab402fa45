import Catalog
import Foundation
import Localization
import MockLending
import ReadingState
import Testing

@testable import Client
@testable import Shelf

/// Swedish e-lending as a patron meets it: a pace of loans per days, the library's monthly
/// budget, and loans that are not renewed but borrowed anew — each with its own words and date,
/// in English and in Swedish.
@Suite("The library's lending rules: pace, budget, no renewal", .serialized)
@MainActor
struct LendingRulesTests {
    func swedish() { Localization.use("sv", environment: [:]) }
    func english() { Localization.use("en", environment: [:]) }

    /// Borrows the first `count` books the list shows as available; their numbers.
    func borrowAvailable(_ count: Int, from screen: [String], in h: Harness) async -> [Int] {
        var borrowed: [Int] = []
        for hit in hitLines(screen) where hit.line.hasPrefix("✓ Available") && borrowed.count < count {
            if await h.text("borrow \(hit.number)").hasPrefix("Borrowed") { borrowed.append(hit.number) }
        }
        return borrowed
    }

    @Test("At a pace of 3 loans in 7 days, the fourth book says when the next loan can be, and then it can")
    func pace() async throws {
        let h = try await Harness(rules: MockRules(loanPace: LoanPace(loans: 3, days: 7)))
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let library = await h.text("library")
        #expect(library.contains("5 loans per patron a month · at most 3 loans in 7 days"), "\(library)")
        // Thursday 26 November.
        await h.run("mock clock +5d")
        let first = await h.run("search roman")
        #expect(await borrowAvailable(3, from: first, in: h).count == 3, "\(first)")

        let list = await h.run("search roman")
        let paced = hitLines(list).filter {
            $0.line.hasPrefix("✗ 3 loans in 7 days · next loan from Thursday 3 December · ")
        }
        let n = try #require(paced.first?.number, "\(list)")
        #expect(!list.contains { $0.contains("✓ Available") }, "\(list)")
        // Not the monthly limit's words: the patron has used 3 of 5.
        #expect(!list.contains { $0.contains("this month") }, "\(list)")
        let borrow = await h.text("borrow \(n)")
        #expect(
            borrow.contains(
                ": you have made 3 loans in 7 days, as many as the library allows. Next loan from Thursday 3 December; "
                    + "tbr add \(n) keeps it"), "\(borrow)")
        #expect(!borrow.contains("reserve"), "\(borrow)")
        #expect(await h.text("info \(n)").contains("✗ 3 loans in 7 days · next loan from Thursday 3 December"))

        swedish()
        let svenska = await h.text("låna \(n)")
        english()
        #expect(
            svenska.contains(
                ": du har gjort 3 lån på 7 dagar, så många som biblioteket tillåter. "
                    + "Nästa lån från torsdag 3 december"),
            "\(svenska)")

        // The day before, still not; on the day, yes.
        await h.run("mock clock +6d")
        #expect(await h.text("borrow \(n)").contains("Next loan from Thursday 3 December"))
        await h.run("mock clock +1d")
        let later = await h.text("borrow \(n)")
        #expect(later.hasPrefix("Borrowed"), "\(later)")
    }

    @Test("Without a pace, the library's default, three loans in a day stop nothing")
    func noPaceByDefault() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let first = await h.run("search roman")
        #expect(await borrowAvailable(4, from: first, in: h).count == 4, "\(first)")
    }

    @Test("When the month's budget is used up, the mark and the refusal say so with the day loans start again")
    func budget() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let list = await h.run("top 20")
        let spent = hitLines(list).filter {
            $0.line.hasPrefix("✗ the library's e-book budget for November is used up · loans again from 1 December · ")
        }
        let n = try #require(spent.first?.number, "\(list)")
        #expect(!list.contains { $0.contains("loan limit reached") }, "\(list)")
        let borrow = await h.text("borrow \(n)")
        #expect(
            borrow.contains(
                ": the library's e-book budget for November is used up. Loans again from Tuesday 1 December; "
                    + "reserve \(n) to have it kept for you then."), "\(borrow)")
        swedish()
        let mark = await h.run("topp 20")
        let svenska = await h.text("låna \(n)")
        english()
        #expect(
            mark.contains {
                $0.contains("✗ bibliotekets e-boksbudget för november är slut · lån igen från 1 december")
            },
            "\(mark)")
        #expect(
            svenska.contains(
                ": bibliotekets e-boksbudget för november är slut. Lån igen från tisdag 1 december; "
                    + "reservera \(n) så hålls den åt dig då."), "\(svenska)")
        // On the 1st the new month's budget lends it.
        await h.run("mock clock 2026-12-01")
        await h.run("top 20")
        let borrowed = await h.text("borrow \(n)")
        #expect(borrowed.hasPrefix("Borrowed"), "\(borrowed)")
    }

    @Test(
        "A loan is not renewed: borrow (or renew) says so; once it ends, borrow is a new loan, place and notes kept"
    )
    func noRenewal() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 1")
        #expect(await h.text("borrow 1").hasPrefix("Borrowed"))
        for command in ["borrow 1", "renew 1"] {
            let again = await h.text(command)
            #expect(
                again.contains(
                    "Loans cannot be renewed: once it has ended, borrow 1 again for a new loan, and your place "
                        + "and notes are kept; read 1 opens it."), "\(again)")
        }
        swedish()
        let svenska = await h.text("låna 1")
        english()
        #expect(
            svenska.contains("Lån kan inte förnyas: när lånet har gått ut lånar du den igen med låna 1"), "\(svenska)")

        let store = try h.session.shelfStore()
        let items = ShelfRenderer.items(try h.session.currentShelf())
        let productID = try #require(items.first { $0.kind == .loans }?.entry.productID)
        let book = try #require(try store.bookIdentity(productID: productID))
        let place = Locator(spineIndex: 2, offset: 140, snippet: "the place")
        try store.savePosition(place, percent: 0.3, bookID: book)
        try store.saveHighlight(
            Highlight(
                start: place, end: Locator(spineIndex: 2, offset: 160), color: .yellow, note: "remember", text: "t"),
            bookID: book)

        // The loan runs its 28 days and ends; borrowing the book again is a new loan.
        await h.run("mock clock +29d")
        await h.run("shelf --sync")
        let borrowed = await h.text("borrow id:\(productID)")
        #expect(borrowed.hasPrefix("Borrowed"), "\(borrowed)")
        #expect(try store.bookIdentity(productID: productID) == book)
        #expect(try store.loadPosition(bookID: book) == place)
        #expect(try store.highlights(bookID: book).map(\.note) == ["remember"])
    }

    @Test("On a plain Elib library, return says loans cannot be returned early there and when the loan ends")
    func noEarlyReturnOnPlainElib() async throws {
        let h = try await Harness(dialect: .upstreamOnly)
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        #expect(await h.text("borrow id:3575457").hasPrefix("Borrowed"))
        let giveBack = await h.text("return id:3575457")
        #expect(
            giveBack
                == "Loans cannot be returned early at this library: “Everything You Need to Know About the Brain” "
                + "ends by itself on Saturday 19 December.", "\(giveBack)")
        swedish()
        let svenska = await h.text("återlämna id:3575457")
        english()
        #expect(
            svenska
                == "Lån kan inte lämnas tillbaka i förtid på det här biblioteket: ”Everything You Need to Know About "
                + "the Brain” går ut av sig självt lördag 19 december.", "\(svenska)")
        #expect(await h.text("loans").contains("Everything You Need to Know About the Brain"))
    }

    @Test("A scenario's pace: header takes loans/days and says how when it is not")
    func paceHeader() throws {
        let good = try ScenarioParser.parse(
            "scenario: Paced\npace: 1/7\ntask: Look\n> top 1\n", file: "paced.scenario")
        #expect(good.setup.pace == LoanPace(loans: 1, days: 7))
        for wrong in ["3", "0/7", "3/0", "three/7"] {
            let error = try #require(throws: ScenarioParseError.self) {
                try ScenarioParser.parse(
                    "scenario: Paced\npace: \(wrong)\ntask: Look\n> top 1\n", file: "paced.scenario")
            }
            #expect(
                error.lines == ["paced.scenario:2: pace: takes loans/days, e.g. pace: 3/7 for 3 loans in any 7 days."],
                "\(error.lines)")
        }
    }
}
