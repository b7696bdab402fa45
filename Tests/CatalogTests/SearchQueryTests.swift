import Catalog
import Testing

@Suite("Search query syntax")
struct SearchQueryTests {
    @Test("Free words, field terms and prefixes")
    func terms() throws {
        let query = try SearchQuery.parse("thriller author:Å* title:Sommar")
        #expect(
            query.terms == [
                .init(field: nil, value: "thriller", isPrefix: false),
                .init(field: .author, value: "å", isPrefix: true),
                .init(field: .title, value: "sommar", isPrefix: false),
            ])
    }

    @Test("Quoted phrases stay together, also after a field")
    func phrases() throws {
        let query = try SearchQuery.parse("\"röda rummet\" author:\"August Strindberg\"")
        #expect(query.terms.map(\.value) == ["röda rummet", "august strindberg"])
        #expect(query.terms.map(\.field) == [nil, .author])
    }

    @Test("Folding keeps the Swedish letters but drops other accents")
    func folding() {
        #expect(SearchQuery.fold("Åsa ÖSTERGREN") == "åsa östergren")
        #expect(SearchQuery.fold("Élise Müller") == "elise muller")
        #expect(SearchQuery.fold("Ærø, Søren!") == "ärö sören")
    }

    @Test("ISBN terms keep only digits")
    func isbn() throws {
        #expect(try SearchQuery.parse("isbn:978-91-0-012345-6").terms.first?.value == "9789100123456")
    }

    @Test("Swedish field names work too")
    func aliases() throws {
        #expect(try SearchQuery.parse("författare:Lindgren").terms.first?.field == .author)
    }

    @Test("An empty query explains the syntax")
    func empty() {
        #expect(throws: SearchQuery.ParseError.self) { try SearchQuery.parse("   ") }
        do {
            _ = try SearchQuery.parse("")
        } catch {
            #expect(error.message.contains("author:Å*"))
        }
    }

    @Test("An unknown field names the known ones")
    func unknownField() {
        do {
            _ = try SearchQuery.parse("autor:Lindgren")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("Unknown field \"autor:\""))
            #expect(error.message.contains("author:"))
        }
    }

    @Test("A field without a value says how to write one")
    func emptyValue() {
        do {
            _ = try SearchQuery.parse("author:")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("needs a value"))
        }
    }
}
