import Catalog
import Foundation
import Testing

@testable import Client

@Suite("Searching from the REPL", .serialized)
@MainActor
struct SearchREPLTests {
    @Test("A search prints a count line and numbered hits with an availability mark first")
    func searchList() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("search thriller")
        let count = try #require(screen.first)
        #expect(
            count.range(
                of: #"^\d+ hits for “thriller” · sorted by relevance, best match first$"#, options: .regularExpression)
                != nil, "\(count)")
        let hits = hitLines(screen)
        #expect(hits.map(\.number) == Array(1...20))
        for hit in hits {
            #expect(hit.line.hasPrefix("✓ Available · ") || hit.line.hasPrefix("✗ "), "\(hit.line)")
        }
        #expect(screen.last?.contains("Showing 1–20 of") == true)
    }

    @Test("sort author orders by last name in Swedish order, and again flips to Ö→A")
    func sortFlips() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let ascending = await h.run("sort author")
        #expect(ascending.first?.hasSuffix("sorted by author, A→Ö") == true, "\(ascending.first ?? "")")
        let descending = await h.run("sort author")
        #expect(descending.first?.hasSuffix("sorted by author, Ö→A") == true)
        // The JSON form of the same list gives the authors; check them against Swedish order.
        let object = try await h.json(["search", "thriller", "--sort", "author", "--order", "desc"])
        let results = try #require(object["results"] as? [[String: Any]])
        let lastNames = results.compactMap {
            ($0["authors"] as? [String])?.first?.split(separator: " ").last.map(String.init)
        }
        #expect(lastNames.count == results.count)
        let collation = Collation(.swedish)
        for (a, b) in zip(lastNames, lastNames.dropFirst()) {
            #expect(!(collation.key(a) < collation.key(b)), "\(a) before \(b) in Ö→A")
        }
        #expect(object["sort"] as? String == "author")
        #expect(object["order"] as? String == "desc")
    }

    @Test("Å authors come after Z in ascending Swedish order")
    func swedishAfterZ() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let object = try await h.json(["search", "author:Z*", "--sort", "author"])
        let zTotal = try #require(object["total"] as? Int)
        let all = try await h.json(["search", "author:Å*", "--sort", "author", "--order", "desc"])
        let firstDesc = try #require((all["results"] as? [[String: Any]])?.first?["authors"] as? [String])
        #expect(firstDesc.first?.split(separator: " ").last?.hasPrefix("Å") == true)
        #expect(zTotal >= 0)
    }

    @Test("more and back page through the hits, and numbers continue across pages")
    func paging() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("search a*")
        let second = await h.run("more")
        #expect(hitLines(second).first?.number == 21)
        #expect(second.last?.contains("Showing 21–40") == true)
        let info = await h.text("info 23")
        #expect(h.errors.isEmpty, "\(info)")
        let first = await h.run("back")
        #expect(hitLines(first).first?.number == 1)
        let again = await h.text("back")
        #expect(again.contains("This is the first page"))
    }

    @Test("filter available leaves only available books")
    func filterAvailable() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let before = await h.run("search roman*")
        let filtered = await h.run("filter available")
        #expect(filtered.first?.contains("only available") == true)
        #expect(hitLines(filtered).allSatisfy { $0.line.hasPrefix("✓ Available") })
        #expect(hitLines(before).count > 0)
        let cleared = await h.text("filter clear")
        #expect(!cleared.contains("only available"))
    }

    @Test("view grid lays out cards across the width")
    func grid() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let screen = await h.run("view grid")
        // Plain theme is 80 cells: two cards side by side, each starting with its number.
        let heads = screen.filter { $0.hasPrefix("1 ") || $0.hasPrefix("3 ") }
        #expect(heads.count == 2)
        #expect(heads.first?.contains("2 ") == true)
    }

    @Test("info shows what the library knows, with availability in words")
    func info() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("top 5")
        let text = await h.text("info 1")
        for label in [
            "Author", "Publisher", "Published", "Language", "Categories", "Pages", "ISBN", "Formats", "Loan period",
            "Availability",
        ] {
            #expect(text.contains(label), "missing \(label)")
        }
        #expect(text.contains("28 days"))
    }

    @Test("library shows the page with numbered top and newest lists")
    func libraryPage() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let text = await h.text("library")
        #expect(text.contains("Top 10"))
        #expect(text.contains("Newest"))
        #expect(text.contains("28 days"))
        let info = await h.text("info 12")
        #expect(h.errors.isEmpty, "\(info)")
    }

    @Test("top N numbers the most popular books for info")
    func top() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let object = try await h.json(["top", "4"])
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["number"] as? Int } == [1, 2, 3, 4])
        for key in ["id", "title", "authors", "year", "categories", "available", "reason"] {
            #expect(results[0].keys.contains(key), "JSON result lacks \(key)")
        }
    }
}
