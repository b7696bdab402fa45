import Catalog
import Localization
import Shelf
import Testing

/// The names of sort keys and shelf orders are defined on their enums, their names in other
/// languages in the catalogues; the name shown is one a patron may type, and no word names two keys.
@Suite("The names of sort keys", .serialized)
struct SortKeyNamesTests {
    @Test("Each key's Swedish name, as shown, is one a patron may type")
    func swedishNamesAreTheCatalogues() {
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        for key in SortKey.allCases { #expect(key.typedWord.localNames.first == key.word, "\(key)") }
        for key in ShelfSort.Key.allCases { #expect(key.typedWord.localNames.first == key.word, "\(key)") }
    }

    @Test("Every name a key answers to names that key and no other")
    func namesAreUnique() {
        for key in SortKey.allCases {
            for name in [key.rawValue] + key.aliases + key.typedWord.otherNames {
                #expect(SortKey(word: name) == key, "\(name)")
                #expect(SortKey(word: name.uppercased()) == key, "\(name)")
            }
        }
        for key in ShelfSort.Key.allCases {
            for name in [key.rawValue] + key.typedWord.otherNames {
                #expect(ShelfSort.Key(word: name) == key, "\(name)")
            }
        }
    }
}
