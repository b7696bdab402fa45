import Catalog

/// An inverted index of the catalogue: folded word → the products whose field holds it.
///
/// Built once at start-up; immutable afterwards, so searches read it without a lock. Words are
/// interned to integer ids, and each distinct field text (a title, a name, a publisher) is folded
/// once however many books share it, which keeps building 200 000 books well under a second.
struct SearchIndex: Sendable {
    /// The parts of a product a term can match, each with its weight in relevance.
    enum Field: Int, Sendable, CaseIterable {
        case title, originalTitle, author, otherContributor, category, publisher, keyword, isbn, language

        /// Relevance weight of an exact word match: title hits beat author hits beat category
        /// and keyword hits.
        var weight: UInt16 {
            switch self {
            case .title: 100
            case .isbn: 100
            case .originalTitle: 60
            case .author: 50
            case .otherContributor: 25
            case .publisher: 20
            case .category: 15
            case .keyword: 15
            case .language: 5
            }
        }

        /// The fields a term matches: the one it names, or all the free-text ones.
        ///
        /// `author:` means the authors (what a patron means by it, and what `sort=author` sorts
        /// by); free words also find translators and illustrators. `language:` is only ever a
        /// field term, or `sv` would match every Swedish book.
        static func searched(by field: SearchQuery.Field?) -> [Field] {
            switch field {
            case nil: [.title, .originalTitle, .author, .otherContributor, .category, .publisher, .keyword, .isbn]
            case .title?: [.title, .originalTitle]
            case .author?: [.author]
            case .category?: [.category]
            case .publisher?: [.publisher]
            case .language?: [.language]
            case .isbn?: [.isbn]
            }
        }
    }

    /// Number of products indexed.
    let count: Int
    /// Interned words, by id.
    let words: [String]
    /// Word ids in the alphabetical order of their words, for prefix look-ups.
    let sortedWordIDs: [Int32]
    /// `postings[field][word]`: sorted product indices.
    let postings: [[[Int32]]]
    /// ISBNs (thirteen digits, as numbers) in ascending order, for exact and prefix look-ups, and
    /// the product of each (`isbnProducts[i]` has `isbns[i]`).
    ///
    /// Kept out of the word vocabulary: every ISBN is unique, so as words they would double the
    /// vocabulary and the time to build it without ever sharing a posting list. As numbers they
    /// sort as their digits do (all have thirteen), take 12 bytes a book and are stored as they are.
    let isbns: [UInt64]
    let isbnProducts: [Int32]
    /// Folded category, publisher and language → product indices, for the exact-match filters.
    let categoryMembers: [String: [Int32]]
    let publisherMembers: [String: [Int32]]
    let languageMembers: [String: [Int32]]

    /// Word → id, by the word's bytes (`String` hashing normalises Swedish text first, slowly).
    let wordIDs: [ByteKey: Int32]

    /// Language codes and the names patrons type for them (`language:svenska`).
    static let languageNames: [String: [String]] = [
        "sv": ["svenska", "swedish"], "en": ["engelska", "english"], "da": ["danska", "danish"],
        "nb": ["norska", "norwegian", "no"], "fi": ["finska", "finnish"], "de": ["tyska", "german"],
        "fr": ["franska", "french"], "es": ["spanska", "spanish"],
    ]

    /// The categories' names as the products spell them (for the OPDS navigation feed).
    let categoryNames: Set<String>
    /// Series name → the products in a series of that name (for similar books).
    let seriesMembers: [String: [Int32]]

    /// An index as it was built before (read back from the index cache); the word ids are
    /// looked up again from `words`.
    init(
        count: Int, words: [String], sortedWordIDs: [Int32], postings: [[[Int32]]], isbns: [UInt64],
        isbnProducts: [Int32], members: [[String: [Int32]]], categoryNames: Set<String>
    ) {
        precondition(members.count == 4, "category, publisher, language and series members")
        self.count = count
        self.words = words
        self.sortedWordIDs = sortedWordIDs
        self.postings = postings
        self.isbns = isbns
        self.isbnProducts = isbnProducts
        (categoryMembers, publisherMembers, languageMembers, seriesMembers) = (
            members[0], members[1], members[2], members[3]
        )
        self.categoryNames = categoryNames
        var wordIDs: [ByteKey: Int32] = [:]
        wordIDs.reserveCapacity(words.count)
        for (id, word) in words.enumerated() { wordIDs[ByteKey(word)] = Int32(id) }
        self.wordIDs = wordIDs
    }

    /// The four member maps, in the order the cache keeps them.
    var members: [[String: [Int32]]] { [categoryMembers, publisherMembers, languageMembers, seriesMembers] }

    /// Joins the builders of consecutive chunks of the catalogue, in order, into one index.
    ///
    /// Each chunk has its own word ids; words are renumbered in the order a single pass would
    /// have met them, and a word's posting lists are the chunks' lists one after the other, so
    /// they stay sorted.
    init(count: Int, builders: [Builder]) {
        self.count = count
        var words: [String] = []
        var idOfWord: [ByteKey: Int32] = [:]
        var renumbering: [[Int32]] = []
        for builder in builders {
            var remap: [Int32] = []
            remap.reserveCapacity(builder.words.count)
            for word in builder.words { remap.append(Self.intern(word, &words, &idOfWord).id) }
            renumbering.append(remap)
        }
        var postings = [[[Int32]]](repeating: [[Int32]](repeating: [], count: words.count), count: Field.allCases.count)
        var isbns: [(isbn: UInt64, index: Int32)] = []
        isbns.reserveCapacity(count)
        var categoryMembers: [ByteKey: [Int32]] = [:]
        var publisherMembers: [ByteKey: [Int32]] = [:]
        var languageMembers: [ByteKey: [Int32]] = [:]
        var categoryNames: Set<ByteKey> = []
        var seriesMembers: [ByteKey: [Int32]] = [:]
        // Each list gets its final length at once: appending chunk by chunk would leave up to
        // half of every list's capacity unused, a quarter of the index at a million titles.
        for field in postings.indices {
            var lengths = [Int](repeating: 0, count: words.count)
            for (builder, remap) in zip(builders, renumbering) {
                for (local, list) in builder.postings[field].enumerated() { lengths[Int(remap[local])] += list.count }
            }
            for (id, length) in lengths.enumerated() where length > 0 { postings[field][id].reserveCapacity(length) }
        }
        for (builder, remap) in zip(builders, renumbering) {
            for field in postings.indices {
                for (local, list) in builder.postings[field].enumerated() where !list.isEmpty {
                    postings[field][Int(remap[local])].append(contentsOf: list)
                }
            }
            isbns += builder.isbns
            categoryMembers.merge(builder.categoryMembers, uniquingKeysWith: +)
            publisherMembers.merge(builder.publisherMembers, uniquingKeysWith: +)
            languageMembers.merge(builder.languageMembers, uniquingKeysWith: +)
            categoryNames.formUnion(builder.categoryNames)
            seriesMembers.merge(builder.seriesMembers, uniquingKeysWith: +)
        }
        self.words = words
        wordIDs = idOfWord
        self.postings = postings
        sortedWordIDs = words.indices.sorted { words[$0] < words[$1] }.map { Int32($0) }
        isbns.sort { $0.isbn < $1.isbn }
        self.isbns = isbns.map(\.isbn)
        isbnProducts = isbns.map(\.index)
        func plain(_ members: [ByteKey: [Int32]]) -> [String: [Int32]] {
            Dictionary(members.map { ($0.key.text, $0.value) }, uniquingKeysWith: { ($0 + $1).sorted() })
        }
        self.categoryMembers = plain(categoryMembers)
        self.publisherMembers = plain(publisherMembers)
        self.languageMembers = plain(languageMembers)
        self.categoryNames = Set(categoryNames.map(\.text))
        self.seriesMembers = plain(seriesMembers)
    }

    /// The id of `word` in `words`, which it joins if it is new.
    static func intern(
        _ word: String, _ words: inout [String], _ idOfWord: inout [ByteKey: Int32]
    ) -> (
        id: Int32, isNew: Bool
    ) {
        if let id = idOfWord[ByteKey(word)] { return (id, false) }
        let id = Int32(words.count)
        words.append(word)
        idOfWord[ByteKey(word)] = id
        return (id, true)
    }

    /// The id of a folded word, if any product has it.
    func wordID(_ word: some StringProtocol) -> Int32? { wordIDs[ByteKey(String(word))] }

    /// Ids of the words that start with `prefix` (folded), found by binary search in the sorted vocabulary.
    func wordIDs(withPrefix prefix: String) -> ArraySlice<Int32> {
        sortedWordIDs[Self.range(sortedWordIDs.count, startingWith: prefix) { words[Int(sortedWordIDs[$0])] }]
    }

    /// Products whose ISBN is `digits`, or starts with it when `prefix`: the numbers from
    /// `digits` followed by zeros to `digits` followed by nines, found by two binary searches.
    func products(withISBN digits: String, prefix: Bool) -> ArraySlice<Int32> {
        let length = digits.utf8.count
        guard length > 0, length <= 13, prefix || length == 13,
            digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = UInt64(digits)
        else { return [] }
        var scale: UInt64 = 1
        for _ in length..<13 { scale *= 10 }
        let low = number * scale
        let high = low + scale
        let start = Self.firstPosition(isbns.count) { isbns[$0] >= low }
        let end = start + Self.firstPosition(isbns.count - start) { isbns[start + $0] >= high }
        return isbnProducts[start..<end]
    }

    /// The positions of a sorted list of `count` texts that start with `prefix`: one range,
    /// found by two binary searches (a prefix like `978` may hold every ISBN of the catalogue).
    static func range(_ count: Int, startingWith prefix: String, _ text: (Int) -> String) -> Range<Int> {
        let start = firstPosition(count) { text($0) >= prefix }
        let end = start + firstPosition(count - start) { !text(start + $0).hasPrefix(prefix) }
        return start..<end
    }

    /// The first of `0..<count` where `isPast` holds (it holds for every position after it too).
    static func firstPosition(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if isPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The texts of `field` of a product, for checking that a phrase's words are consecutive.
    static func texts(_ field: Field, of product: Product) -> [String] {
        switch field {
        case .title: [product.title]
        case .originalTitle: product.originalTitle.map { [$0] } ?? []
        case .author: authors(of: product).map(\.fullName)
        case .otherContributor: otherContributors(of: product).map(\.fullName)
        case .category: product.categories
        case .publisher: product.publisher.map { [$0] } ?? []
        case .keyword: product.keywords
        case .isbn: product.isbns.map(digitsOnly)
        case .language: product.language.map { [$0] + (languageNames[$0] ?? []) } ?? []
        }
    }

    /// The digits of an ISBN (`978-91-…` → `97891…`); fast when it is digits already.
    static func digitsOnly(_ isbn: String) -> String {
        isbn.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? isbn : isbn.filter(\.isNumber)
    }

    /// The people `author:` means: the authors, or whoever is listed when nobody is an author.
    static func authors(of product: Product) -> [Contributor] {
        let authors = product.authors
        return authors.isEmpty ? Array(product.contributors.prefix(1)) : authors
    }

    static func otherContributors(of product: Product) -> [Contributor] {
        let authors = Set(Self.authors(of: product))
        return product.contributors.filter { !authors.contains($0) }
    }

    /// Accumulates postings; folds each distinct text once.
    struct Builder: Sendable {
        var words: [String] = []
        /// `postings[field][word]`: sorted product indices, made from `pairs` by `finish()`.
        var postings: [[[Int32]]] = Array(repeating: [], count: Field.allCases.count)
        /// Each posting as it is made: the field in the top 4 bits, the word's id in the next 28,
        /// the product's index in the low half. Appending to one array reads no posting list
        /// (each list's header and last element were a cache miss a posting at a million
        /// titles); `finish()` sorts them into lists by counting.
        private var pairs: [UInt64] = []
        /// The (field, word) of the book being added, as `pairs` has them in its high half: a
        /// word twice in one field ("Huset vid huset") is posted once.
        private var posted: [UInt32] = []
        /// A text's word as written (its bytes) → where the ids of its folded words are in
        /// `foldedIDs` (start << 8 | count): one flat array rather than an array per word, which
        /// cost a retain and a release per word posted (a tenth of building the index).
        var foldedWords = ByteTable(capacity: 8_192)
        var foldedIDs: [Int32] = []
        /// The ids of the text being posted (kept to save an allocation per text).
        private var scratch: [Int32] = []
        var isbns: [(isbn: UInt64, index: Int32)] = []
        var categories = Members(folding: true)
        var publishers = Members(folding: true)
        var languages = Members(folding: true)
        var series = Members(folding: false)
        var categoryMembers: [ByteKey: [Int32]] { categories.lists }
        var publisherMembers: [ByteKey: [Int32]] { publishers.lists }
        var languageMembers: [ByteKey: [Int32]] { languages.lists }
        var seriesMembers: [ByteKey: [Int32]] { series.lists }
        var categoryNames: Set<ByteKey> { Set(categories.texts.map(ByteKey.init)) }
        /// The ids of `words`, by their bytes (the index's own `wordIDs` is made when chunks are joined).
        var idOfWord: [ByteKey: Int32] = [:]

        /// The word ids of a text, folded and split.
        ///
        /// Folding maps each character on its own and a space to a space, so the text's words
        /// can be folded one by one; each distinct word is folded once (titles seldom repeat,
        /// their words always do).
        mutating func ids(_ text: String) -> [Int32] {
            collectIDs(of: text)
            return scratch
        }

        /// Puts the ids of the words of `text` in `scratch`, in order: the words are the bytes
        /// between spaces, looked up where they are (a `String` is made only for a new word).
        private mutating func collectIDs(of text: String) {
            scratch.removeAll(keepingCapacity: true)
            text.withBytes { bytes in
                var start = 0
                for position in 0...bytes.count where position == bytes.count || bytes[position] == UInt8(ascii: " ") {
                    if start < position { appendIDs(ofWord: UnsafeRawBufferPointer(rebasing: bytes[start..<position])) }
                    start = position + 1
                }
            }
        }

        /// Appends the ids of the folded words of one word as written to `scratch` (memoised).
        private mutating func appendIDs(ofWord raw: UnsafeRawBufferPointer) {
            let probe = foldedWords.probe(raw)
            if let known = probe.value {
                let start = known >> 8
                for position in start..<start + (known & 0xFF) { scratch.append(foldedIDs[position]) }
                return
            }
            let start = foldedIDs.count
            for word in SearchQuery.fold(String(decoding: raw, as: UTF8.self)).split(separator: " ") {
                foldedIDs.append(SearchIndex.intern(String(word), &words, &idOfWord).id)
            }
            precondition(foldedIDs.count - start < 0x100, "a word folds to fewer than 256 words")
            foldedWords.insert(raw, start << 8 | (foldedIDs.count - start), at: probe)
            scratch += foldedIDs[start...]
        }

        /// Drops what is only needed while adding books (the memos), before the chunks are joined.
        mutating func finish() {
            // Counting sort by (field, word); each list's indices stay in the order they were added.
            let lists = Field.allCases.count * words.count
            func list(_ pair: UInt64) -> Int { Int(pair >> 60) * words.count + Int((pair >> 32) & 0x0FFF_FFFF) }
            var starts = [Int](repeating: 0, count: lists + 1)
            for pair in pairs { starts[list(pair) + 1] += 1 }
            for list in 0..<lists { starts[list + 1] += starts[list] }
            var next = starts
            let sorted = [Int32](unsafeUninitializedCapacity: pairs.count) { sorted, initialized in
                for pair in pairs {
                    let list = list(pair)
                    sorted[next[list]] = Int32(truncatingIfNeeded: pair)
                    next[list] += 1
                }
                initialized = pairs.count
            }
            for field in postings.indices {
                let first = field * words.count
                postings[field] = words.indices.map { Array(sorted[starts[first + $0]..<starts[first + $0 + 1]]) }
            }
            pairs = []
            posted = []
            foldedWords = ByteTable(capacity: 0)
            foldedIDs = []
            idOfWord = [:]
            scratch = []
        }

        /// Word ids of a language: its code and its names (`sv`, `svenska`, `swedish`), memoised.
        var languageIDs: [String: [Int32]] = [:]

        mutating func post(_ field: Field, _ text: String, _ index: Int32) {
            collectIDs(of: text)
            post(field, ids: scratch, index)
        }

        private mutating func post(_ field: Field, ids: [Int32], _ index: Int32) {
            precondition(words.count <= 0x1000_0000, "a chunk has fewer than 2^28 words")
            for id in ids {
                let key = UInt32(field.rawValue) << 28 | UInt32(id)
                if posted.contains(key) { continue }
                posted.append(key)
                pairs.append(UInt64(key) << 32 | UInt64(UInt32(bitPattern: index)))
            }
        }

        mutating func add(_ index: Int32, _ product: borrowing Product) {
            posted.removeAll(keepingCapacity: true)
            post(.title, product.title, index)
            if let original = product.originalTitle { post(.originalTitle, original, index) }
            // `authors(of:)`, without making the list: the authors, or the first contributor.
            let hasAuthor = product.contributors.contains { $0.role == .author }
            for (position, person) in product.contributors.enumerated() {
                let field: Field = (hasAuthor ? person.role == .author : position == 0) ? .author : .otherContributor
                post(field, person.firstName, index)
                post(field, person.lastName, index)
            }
            for category in product.categories {
                post(.category, category, index)
                categories.add(category, index)
            }
            if let publisher = product.publisher {
                post(.publisher, publisher, index)
                publishers.add(publisher, index)
            }
            for keyword in product.keywords { post(.keyword, keyword, index) }
            if let series = product.series { self.series.add(series.name, index) }
            for isbn in product.isbns {
                // Generated ISBNs are thirteen digits; anything else could not be found as one.
                guard let number = UInt64(SearchIndex.digitsOnly(isbn)), number >= 1_000_000_000_000,
                    number < 10_000_000_000_000
                else { preconditionFailure("a generated ISBN is thirteen digits") }
                isbns.append((number, index))
            }
            if let language = product.language {
                let ids =
                    languageIDs[language]
                    ?? {
                        let ids = ([language] + (SearchIndex.languageNames[language] ?? [])).flatMap { self.ids($0) }
                        languageIDs[language] = ids
                        return ids
                    }()
                post(.language, ids: ids, index)
                languages.add(language, index)
            }
        }
    }

    /// Products by a filter's value: each text as written is looked up by its bytes and folded
    /// once (there are few categories, publishers, languages), its products kept in book order.
    struct Members: Sendable {
        /// Whether the key is the text folded (category, publisher, language) or as written (series).
        let folding: Bool
        private var slotOfText = ByteTable(capacity: 64)
        private var slotOfKey: [ByteKey: Int] = [:]
        private var keys: [ByteKey] = []
        private var members: [[Int32]] = []
        /// Every text as written, once.
        private(set) var texts: [String] = []

        init(folding: Bool) { self.folding = folding }

        /// The products of each key.
        var lists: [ByteKey: [Int32]] { Dictionary(uniqueKeysWithValues: zip(keys, members)) }

        mutating func add(_ text: String, _ index: Int32) {
            let slot = text.withBytes { raw in
                let probe = slotOfText.probe(raw)
                if let slot = probe.value { return slot }
                let written = String(decoding: raw, as: UTF8.self)
                texts.append(written)
                let key = ByteKey(folding ? SearchQuery.fold(written) : written)
                let slot =
                    slotOfKey[key]
                    ?? {
                        keys.append(key)
                        members.append([])
                        slotOfKey[key] = keys.count - 1
                        return keys.count - 1
                    }()
                slotOfText.insert(raw, slot, at: probe)
                return slot
            }
            members[slot].append(index)
        }
    }
}
