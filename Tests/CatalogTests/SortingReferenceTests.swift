import Catalog
import Testing

/// `ProductOrdering` takes shortcuts for speed (all keys in one buffer, title keys only where
/// primary keys tie); these tests hold it to the plain definition of the order.
@Suite("Sorting products agrees with a plain sort by collation keys")
struct SortingReferenceTests {
    /// Names that sort differently in Swedish and English, spellings with equal keys ("O'Connor",
    /// "OConnor"), a decomposed é, upper and lower case, and single-name authors.
    static let lastNames = [
        "Åberg", "Aberg", "Andersson", "Ängström", "Öberg", "Ødegaard", "Ærø", "Über",
        "Zetterlund", "Élise", "E\u{301}lise", "ekström", "Ekström", "O'Connor", "OConnor",
        "Ek", "Eka", "Lindén", "Müller", "Nørgaard", "Ståhl", "van der Berg", "", "Łukasz",
    ]
    static let firstNames = ["Anna", "Åsa", "Örjan", "Erik", "", "Émile", "Jürgen", "Søren", "anna"]
    static let titles = [
        "Natt", "natt", "Öken", "Annat", "Ödemark", "Éclair", "Eclair", "Mörker över Åre",
        "Ek Anna", "Eka", "", "1984", "Zoo",
    ]
    static let publishers = ["Norrsken", "Åkes förlag", "Éditions du Phare", "", "norrsken"]

    /// A few thousand products from a fixed seed; ids repeat now and then so that the last tie-break,
    /// the position in the input, is exercised too.
    static let products: [Product] = {
        var random = SplitMix(seed: 2026)
        return (0..<3_000).map { index in
            var contributors: [Contributor] = []
            switch random.below(10) {
            case 0: break  // no contributors: sorts as an empty name
            case 1:
                contributors = [
                    Contributor(role: .translator, firstName: random.pick(firstNames), lastName: random.pick(lastNames))
                ]
            default:
                contributors = [Contributor(firstName: random.pick(firstNames), lastName: random.pick(lastNames))]
                if random.below(4) == 0 {
                    contributors.append(
                        Contributor(firstName: random.pick(firstNames), lastName: random.pick(lastNames)))
                }
            }
            return Product(
                id: "P\(random.below(2_800))", title: random.pick(titles), contributors: contributors,
                publisher: random.below(5) == 0 ? nil : random.pick(publishers), popularity: index % 7)
        }
    }()

    /// The order by its definition: primary key (`authorSortText`, title or publisher, missing first),
    /// then title A→Z, then id, then position, keys compared with `Collation.Key`'s `<`.
    func referenceOrder(_ products: [Product], _ spec: SortSpec, _ collation: Collation) -> [Product] {
        let primary: [Collation.Key?] = products.map { product in
            switch spec.key {
            case .author: collation.key(ProductOrdering.authorSortText(product))
            case .title: collation.key(product.title)
            default: product.publisher.map { collation.key($0) }
            }
        }
        let titles = products.map { collation.key($0.title) }
        let order = products.indices.sorted { a, b in
            if primary[a] != primary[b] {
                let (first, second) = spec.order == .ascending ? (primary[a], primary[b]) : (primary[b], primary[a])
                guard let first else { return true }
                guard let second else { return false }
                return first < second
            }
            if titles[a] != titles[b] { return titles[a] < titles[b] }
            if products[a].id != products[b].id { return products[a].id < products[b].id }
            return a < b
        }
        return order.map { products[$0] }
    }

    @Test(
        "Author, title and publisher orders, both directions, both alphabets",
        arguments: [
            SortSpec(.author, .ascending), SortSpec(.author, .descending), SortSpec(.title, .ascending),
            SortSpec(.title, .descending), SortSpec(.publisher, .ascending), SortSpec(.publisher, .descending),
        ])
    func matchesReference(spec: SortSpec) {
        for alphabet in [Collation.Alphabet.swedish, .english] {
            let collation = Collation(alphabet)
            let sorted = ProductOrdering(collation: collation).sorted(Self.products, by: spec)
            let expected = referenceOrder(Self.products, spec, collation)
            #expect(sorted.count == expected.count)
            let firstDifference = sorted.indices.first { $0 < expected.count && sorted[$0] != expected[$0] }
            #expect(
                firstDifference == nil,
                "\(alphabet) \(spec.label(alphabet: alphabet)): first difference at position \(firstDifference ?? -1)")
        }
    }

    @Test("The sample has ties and non-ASCII names, so the comparison above means something")
    func sampleIsHard() {
        let names = Self.products.map(ProductOrdering.authorSortText)
        #expect(Set(names).count < names.count / 10)
        #expect(names.contains { $0.unicodeScalars.contains { $0.value > 0x7F } })
        #expect(Set(Self.products.map(\.id)).count < Self.products.count)
    }
}

/// A small seeded generator (SplitMix64), so the sample is the same on every run.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}
