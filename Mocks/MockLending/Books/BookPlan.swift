import Catalog

/// How long a book is and in how many chapters, from its page count.
///
/// About 1 800 characters a page (1 000 for picture books and poems), capped so that an
/// ordinary book is 5–25 chapters and a few hundred kilobytes. A book of 600 pages or more is
/// novel-length: about 3.5 MB of text in 60 chapters, for testing the reader on big books.
struct BookPlan: Sendable {
    let kind: BookKind
    let chapterCount: Int
    /// UTF-8 bytes of text the whole book aims at.
    let totalText: Int
    let novelLength: Bool

    static let novelPages = 600
    static let novelText = 3_500_000
    static let novelChapters = 60
    static let ordinaryCap = 420_000

    init(product: Product) {
        kind = BookKind(categories: product.categories)
        let pages = max(1, product.pages ?? 200)
        novelLength = pages >= Self.novelPages
        if novelLength {
            totalText = Self.novelText
            chapterCount = Self.novelChapters
        } else {
            totalText = min(pages * kind.charactersPerPage, Self.ordinaryCap)
            chapterCount = min(25, max(5, (totalText + 9_000) / 18_000))
        }
    }

    /// The text of chapter `number`: the book's share, give or take a fifth, so chapters differ in length.
    func target(chapter number: Int, _ rng: inout SplitMix64) -> Int {
        let share = totalText / chapterCount
        return share * rng.int(in: 80...120) / 100
    }
}
