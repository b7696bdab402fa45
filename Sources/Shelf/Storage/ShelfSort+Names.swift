public import Catalog
import Localization

/// The shelf's orders in words: their names and directions are those of the catalogue's sort
/// keys where the two share a key (title, author; recent runs as date does).
extension ShelfSort.Key {
    /// The catalogue's key this one orders as, where there is one.
    var catalogKey: SortKey? {
        switch self {
        case .title: .title
        case .author: .author
        case .recent: .date
        case .days: nil
        }
    }

    /// The order's name in the interface language: `author`, `författare`.
    public var word: String {
        switch self {
        case .title: SortKey.title.word
        case .author: SortKey.author.word
        case .days: trp("sort key", "days")
        case .recent: trp("sort key", "recent")
        }
    }

    /// The order's Swedish names, understood whatever the interface language (`hylla sortera
    /// författare stigande`).
    public var swedishNames: [String] {
        switch self {
        case .title: SortKey.title.swedishNames
        case .author: SortKey.author.swedishNames
        case .days: ["dagar"]
        case .recent: ["senast"]
        }
    }

    /// The order a patron's word names: its own name or a Swedish one, in any case.
    public init?(word: String) {
        let word = word.lowercased()
        guard let key = Self(rawValue: word) ?? Self.allCases.first(where: { $0.swedishNames.contains(word) }) else {
            return nil
        }
        self = key
    }
}

extension ShelfSort {
    /// `A→Ö`, `fewest days first`, `newest first`: as ``SortSpec/directionLabel(alphabet:arrow:)``
    /// says it for the catalogue's key the order shares.
    public func directionLabel(alphabet: Collation.Alphabet, arrow: String = "→") -> String {
        if let shared = key.catalogKey {
            return SortSpec(shared, order).directionLabel(alphabet: alphabet, arrow: arrow)
        }
        return order == .ascending ? tr("fewest days first") : tr("most days first")
    }

    /// `author, A→Ö`, `days, fewest first`, `recent, newest first`.
    public func label(alphabet: Collation.Alphabet, arrow: String = "→") -> String {
        "\(key.word), \(directionLabel(alphabet: alphabet, arrow: arrow))"
    }
}
