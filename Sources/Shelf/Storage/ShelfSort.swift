public import Catalog
import Foundation

/// How the shelf's sections are ordered: `title|author|days|recent`, `asc|desc`.
public struct ShelfSort: Sendable, Hashable {
    /// What entries are ordered by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The title, in the library's alphabet.
        case title
        /// The authors, in the library's alphabet.
        case author
        /// Days left (loans), until ready or expected (reservations); entries without a day last.
        case days
        /// Most recently borrowed, added or read.
        case recent

        /// The order a patron expects first: A→Ö, fewest days first, newest first.
        public var defaultOrder: Catalog.SortOrder { self == .recent ? .descending : .ascending }
    }

    /// The key.
    public var key: Key
    /// The direction.
    public var order: Catalog.SortOrder

    /// Creates a sort; the order defaults to the key's natural one.
    public init(_ key: Key = .days, _ order: Catalog.SortOrder? = nil) {
        self.key = key
        self.order = order ?? key.defaultOrder
    }

    /// Sorts entries; ties fall back to the title so the order is stable.
    ///
    /// Each key is computed once and the entries' places are sorted, not the entries: moving
    /// whole entries about cost a shelf of thousands more than comparing their keys.
    func sorted(_ entries: [Shelf.Entry], collation: Collation) -> [Shelf.Entry] {
        let descending = order == .descending
        let titles = entries.map { collation.key($0.title) }
        let places: [Int]
        switch key {
        case .title:
            places = entries.indices.sorted { descending ? titles[$1] < titles[$0] : titles[$0] < titles[$1] }
        case .author:
            let authors = entries.map { collation.key(Self.authorSortText($0.authors)) }
            places = entries.indices.sorted { a, b in
                if authors[a] != authors[b] { return descending ? authors[b] < authors[a] : authors[a] < authors[b] }
                return titles[a] < titles[b]
            }
        case .days, .recent:
            let values = entries.map { key == .days ? $0.daysLeft.map(Double.init) : $0.recent?.timeIntervalSince1970 }
            places = entries.indices.sorted { a, b in
                switch (values[a], values[b]) {
                case (let x?, let y?) where x != y: return descending ? y < x : x < y
                case (.some, nil): return true  // entries without a value go last either way
                case (nil, .some): return false
                default: return titles[a] < titles[b]
                }
            }
        }
        return places.map { entries[$0] }
    }

    /// `Åkesson Karin` for `Karin Åkesson, Saga Ringqvist`: the first author, last name first, as
    /// a library orders authors. The shelf keeps names as displayed; the last word is the last name.
    static func authorSortText(_ authors: String) -> String {
        let first = authors.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        var words = first.split(separator: " ").map(String.init)
        guard words.count > 1 else { return first }
        let last = words.removeLast()
        return ([last] + words).joined(separator: " ")
    }
}
