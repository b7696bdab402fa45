import Catalog

/// What the front matter and the package document say about a book, taken from its product.
struct BookFacts: Sendable {
    var productID: String
    var seed: UInt64
    var title: String
    var originalTitle: String?
    var authors: [Contributor]
    var translators: [Contributor]
    var illustrators: [Contributor]
    /// The book's language as the catalogue gives it (`sv`, `en`, `de`, …).
    var language: String
    /// The language its text is written in: `sv` or `en`.
    var textLanguage: Story.Language
    var publisher: String?
    var published: DayDate?
    var description: String?
    var categories: [String]
    var series: Product.Series?
    var isbn: String?

    init(product: Product, seed: UInt64) {
        productID = product.id
        self.seed = seed
        title = product.title
        originalTitle = product.originalTitle
        authors = product.authors
        translators = product.translators
        illustrators = product.contributors.filter { $0.role == .illustrator }
        language = product.language ?? "sv"
        textLanguage = language == "en" ? .english : .swedish
        publisher = product.publisher
        published = product.publishedDate
        description = product.description
        categories = product.categories
        series = product.series
        isbn = product.isbns.first { ISBN.isValid($0) }
    }

    /// The BCP 47 tag of the text's language.
    var textLanguageTag: String { textLanguage == .english ? "en" : "sv" }

    /// The unique identifier: `urn:isbn:` from the ISBN, else a UUID derived from id and seed.
    var identifier: String {
        if let isbn { return "urn:isbn:\(isbn)" }
        var rng = SplitMix64.stream(seed, fnv1a(productID))
        let high = rng.next()
        let low = rng.next()
        // Version 4 and RFC 4122 variant bits, so validators see a well-formed UUID.
        let a = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let b = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = hex16(a) + hex16(b)
        let chars = Array(hex)
        func part(_ from: Int, _ to: Int) -> String { String(chars[from..<to]) }
        return "urn:uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }

    /// Authors' names joined as a reader says them: `A, B och C` / `A, B and C`.
    var authorLine: String {
        Self.joined(authors.map(\.fullName), textLanguage)
    }

    static func joined(_ names: [String], _ language: Story.Language) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        let and = language == .english ? " and " : " och "
        return names.dropLast().joined(separator: ", ") + and + names[names.count - 1]
    }
}

/// The 64-bit FNV-1a hash of a string's UTF-8 bytes: a stable salt from a product id
/// (`Hasher` is seeded per process, so it would change the books from run to run).
func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return hash
}

/// Sixteen lower-case hex digits.
func hex16(_ value: UInt64) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8](repeating: 0, count: 16)
    for i in 0..<16 { out[i] = digits[Int((value >> UInt64(60 - 4 * i)) & 0xF)] }
    return String(decoding: out, as: UTF8.self)
}
