import Catalog
import Foundation
import Testing

@testable import Client

/// Other books of a series in `info`, and `similar N` (issue 10, item 9): numbered lists that
/// `borrow N` then uses.
@Suite("Similar books and series", .serialized)
@MainActor
struct SimilarTests {
    @Test("info of a book in a series lists the rest in series order, and borrow N takes one of them")
    func seriesInInfo() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        let page = try await h.session.library.service.search(SearchRequest(query: "", limit: 600))
        let book = try #require(page.products.first { ($0.series?.order ?? 0) == 1 })
        let series = try #require(book.series?.name)
        await h.run("top 3")
        let screen = await h.run("info id:\(book.id)")
        let heading = try #require(screen.firstIndex(of: "Also in the series “\(series)”"), "\(screen)")
        // Numbered on after the list on screen: top 3 keeps 1–3.
        let listed = try #require(h.session.lists.list?.byNumber)
        let added = listed.filter { $0.key > 3 }
        #expect(
            !added.isEmpty && added.values.allSatisfy { $0.series?.name == series && $0.id != book.id }, "\(listed)")
        let orders = added.keys.sorted().compactMap { added[$0]?.series?.order }
        #expect(orders == orders.sorted(), "series order: \(orders)")
        #expect(screen[heading...].contains { $0.hasPrefix(" 4  ") }, "numbered on from 4: \(screen)")
        #expect(screen.last?.hasSuffix("this series: info N, borrow N and reserve N use them.") == true, "\(screen)")
        // borrow N of a series number takes that book; 1–3 still mean the top list.
        let available = try #require(added.keys.sorted().first { added[$0]?.availability?.available == true })
        let borrowed = await h.run("borrow \(available)")
        #expect(borrowed.first?.hasPrefix("Borrowed “\(listed[available]!.title)”") == true, "\(borrowed)")
        #expect(await h.run("info 1").first == listed[1]?.title)
    }

    @Test("The series list marks the patron's own loan and reservation as theirs, whatever the copies say")
    func seriesMarksOwnBooks() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        // A series with a book that can be borrowed and one that can only be reserved, beside its first book.
        var candidates: [(Product, Product, Product)] = []
        for offset in stride(from: 0, to: 2000, by: 50) where candidates.isEmpty {
            let page = try await h.session.library.service.search(SearchRequest(query: "", offset: offset, limit: 50))
            for first in page.products where first.series?.order == 1 {
                let rest = try await h.session.library.service.similar(productID: first.id, card: nil, limit: 30)
                    .filter { $0.series?.name == first.series?.name }
                if let lent = rest.first(where: { $0.availability?.available == true }),
                    let queued = rest.first(where: { $0.availability?.available == false })
                {
                    candidates.append((first, lent, queued))
                    break
                }
            }
        }
        let (first, lent, queued) = try #require(candidates.first)
        #expect(await h.text("borrow id:\(lent.id)").hasPrefix("Borrowed"))
        #expect(await h.text("reserve id:\(queued.id)").hasPrefix("Reserved"))
        // Numbers mean the loans now: the series is named by id, each with the patron's own mark.
        await h.run("loans")
        var screen = await h.run("info id:\(first.id)")
        #expect(screen.contains { $0.hasPrefix("  ✓ on loan to you · \(lent.title) ") }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("  reserved by you · #") && $0.contains(queued.title) }, "\(screen)")
        // Numbered on after a list of books: the same marks.
        await h.run("top 1")
        screen = await h.run("info id:\(first.id)")
        #expect(screen.contains { $0.contains("✓ on loan to you · \(lent.title)") }, "\(screen)")
        #expect(screen.contains { $0.contains("reserved by you · #") && $0.contains(queued.title) }, "\(screen)")
    }

    @Test("similar N lists books like N, best first, numbered for info and borrow; the book itself is not among them")
    func similarList() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let first = try #require(h.session.lists.list?.byNumber[1])
        let screen = await h.run("similar 1")
        #expect(screen.first == "Books like “\(first.title)”", "\(screen)")
        let listed = try #require(h.session.lists.list?.byNumber)
        #expect((1...10).allSatisfy { listed[$0] != nil }, "\(listed.keys.sorted())")
        #expect(!listed.values.contains { $0.id == first.id })
        // The same author or series first.
        let authors = Set(first.authors.map(\.fullName))
        #expect(
            listed[1].map {
                !authors.isDisjoint(with: $0.authors.map(\.fullName)) || $0.series?.name == first.series?.name
            } == true)
        #expect(await h.run("info 2").first == listed[2]?.title)
        let json = try await h.json(["similar", "id:\(first.id)"])
        #expect(json["list"] as? String == "similar")
        #expect((json["results"] as? [[String: Any]])?.count == 10)
    }
}
