import Catalog

extension CatalogSearch {
    /// The books that can be like `book` (at `index`) at all, ascending: those in a series of
    /// the same name, with an author of the same name, or with one of its keywords and either
    /// one of its categories or three of its keywords. A superset, found in the index without
    /// generating the catalogue; the caller scores the few it names.
    func similarCandidates(to book: Product, at index: Int) -> [Int] {
        var found = Set<Int32>()
        if let series = book.series { found.formUnion(self.index.seriesMembers[series.name] ?? []) }
        for author in book.authors {
            guard let members = members(of: author.fullName, in: .author) else { return Array(products.indices) }
            found.formUnion(members)
        }
        // How many of the book's keywords each book has (at most once per keyword).
        var keywordCounts: [Int32: Int] = [:]
        for keyword in Set(book.keywords) {
            guard let members = members(of: keyword, in: .keyword) else { return Array(products.indices) }
            for member in members { keywordCounts[member, default: 0] += 1 }
        }
        var inCategory = Set<Int32>()
        for category in Set(book.categories) {
            inCategory.formUnion(self.index.categoryMembers[SearchQuery.fold(category)] ?? [])
        }
        for (member, count) in keywordCounts where count >= 3 || inCategory.contains(member) { found.insert(member) }
        found.remove(Int32(index))
        return found.map(Int.init).sorted()
    }

    /// The books whose `field` holds every word of `text`; nil when `text` has no words to look for.
    private func members(of text: String, in field: SearchIndex.Field) -> [Int32]? {
        let words = SearchQuery.fold(text).split(separator: " ")
        guard !words.isEmpty else { return nil }
        var result: [Int32]?
        for word in words {
            let list = self.index.wordID(word).map { self.index.postings[field.rawValue][Int($0)] } ?? []
            result = result.map { SearchIndex.intersect($0, list) } ?? list
        }
        return result
    }
}
