import Catalog
import Foundation
import Logging
import MockLending
import Terminal
import TestSupport
import Testing

@testable import Client

/// An OPDS catalogue's pages as a patron pages through them (issue 29): fitted to the window
/// with their heading and footer, counted by the whole list (`opensearch:totalResults`), numbered
/// on across pages as search results are, and `back` returning to the page before. The
/// catalogue is the mock library's OPDS face on 127.0.0.1.
@MainActor
@Suite("An OPDS catalogue's pages fit the window and number on", .serialized)
struct CataloguePagingTests {
    /// The entry numbers on a screen: the numbers lines start with, two spaces after them.
    static func numbers(_ screen: String) -> [Int] {
        screen.split(separator: "\n").compactMap { line in
            let rest = line.drop { $0 == " " }
            let digits = rest.prefix { $0.isNumber }
            return rest.dropFirst(digits.count).hasPrefix("  ") ? Int(digits) : nil
        }
    }

    @Test("Search results fit 80×24, count every hit, number on after more, and back shows the page before")
    func fitsAndNumbersOn() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let bok = CatalogueLoginTests.Catalogue(root: server.opdsURL, home: home)
            bok.session.theme = Theme(caps: .plain, width: 80, height: 24)
            // What the catalogue itself says of the search: its first page and the whole count.
            let feed = try await OPDSClient(root: server.opdsURL, timeout: 5).search(
                "en", from: try await OPDSClient(root: server.opdsURL, timeout: 5).feed())
            let total = try #require(feed.totalResults)
            try #require(total > feed.entries.count && feed.entries.count >= 20, "a search that needs pages")

            var screen = await bok.text("search en")
            // The page and the prompt's line fit 24 rows.
            #expect(screen.split(separator: "\n", omittingEmptySubsequences: false).count <= 23, "\(screen)")
            #expect(screen.hasPrefix("\(total) hits for “en”"), "\(screen)")
            var seen = Self.numbers(screen)
            #expect(seen.first == 1 && seen.count >= 3, "\(screen)")
            #expect(screen.contains("Showing 1–\(seen.count) of \(total). Type more for the next page."), "\(screen)")
            let firstScreen = screen

            // Pages on past the feed's first page: the numbers go on, one after another.
            while seen.count <= feed.entries.count {
                screen = await bok.text("more")
                #expect(screen.split(separator: "\n", omittingEmptySubsequences: false).count <= 23, "\(screen)")
                #expect(screen.hasPrefix("\(total) hits for “en”"), "\(screen)")
                let page = Self.numbers(screen)
                #expect(page.first == seen.count + 1, "\(screen)")
                seen += page
                #expect(screen.contains("back for the previous"), "\(screen)")
            }
            #expect(seen == Array(1...seen.count))
            // A number on screen means that entry: info shows its title.
            let last = try #require(seen.last)
            let row = try #require(screen.split(separator: "\n").first { $0.hasPrefix("\(last)  ") })
            let title = try #require(
                row.split(separator: "·").first { !$0.contains("Available") && !$0.contains("\(last)") })
            #expect(await bok.text("info \(last)").contains(title.trimmingCharacters(in: .whitespaces)))
            // A number of another page is refused with the numbers this page has.
            #expect(await bok.text("info 1").contains("There is no entry 1 on this page: pick"))

            // Back, page by page, to the first screen as it was.
            for _ in 0..<40 where screen != firstScreen {
                screen = await bok.text("back")
            }
            #expect(screen == firstScreen)
        }
    }

    @Test("browse N then back: the section says back returns; a one-shot browse N opens the top first")
    func backHintAndOneShotNumbers() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let bok = CatalogueLoginTests.Catalogue(root: server.opdsURL, home: home)
            // No browse before: the numbers mean the catalogue's top, as browse would show it.
            let section = await bok.text("browse 1")
            #expect(!section.contains("Nothing on screen"), "\(section)")
            #expect(section.contains("back returns to the page before"), "\(section)")
            let top = await bok.text("back")
            #expect(top.contains("browse N opens a section") && !top.contains("back returns"), "\(top)")
        }
    }
}
