import Catalog
import Foundation
import Testing

@testable import MockLending

@Suite("Catalogue generator")
struct CatalogGeneratorTests {
    let products = Fixtures.catalog.products

    @Test("The same seed gives the same catalogue, another seed another")
    func determinism() {
        let again = CatalogGenerator(seed: 1, size: 600).generate()
        #expect(again.products == Fixtures.catalog.products)
        #expect(again.licences == Fixtures.catalog.licences)
        let other = CatalogGenerator(seed: 2, size: 600).generate()
        let sameTitles = zip(other.products, products).filter { $0.title == $1.title }.count
        #expect(sameTitles < 100, "seed 2 should read differently from seed 1")
    }

    @Test("A larger catalogue starts with different books but is generated the same way twice")
    func largerCatalogueIsDeterministicToo() {
        let a = CatalogGenerator(seed: 7, size: 3_000).generate()
        let b = CatalogGenerator(seed: 7, size: 3_000).generate()
        #expect(a.products == b.products)
        #expect(Set(a.products.map(\.id)).count == 3_000)
    }

    @Test("The index pass's books differ from the served ones only in what the index does not read")
    func indexPassBooks() {
        for seed: UInt64 in [1, 42] {
            let generator = CatalogGenerator(seed: seed, size: 4_000)
            let plans = generator.makePlans()
            let day = generator.referenceDay.ordinal
            for index in plans.indices {
                let (full, licence) = generator.book(index, plan: plans[index], referenceOrdinal: day)
                var (lean, leanLicence) = generator.book(
                    index, plan: plans[index], referenceOrdinal: day, complete: false)
                #expect(leanLicence == licence, "book \(index): the licence is drawn after what is left out")
                #expect(lean.description == "" && lean.coverImage == nil && lean.teaser == nil && lean.formats.isEmpty)
                (lean.description, lean.coverImage, lean.teaser, lean.formats) = (
                    full.description, full.coverImage, full.teaser, full.formats
                )
                #expect(lean == full, "book \(index) of seed \(seed)")
            }
        }
        #expect(ISBN.make(index: 12_345, language: "fi") == "9789518647846")
        #expect(ISBN.isValid(ISBN.make(index: 98_765, language: "sv")))
    }

    @Test("Every product id leads back to its book, and an id no book has leads nowhere")
    func productIDsLeadBack() {
        for (index, product) in products.enumerated() {
            #expect(CatalogGenerator.index(ofProductID: product.id, size: products.count) == index)
        }
        let ids = Set(products.map(\.id))
        for id in ["1000000", "9999999", "0123456", "123456", "12345678", "12a4567", "+123456", ""]
        where !ids.contains(id) {
            #expect(CatalogGenerator.index(ofProductID: id, size: products.count) == nil, "\(id)")
        }
        // A book of a larger catalogue is not in this one.
        let later = CatalogGenerator.productID(products.count)
        #expect(CatalogGenerator.index(ofProductID: later, size: products.count) == nil)
        #expect(CatalogGenerator.index(ofProductID: later, size: products.count + 1) == products.count)
    }

    @Test("Every ISBN is thirteen digits with a correct check digit, and no two books share one")
    func isbns() {
        let large = CatalogGenerator(seed: 3, size: 20_000).generate().products
        for catalogue in [products, large] {
            let isbns = catalogue.flatMap(\.isbns)
            #expect(isbns.count == catalogue.count)
            #expect(isbns.allSatisfy(ISBN.isValid))
            #expect(Set(isbns).count == isbns.count)
        }
        #expect(ISBN.isValid("9780306406157"))  // a textbook example
        #expect(!ISBN.isValid("9780306406158"))
    }

    @Test("Names use the Swedish letters, at the start of last names too")
    func swedishLetters() {
        let lastNames = Set(products.flatMap(\.contributors).map(\.lastName))
        for letter in ["Å", "Ä", "Ö"] {
            #expect(lastNames.contains { $0.hasPrefix(letter) }, "no last name starts with \(letter)")
        }
        let names = products.flatMap(\.contributors).map(\.fullName)
        #expect(names.contains { $0.contains("É") || $0.contains("é") })
    }

    @Test("Translated books carry their original title and a translator")
    func translations() {
        let translated = products.filter { $0.originalTitle != nil }
        #expect(translated.count >= 30)
        for book in translated {
            #expect(book.language == "sv")
            #expect(!book.translators.isEmpty, "\(book.title) has an original title but no translator")
        }
        // Most titles are translated too ("The Silent Harbour" → "Den tysta hamnen"); names stay ("Jane Eyre").
        #expect(translated.filter { $0.originalTitle != $0.title }.count > translated.count * 3 / 4)
        #expect(products.filter { !$0.translators.isEmpty }.allSatisfy { $0.originalTitle != nil })
    }

    @Test("The catalogue has the categories, languages and publishers of a Swedish public library")
    func spread() {
        let categories = Set(products.flatMap(\.categories))
        for name in [
            "Thriller", "Deckare", "Fantasy", "Barn", "Biografi", "Klassiker", "Romance", "Historiska romaner",
            "Science fiction", "Ungdom", "Fakta", "Poesi", "Feelgood",
        ] {
            #expect(categories.contains(name), "no \(name)")
        }
        let languages = Dictionary(grouping: products, by: { $0.language ?? "" }).mapValues(\.count)
        #expect(languages["sv", default: 0] > products.count / 2)
        #expect(languages["en", default: 0] >= 20)
        #expect(languages.keys.filter { $0 != "sv" && $0 != "en" }.count >= 3)
        #expect(Set(products.compactMap(\.publisher)).count >= 15)
    }

    @Test("Publication dates span decades, many of them recent")
    func dates() {
        let years = products.compactMap(\.year)
        #expect(years.min()! < 1980)
        #expect(years.max()! <= 2026)
        let recent = years.filter { $0 >= 2025 }.count
        #expect(recent > products.count / 5)
    }

    @Test("Series have two to six books, numbered from 1, by one author")
    func series() {
        // Two authors may both write a "Visbyserien", as in real catalogues: a series is name and author.
        let bySeries = Dictionary(
            grouping: products.filter { $0.series != nil },
            by: { "\($0.series!.name) / \($0.authors.first?.fullName ?? "")" })
        #expect(bySeries.count >= 5)
        for (name, books) in bySeries {
            let orders = books.compactMap(\.series?.order).sorted()
            #expect(orders == Array(1...books.count), "series \(name) is numbered \(orders)")
            #expect((2...6).contains(books.count), "series \(name) has \(books.count) books")
        }
    }

    @Test("Popularity is skewed, ratings are 1–5 with one decimal")
    func popularityAndRating() {
        let popularity = products.compactMap(\.popularity).sorted()
        #expect(popularity.count == products.count)
        let median = popularity[popularity.count / 2]
        #expect(popularity.last! > 20 * max(1, median))
        for product in products {
            let rating = try! #require(product.rating)
            #expect((1...5).contains(rating))
            #expect(abs(rating * 10 - (rating * 10).rounded()) < 1e-9)
        }
    }

    @Test("Every book is lendable as EPUB, most have a sample and all have a cover")
    func formatsAndLinks() {
        for product in products {
            #expect(product.formats.contains { $0.id == "4104" })
            #expect(product.statuses.contains { $0.name == "Active" })
            #expect(product.isActive(on: CatalogGenerator.defaultReferenceDay))
            #expect(product.coverImage == "/mock/content/\(product.id)/cover.png")
            #expect((product.pages ?? 0) > 0)
            #expect(product.keywords.count >= 2)
        }
        #expect(products.filter { $0.formats.contains { $0.id == "4103" } }.count > 50)
        #expect(products.filter { $0.teaser != nil }.count > products.count * 3 / 4)
    }

    @Test("Titles and blurbs are finished sentences, with no template holes")
    func textQuality() {
        for product in products {
            for text in [product.title, product.description ?? "", product.series?.name ?? ""] {
                #expect(!text.contains("{") && !text.contains("}"), "unfilled slot in \"\(text)\"")
                #expect(!text.contains("  "), "double space in \"\(text)\"")
            }
            #expect(product.title.first!.isUppercase, "\(product.title)")
            let blurb = try! #require(product.description)
            #expect(blurb.split(separator: " ").count >= 12, "short blurb: \(blurb)")
            // Sentences end in . ! ?, a quoted review ends with the paper's name.
            #expect(".!?".contains(blurb.last!) || blurb.last!.isLetter, "blurb ends oddly: \(blurb)")
        }
        #expect(Set(products.map(\.title)).count > products.count / 2, "too many repeated titles")
    }

    @Test("All three licence models occur")
    func licenceModels() {
        let models = Set(Fixtures.catalog.licences.map(\.model))
        #expect(models == Set(Licence.Model.allCases))
        let copies = Fixtures.catalog.licences.filter { $0.model == .copies }
        #expect(copies.allSatisfy { (1...5).contains($0.copies) && $0.onLoan <= $0.copies })
    }
}
