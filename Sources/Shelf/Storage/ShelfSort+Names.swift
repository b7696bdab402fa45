public import Catalog
public import Localization

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

    /// The order's name in the interface language: `author`, `författare` (the first of its names there).
    public var word: String { typedWord.localNames.first ?? rawValue }

    /// The order as a patron types it, named in other languages by their catalogues (`hylla
    /// sortera författare stigande`): title and author as the catalogue's keys are.
    public var typedWord: TypedWord {
        switch self {
        case .title: SortKey.title.typedWord
        case .author: SortKey.author.typedWord
        case .days: TypedWord("typed: sort key", "days")
        case .recent: TypedWord("typed: sort key", "recent")
        }
    }

    /// The order a patron's word names: its own name or its name in a language bok speaks, in any case.
    public init?(word: String) {
        guard let key = Self(rawValue: word.lowercased()) ?? Self.allCases.first(where: { $0.typedWord.isNamed(word) })
        else { return nil }
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
