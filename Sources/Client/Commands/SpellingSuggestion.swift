import Catalog

/// "Did you mean": a close word from the catalogue for a search with no hits.
///
/// The library has no spelling service, so the candidates come from the catalogue itself: a
/// search for the misspelt word's first letters brings books whose titles, authors, categories,
/// publishers and keywords hold the words the patron may have meant.
@MainActor
enum SpellingSuggestion {
    /// The query with its misspelt words replaced (`thrillr` → `thriller`), or nil when no word is close.
    static func suggest(for query: String, session: Session) async -> String? {
        let words = query.split(separator: " ").map(String.init)
        var changed = false
        var result: [String] = []
        for word in words {
            // Field terms, prefixes and quoted phrases are typed on purpose; only plain words are checked.
            guard word.count >= 4, word.allSatisfy(\.isLetter),
                let better = await closeWord(to: word, session: session)
            else {
                result.append(word)
                continue
            }
            result.append(better)
            changed = true
        }
        guard changed else { return nil }
        // Only a suggestion that finds something is worth making.
        let suggestion = result.joined(separator: " ")
        guard let page = try? await session.library.service.search(SearchRequest(query: suggestion, limit: 1)),
            page.total > 0
        else { return nil }
        return suggestion
    }

    /// The catalogue word nearest `word`, within one edit for short words and two for longer ones.
    static func closeWord(to word: String, session: Session) async -> String? {
        let lower = word.lowercased()
        // A word with hits of its own is not misspelt (another word of the query is).
        if let page = try? await session.library.service.search(SearchRequest(query: word, limit: 1)), page.total > 0 {
            return nil
        }
        guard
            let page = try? await session.library.service.search(
                SearchRequest(query: String(lower.prefix(3)) + "*", limit: 100))
        else {
            return nil
        }
        var candidates = Set<String>()
        for product in page.products {
            let texts =
                [product.title] + product.categories + product.keywords + product.authors.map(\.fullName)
                + [product.publisher].compactMap { $0 }
            for text in texts {
                for part in text.split(whereSeparator: { !$0.isLetter }) where part.count >= 3 {
                    candidates.insert(part.lowercased())
                }
            }
        }
        candidates.remove(lower)
        let limit = lower.count >= 6 ? 2 : 1
        let best = candidates.map { ($0, CommandTable.editDistance(lower, $0)) }
            .filter { $0.1 <= limit }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }
        return best?.0
    }
}
