import Catalog
import Foundation
import Testing

@testable import Client

@Suite("Did you mean, and top lists per category", .serialized)
@MainActor
struct CatalogueWordsTests {
    @Test("A search with no hits suggests the close word the catalogue has")
    func didYouMean() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(await h.run("search thrillr") == ["No hits for “thrillr”. Did you mean “thriller”?"])
        // Nothing close: the old advice.
        let none = await h.text("search zzzzqq")
        #expect(none.hasPrefix("No hits for “zzzzqq”. Try fewer words"), "\(none)")
    }

    @Test("top 10 category:Thriller, and top honours an active category filter")
    func topPerCategory() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("top 10 category:Thriller")
        #expect(screen.first == "Top 10 by popularity · category Thriller", "\(screen)")
        let thrillers = try #require(h.session.lists.list).byNumber.values
        #expect(thrillers.count == 10 && thrillers.allSatisfy { $0.categories.contains("Thriller") }, "\(screen)")

        await h.run("filter category:Deckare")
        let top = await h.run("top 3")
        #expect(top.first == "Top 3 by popularity · category Deckare", "\(top)")
        let deckare = try #require(h.session.lists.list).byNumber.values
        #expect(deckare.count == 3 && deckare.allSatisfy { $0.categories.contains("Deckare") })
        #expect(await h.text("top 3 2").contains("Give how many books to show"))
    }
}
