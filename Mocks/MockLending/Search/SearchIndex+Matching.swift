import Catalog

/// Evaluating a parsed query against the index: which products match, and how well.
///
/// Matching rules (documented for testers in `elib-api.md`'s search section):
/// - every term must match (AND); a term matches if it matches any of its fields;
/// - a word matches a word of the field that equals it (after `SearchQuery.fold`);
/// - with a trailing `*` it matches words that start with it (`author:Å*`);
/// - a free word of four letters or more also matches words that start with it, at a lower
///   score (`stjärn` finds "stjärnor"; Swedish compounds make this what patrons expect), while a
///   field term without `*` matches whole words only;
/// - a term of several words (a quoted phrase, or `978-91-…` which folds to several numbers)
///   matches those words consecutively in one text of the field; the last word may be a prefix
///   when the term ends in `*`;
/// - a free term made of digits (possibly with hyphens or spaces) that has at least ten digits
///   is an ISBN.
extension SearchIndex {
    /// Matching products and their relevance scores, in no particular order.
    struct Hits {
        var indices: [Int32]
        var scores: [UInt16]
    }

    /// Free words at least this long also match as prefixes.
    static let implicitPrefixLength = 4

    /// Evaluates `query` (nil: the whole catalogue); `products` is what the index was built from.
    func match(_ query: SearchQuery?, in products: ProductTable) -> Hits {
        guard let query else {
            return Hits(indices: (0..<Int32(count)).map { $0 }, scores: [UInt16](repeating: 0, count: count))
        }
        var scratch = TermScratch(count: count)
        var hits: Hits?
        for term in query.terms {
            scoreTerm(term, products: products, into: &scratch)
            if var current = hits {
                var kept = 0
                for position in current.indices.indices {
                    let index = current.indices[position]
                    let score = scratch.scores[Int(index)]
                    if score > 0 {
                        current.indices[kept] = index
                        // Saturating: a query of hundreds of terms must not wrap around to a low score.
                        current.scores[kept] = UInt16(
                            min(UInt32(UInt16.max), UInt32(current.scores[position]) + UInt32(score)))
                        kept += 1
                    }
                }
                current.indices.removeLast(current.indices.count - kept)
                current.scores.removeLast(current.scores.count - kept)
                hits = current
            } else {
                hits = Hits(indices: scratch.touched, scores: scratch.touched.map { scratch.scores[Int($0)] })
            }
            scratch.reset()
            if hits?.indices.isEmpty ?? false { break }
        }
        return hits ?? Hits(indices: [], scores: [])
    }

    /// Per-term scores, reused between terms; only touched entries are cleared.
    struct TermScratch {
        var scores: [UInt16]
        var touched: [Int32] = []

        init(count: Int) { scores = [UInt16](repeating: 0, count: count) }

        @inline(__always)
        mutating func mark(_ index: Int32, _ weight: UInt16) {
            let i = Int(index)
            let old = scores[i]
            if old == 0 { touched.append(index) }
            if weight > old { scores[i] = weight }
        }

        mutating func reset() {
            for index in touched { scores[Int(index)] = 0 }
            touched.removeAll(keepingCapacity: true)
        }
    }

    private func scoreTerm(_ term: SearchQuery.Term, products: ProductTable, into scratch: inout TermScratch) {
        var fields = Field.searched(by: term.field)
        var value = term.value
        if term.field == nil, value.allSatisfy({ $0.isNumber || $0 == " " }),
            value.filter(\.isNumber).count >= 10
        {
            fields = [.isbn]
            value = value.filter(\.isNumber)
        }
        let words = value.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return }
        if words.count == 1 {
            scoreWord(
                words[0], fields: fields, explicitPrefix: term.isPrefix,
                implicitPrefix: term.field == nil && !term.isPrefix && words[0].count >= Self.implicitPrefixLength,
                into: &scratch)
        } else {
            scorePhrase(words, fields: fields, lastIsPrefix: term.isPrefix, products: products, into: &scratch)
        }
    }

    private func scoreWord(
        _ word: String, fields: [Field], explicitPrefix: Bool, implicitPrefix: Bool,
        into scratch: inout TermScratch
    ) {
        if fields.contains(.isbn) {
            for index in products(withISBN: word, prefix: explicitPrefix) { scratch.mark(index, Field.isbn.weight) }
        }
        let fields = fields.filter { $0 != .isbn }
        let exact = wordID(word)
        if let exact {
            for field in fields {
                for index in postings[field.rawValue][Int(exact)] { scratch.mark(index, field.weight) }
            }
        }
        guard explicitPrefix || implicitPrefix else { return }
        for id in wordIDs(withPrefix: word) where id != exact {
            for field in fields {
                // A prefix hit counts less than a whole word; an asked-for prefix more than a guessed one.
                let weight = explicitPrefix ? field.weight * 4 / 5 : field.weight * 3 / 5
                for index in postings[field.rawValue][Int(id)] { scratch.mark(index, weight) }
            }
        }
    }

    private func scorePhrase(
        _ words: [String], fields: [Field], lastIsPrefix: Bool, products: ProductTable,
        into scratch: inout TermScratch
    ) {
        for field in fields where field != .isbn {
            let lists = postings[field.rawValue]
            // Candidates hold every word of the phrase in this field; then check that they are consecutive.
            var wordLists: [[Int32]] = []
            for (position, word) in words.enumerated() {
                if position == words.count - 1, lastIsPrefix {
                    var list = wordIDs(withPrefix: word).flatMap { lists[Int($0)] }
                    list.sort()
                    wordLists.append(list)
                } else {
                    wordLists.append(wordID(word).map { lists[Int($0)] } ?? [])
                }
            }
            // Smallest first: each intersection is then no longer than the shortest list.
            wordLists.sort { $0.count < $1.count }
            var candidates: [Int32]?
            for list in wordLists {
                candidates = candidates.map { Self.intersect($0, list) } ?? list
                if candidates?.isEmpty ?? true { break }
            }
            for index in candidates ?? [] {
                let texts = Self.texts(field, of: products[Int(index)])
                if texts.contains(where: { Self.containsPhrase($0, words, lastIsPrefix: lastIsPrefix) }) {
                    scratch.mark(index, field.weight)
                }
            }
        }
    }

    /// True when the folded words of `text` contain `words` one after another.
    static func containsPhrase(_ text: String, _ words: [String], lastIsPrefix: Bool) -> Bool {
        let tokens = SearchQuery.fold(text).split(separator: " ")
        guard tokens.count >= words.count else { return false }
        for start in 0...(tokens.count - words.count) {
            var matched = true
            for (offset, word) in words.enumerated() {
                let token = tokens[start + offset]
                let isLast = offset == words.count - 1
                if !(token == word || (isLast && lastIsPrefix && token.hasPrefix(word))) {
                    matched = false
                    break
                }
            }
            if matched { return true }
        }
        return false
    }

    /// The intersection of two sorted lists, without repeats (either may hold duplicates).
    ///
    /// Walks the shorter list and gallops through the longer one (steps of 1, 2, 4, … then a
    /// binary search), so a rare word against a common one costs the rare word's length times
    /// a logarithm, not the common word's length.
    static func intersect(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        var result: [Int32] = []
        var low = 0
        for value in short where result.last != value {
            var bound = low
            var step = 1
            while bound < long.count, long[bound] < value {
                low = bound + 1
                bound = low + step
                step <<= 1
            }
            let end = min(bound, long.count)
            low += firstPosition(end - low) { long[low + $0] >= value }
            if low == long.count { break }
            if long[low] == value { result.append(value) }
        }
        return result
    }
}
