import Catalog
import Foundation
import Testing

@testable import MockLending

@Suite("Book phrasebooks")
struct BooksPhraseTests {
    /// A product of each kind, in Swedish and in English.
    static let cases: [(BookKind, Story.Language)] = BookKind.allCases.flatMap { [($0, .swedish), ($0, .english)] }

    static func product(_ kind: BookKind, _ language: Story.Language) -> Product {
        let category = ["Deckare", "Fantasy", "Barn", "Biografi", "Fakta", "Poesi", "Romance"][
            BookKind.allCases.firstIndex(of: kind)!]
        return Product(
            id: "1234567", title: "Prov", contributors: [Contributor(firstName: "Alma", lastName: "Öberg")],
            language: language == .english ? "en" : "sv", categories: [category], pages: 200)
    }

    @Test("Every slot in every phrase names a list, a pool or a character of the book", arguments: cases.indices)
    func slotsResolve(_ index: Int) {
        let (kind, language) = Self.cases[index]
        var rng = SplitMix64(seed: 1)
        let facts = BookFacts(product: Self.product(kind, language), seed: 1)
        let cast = Cast(facts: facts, kind: kind, &rng)
        let english = language == .english
        let books =
            kind == .facts
            ? (english
                ? [FactsTopic.gardenEnglish, .natureEnglish, .foodEnglish, .historyEnglish]
                : [FactsTopic.gardenSwedish, .natureSwedish, .foodSwedish, .historySwedish]).map(\.book)
            : [Phrasebook.of(kind, language)]
        for book in books {
            for (pool, phrases) in book.pools {
                for phrase in phrases {
                    for slot in phrase.slots {
                        let known =
                            book.lists[slot] != nil || book.pools[slot] != nil || slot == "backLink"
                            || !cast[slot].isEmpty
                        #expect(known, "\(kind) \(language) pool \(pool): {\(slot)}")
                    }
                }
            }
        }
    }

    @Test("Dialogue is set as Swedish and English books set it")
    func quotationMarks() {
        var cast = SplitMix64(seed: 1)
        let facts = BookFacts(product: Self.product(.family, .swedish), seed: 1)
        let people = Cast(facts: facts, kind: .family, &cast)
        var dash = ProseWriter(
            rng: SplitMix64(seed: 1), language: .swedish, book: .of(.family, .swedish), cast: people, dashDialogue: true
        )
        var quotes = ProseWriter(
            rng: SplitMix64(seed: 1), language: .swedish, book: .of(.family, .swedish), cast: people,
            dashDialogue: false)
        var english = ProseWriter(
            rng: SplitMix64(seed: 1), language: .english, book: .of(.family, .english), cast: people,
            dashDialogue: false)
        #expect(dash.quote("Kom hit.", speaker: nil, answer: false) == "– Kom hit.")
        #expect(quotes.quote("Kom hit.", speaker: nil, answer: false) == "”Kom hit.”")
        let tagged = dash.quote("Kom hit.", speaker: "Alma", answer: false)
        #expect(tagged.hasPrefix("– Kom hit, ") && tagged.hasSuffix(" Alma."))
        let question = quotes.quote("Var är du?", speaker: "Alma", answer: false)
        #expect(question.hasPrefix("”Var är du?” ") && question.hasSuffix(" Alma."))
        let statement = quotes.quote("Jag vet.", speaker: "Alma", answer: true)
        #expect(statement.hasPrefix("”Jag vet”, ") && statement.hasSuffix(" Alma."))
        let englishLine = english.quote("I know.", speaker: "Alma", answer: true)
        #expect(englishLine.hasPrefix("“I know,” ") && englishLine.hasSuffix(" Alma."))
    }

    @Test("A book without an ISBN gets a stable UUID identifier")
    func uuidIdentifier() {
        var product = Self.product(.crime, .swedish)
        product.isbns = []
        let id = BookFacts(product: product, seed: 1).identifier
        #expect(id == BookFacts(product: product, seed: 1).identifier)
        #expect(id != BookFacts(product: product, seed: 2).identifier)
        #expect(
            id.range(
                of: "^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
                options: .regularExpression) != nil, "\(id)")
    }

    @Test("Every kind of book in both languages is written without a hitch, sample and whole")
    func everyKind() throws {
        for (kind, language) in Self.cases {
            let product = Self.product(kind, language)
            for sample in [true, false] {
                let chapters = Self.chapterCount(MockBooks.epub(for: product, seed: 3, sample: sample))
                #expect(chapters > 0, "\(kind) \(language)")
            }
        }
    }

    /// The number of chapter files in an EPUB (the zip's own listing).
    static func chapterCount(_ epub: Data) -> Int {
        BookFixtures.entryNames(epub).filter { $0.hasPrefix("EPUB/text/chapter-") }.count
    }
}
