import Catalog
import Foundation
import Testing

@testable import MockLending

@Suite("Search index")
struct CatalogSearchTests {
    let search = Fixtures.search
    let products = Fixtures.catalog.products

    /// All hits of a query, in order (several pages when needed).
    func all(
        _ text: String, sort: SortSpec = SortSpec(.relevance), category: String? = nil, language: String? = nil,
        publisher: String? = nil, availableOnly: Bool = false
    ) throws -> [Product] {
        let query = text.isEmpty ? nil : try SearchQuery.parse(text)
        let options = SearchOptions(
            query: query, sort: sort, offset: 0, limit: products.count, category: category,
            language: language, publisher: publisher, availableOnly: availableOnly)
        let page = search.search(options) { Fixtures.state.availability($0, card: nil).available }
        #expect(page.total == page.indices.count)
        return page.indices.map { products[$0] }
    }

    static let sorts: [SortSpec] = SortKey.allCases.filter { $0 != .relevance }.flatMap {
        [SortSpec($0, .ascending), SortSpec($0, .descending)]
    }

    @Test("Every sort order equals ProductOrdering in Swedish", arguments: sorts)
    func sortOrdersMatchProductOrdering(spec: SortSpec) throws {
        let expected = ProductOrdering(collation: Collation(.swedish)).sorted(Array(products), by: spec).map(\.id)
        #expect(try all("", sort: spec).map(\.id) == expected)
        let thrillers = products.filter { $0.categories.contains("Thriller") }
        #expect(
            try all("", sort: spec, category: "thriller").map(\.id)
                == ProductOrdering(collation: Collation(.swedish)).sorted(thrillers, by: spec).map(\.id))
    }

    @Test("Sorting by author puts Å, Ä, Ö after Z")
    func swedishAuthorOrder() throws {
        let names = try all("", sort: SortSpec(.author)).map { ProductOrdering.authorSortText($0) }
        let lastZ = try #require(names.lastIndex { $0.hasPrefix("Z") })
        let firstAring = try #require(names.firstIndex { $0.hasPrefix("Å") })
        let firstOuml = try #require(names.firstIndex { $0.hasPrefix("Ö") })
        #expect(lastZ < firstAring)
        #expect(firstAring < firstOuml)
    }

    @Test("An empty query lists the whole catalogue")
    func emptyQuery() throws {
        #expect(try all("").count == products.count)
    }

    @Test("author:Å* finds books with an author name starting with Å, and only those")
    func authorPrefix() throws {
        let hits = try all("author:Å*")
        #expect(hits.count >= 10)
        for hit in hits {
            let words = SearchIndex.authors(of: hit).flatMap { [$0.firstName, $0.lastName] }
            #expect(words.contains { $0.hasPrefix("Å") }, "\(hit.title) by \(hit.contributors.map(\.fullName))")
        }
        // Å is a letter of its own: no "Andersson" without an Å name.
        let expected = products.filter {
            SearchIndex.authors(of: $0).contains { $0.firstName.hasPrefix("Å") || $0.lastName.hasPrefix("Å") }
        }
        #expect(Set(hits.map(\.id)) == Set(expected.map(\.id)))
    }

    @Test("Å thrillers: author:Å* category:thriller finds the planted books")
    func aringThrillers() throws {
        let hits = try all("author:Å* category:thriller")
        #expect(hits.filter(Fixtures.isAringThriller).count >= 3)
        #expect(hits.allSatisfy { $0.categories.contains("Thriller") })
    }

    @Test("A field term matches whole words; with * it matches the start of words")
    func fieldTermsAndPrefix() throws {
        let exact = try all("title:sommar")
        let prefix = try all("title:sommar*")
        #expect(
            exact.allSatisfy {
                SearchQuery.fold($0.title + " " + ($0.originalTitle ?? "")).split(separator: " ").contains("sommar")
            })
        #expect(prefix.count > exact.count)
        #expect(prefix.contains { $0.title.contains("Sommaren") || $0.title.contains("sommaren") })
    }

    @Test("A free word of four letters or more also finds longer words, ranked after whole-word hits")
    func implicitPrefix() throws {
        let hits = try all("mörk")
        #expect(hits.contains { $0.title.hasPrefix("Mörkret") })
        // Shorter words match whole words only, or "mö" would find half the catalogue.
        #expect(try !all("mör").contains { $0.title.hasPrefix("Mörkret") })
        let ranked = hits.map { SearchQuery.fold($0.title).split(separator: " ").contains("mörk") }
        if let lastWhole = ranked.lastIndex(of: true), let firstPrefixOnly = ranked.firstIndex(of: false) {
            #expect(lastWhole < firstPrefixOnly)
        }
    }

    @Test("Title hits rank above author hits, which rank above keyword hits")
    func relevance() throws {
        // A word that is a title word of some books and a name of others' authors.
        let index = search.index
        let word = try #require(
            index.words.indices.first { id in
                let inTitle = Set(index.postings[SearchIndex.Field.title.rawValue][id])
                let inAuthor = Set(index.postings[SearchIndex.Field.author.rawValue][id])
                return inTitle.count >= 2 && inAuthor.subtracting(inTitle).count >= 2 && index.words[id].count >= 4
            }.map { index.words[$0] })
        let hits = try all("\"\(word)\"")
        let inTitle = hits.map { SearchQuery.fold($0.title).split(separator: " ").contains(Substring(word)) }
        let lastTitleHit = try #require(inTitle.lastIndex(of: true))
        let firstOther = try #require(inTitle.firstIndex(of: false))
        #expect(lastTitleHit < firstOther, "\(word): a book with it in the title comes after one without")
        // Equal scores (all the title hits) are ordered by popularity.
        let popularity = hits.prefix(lastTitleHit + 1).map { $0.popularity ?? 0 }
        #expect(popularity == popularity.sorted(by: >))
    }

    @Test("A quoted phrase matches its words in a row")
    func phrase() throws {
        let hits = try all("\"huset vid\"")
        #expect(!hits.isEmpty)
        #expect(hits.allSatisfy { SearchQuery.fold($0.title).contains("huset vid") })
        let reversed = try all("\"vid huset\"")
        #expect(reversed.allSatisfy { SearchQuery.fold($0.title).contains("vid huset") })
    }

    @Test("An ISBN finds its book, with or without hyphens")
    func isbn() throws {
        let book = products[123]
        let isbn = book.isbns[0]
        #expect(try all(isbn).map(\.id) == [book.id])
        #expect(try all("isbn:\(isbn)").map(\.id) == [book.id])
        let hyphenated =
            "\(isbn.prefix(3))-\(isbn.dropFirst(3).prefix(2))-\(isbn.dropFirst(5).prefix(4))-\(isbn.dropFirst(9))"
        #expect(try all(hyphenated).map(\.id) == [book.id])
    }

    @Test("All terms must match")
    func conjunction() throws {
        let both = try all("category:deckare mordet")
        #expect(!both.isEmpty)
        #expect(both.count < (try all("category:deckare")).count)
        #expect(both.allSatisfy { $0.categories.contains("Deckare") })
        #expect(try all("category:deckare xyzzyq").isEmpty)
    }

    @Test("Filters: category, language, publisher and available")
    func filters() throws {
        let english = try all("", language: "en")
        #expect(!english.isEmpty && english.allSatisfy { $0.language == "en" })
        #expect(try all("", language: "engelska").count == english.count)
        let publisher = products[0].publisher!
        let fromPublisher = try all("", publisher: publisher.uppercased())
        #expect(!fromPublisher.isEmpty && fromPublisher.allSatisfy { $0.publisher == publisher })
        let fantasy = try all("", category: "FANTASY")
        #expect(fantasy.allSatisfy { $0.categories.contains("Fantasy") })
        let available = try all("", availableOnly: true)
        #expect(available.count < products.count)
        let ids = Set(available.map(\.id))
        for (index, product) in products.enumerated() {
            #expect(ids.contains(product.id) == Fixtures.state.availability(index, card: nil).available)
        }
    }

    @Test("Pages add up: the same total on each page, and no book twice")
    func pagination() throws {
        let query = try SearchQuery.parse("category:deckare")
        var seen: [String] = []
        var totals: Set<Int> = []
        var offset = 0
        while true {
            let page = search.search(SearchOptions(query: query, sort: SortSpec(.title), offset: offset, limit: 7)) {
                _ in true
            }
            totals.insert(page.total)
            if page.indices.isEmpty { break }
            seen += page.indices.map { products[$0].id }
            offset += 7
        }
        #expect(totals.count == 1)
        #expect(seen.count == totals.first!)
        #expect(Set(seen).count == seen.count)
        #expect(seen == (try all("category:deckare", sort: SortSpec(.title))).map(\.id))
    }

    @Test("Relevance ascending is the exact reverse of descending")
    func relevanceDirections() throws {
        let down = try all("sommar*", sort: SortSpec(.relevance, .descending)).map(\.id)
        let up = try all("sommar*", sort: SortSpec(.relevance, .ascending)).map(\.id)
        #expect(up == Array(down.reversed()))
    }
}
