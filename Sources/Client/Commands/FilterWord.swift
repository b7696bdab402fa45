import Catalog
import Localization

/// A filter as a patron types it to `filter` (and `category:` to `top` and `new`): `available`,
/// `language:sv`, `category:Deckare`, `publisher:NAME`, and `clear` to take them off — in English
/// or in any language bok speaks (`filtrera ledig kategori:Barn`, `filtrera rensa språk`).
/// A refusal's examples are in the interface language.
enum FilterWord: CaseIterable {
    case available, language, category, publisher

    /// Its word, named in other languages by their catalogues: `available` is the filter's own,
    /// the others are the search's fields (`kategori:` filters as it searches).
    var typedWord: TypedWord {
        switch self {
        case .available: TypedWord("typed: filter", "available")
        case .language: SearchQuery.Field.language.typedWord
        case .category: SearchQuery.Field.category.typedWord
        case .publisher: SearchQuery.Field.publisher.typedWord
        }
    }

    /// `clear`, which takes all filters off, or the ones named after it.
    static let clear = TypedWord("typed: filter", "clear")

    /// The filter `word` names, with or without a colon (`available`, `lang`, `kategori:`).
    init?(named word: String) {
        let bare = word.hasSuffix(":") ? String(word.dropLast()) : word
        if bare.lowercased() == "lang" {
            self = .language
            return
        }
        guard let found = Self.allCases.first(where: { $0.typedWord.isNamed(bare) }) else { return nil }
        self = found
    }

    /// Its name in the interface language: `available`, `ledig`.
    var spoken: String { Self.spoken(typedWord) }

    /// The main name of `word` in the interface language.
    static func spoken(_ word: TypedWord) -> String { word.localNames.first ?? word.english }

    /// The category a word of `top` or `new` names (`category:Thriller`, `kategori:Barn`), or nil.
    static func category(in word: String) -> String? {
        guard let colon = word.firstIndex(of: ":"), word.index(after: colon) < word.endIndex,
            FilterWord(named: String(word[..<colon])) == .category
        else { return nil }
        return String(word[word.index(after: colon)...])
    }

    /// `filters` with the words of `filter` applied: `clear [WHICH…]`, or filters to put on.
    /// - Throws: `UserError` for a word that names no filter, with examples in the interface language.
    @MainActor static func apply(_ words: [String], to filters: SearchFilters) throws -> SearchFilters {
        var filters = filters
        if let first = words.first, clear.isNamed(first) {
            if words.count == 1 { filters = SearchFilters() }
            for which in words.dropFirst() {
                guard let filter = FilterWord(named: which) else { throw unknown(which) }
                filter.clear(&filters)
            }
            return filters
        }
        for word in words {
            guard let colon = word.firstIndex(of: ":"), word.index(after: colon) < word.endIndex else {
                guard FilterWord(named: word) == .available else { throw unknownWord(word) }
                filters.availableOnly = true
                continue
            }
            let name = String(word[..<colon])
            let value = String(word[word.index(after: colon)...])
            switch FilterWord(named: name) {
            case .language: filters.language = value.lowercased()
            case .category: filters.category = value
            case .publisher: filters.publisher = value
            case .available, nil: throw unknown(name + ":")
            }
        }
        return filters
    }

    private func clear(_ filters: inout SearchFilters) {
        switch self {
        case .available: filters.availableOnly = false
        case .language: filters.language = nil
        case .category: filters.category = nil
        case .publisher: filters.publisher = nil
        }
    }

    /// `Unknown filter "x". Filters are available, language:, category:, publisher:.`
    private static func unknown(_ name: String) -> UserError {
        let names = allCases.map { $0 == .available ? $0.spoken : $0.spoken + ":" }
        return UserError.usage(
            tr(
                "Unknown filter \"{name}\". Filters are {names}.",
                ["name": name, "names": names.joined(separator: ", ")]))
    }

    /// `Unknown filter "x". Try filter available, language:sv, category:Thriller or publisher:NAME.`
    @MainActor private static func unknownWord(_ word: String) -> UserError {
        UserError.usage(
            tr(
                "Unknown filter \"{name}\". Try {filter} {available}, {language}:sv, {category}:Thriller "
                    + "or {publisher}:NAME.",
                [
                    "name": word, "filter": Command.spoken("filter"), "available": FilterWord.available.spoken,
                    "language": FilterWord.language.spoken, "category": FilterWord.category.spoken,
                    "publisher": FilterWord.publisher.spoken,
                ]))
    }

    /// What Tab offers for the word at `position` of `filter`: the filters and `clear` first, the
    /// filters to clear after it; each in English, then in the interface language.
    static func completions(at position: Int) -> [String] {
        func names(_ word: TypedWord, colon: Bool) -> [String] {
            ([word.english] + word.localNames).map { colon ? $0 + ":" : $0 }
        }
        switch position {
        case 0:
            return allCases.flatMap { names($0.typedWord, colon: $0 != .available) } + names(clear, colon: false)
        case 1: return allCases.flatMap { names($0.typedWord, colon: false) }
        default: return []
        }
    }
}
