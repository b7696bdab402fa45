import Catalog

/// Adjusts a generated catalogue so that the shipped usability scenarios hold for every seed.
///
/// Scenarios say things like "borrow the most popular title" or "reserve a title that is out";
/// rather than hoping the dice fall right, the generator nudges a handful of books after the fact.
/// Only popularity, dates and licences change, never text, so blurbs still match their books.
enum ScenarioGuarantees {
    /// The guarantees, in the words the tests check:
    /// - the top ten by popularity have distinct popularity, so "#n by popularity" is one book;
    /// - #1 by popularity is available (copies model, one copy left);
    /// - #2 by popularity is out with patrons waiting (`product`, waiting > 0);
    /// - #3 by popularity is pay-per-loan (the spent budget makes it answer `library`);
    /// - #4 by popularity has a published date;
    /// - at least one Swedish thriller whose first author's last name starts with Å is available
    ///   (the generator plants four such books; see `CatalogGenerator.Plan.aringThriller`).
    ///
    /// - Parameters:
    ///   - popularity: Each generated book's popularity.
    ///   - aringThrillers: The indices of the Å thrillers, ascending.
    ///   - products: The generated books, for the few that can reach the top.
    /// - Returns: The most popular books (up to eleven, in `sort=popularity` order) and what changed in them.
    static func apply(
        popularity generated: [Int], licences: inout [Licence], aringThrillers: [Int], products: ProductTable
    ) -> (top: [Int], adjusted: [Int: ProductTable.Adjustment]) {
        guard !generated.isEmpty else { return ([], [:]) }
        let top = topByPopularity(generated, products, count: 11)
        var adjusted: [Int: ProductTable.Adjustment] = [:]
        var raised: [Int: Int] = [:]
        func raisedPopularity(_ index: Int) -> Int { raised[index] ?? generated[index] }

        // Distinct popularity for the top ten: raise each just above the one after it.
        if top.count >= 2 {
            for rank in stride(from: min(9, top.count - 2), through: 0, by: -1) {
                let next = raisedPopularity(top[rank + 1])
                if raisedPopularity(top[rank]) <= next {
                    raised[top[rank]] = next + 1
                    adjusted[top[rank], default: .init()].popularity = next + 1
                }
            }
        }

        let first = top[0]
        let copies = max(3, licences[first].copies)
        licences[first] = Licence(model: .copies, copies: copies, onLoan: copies - 1, waiting: 0)
        if top.count > 1 {
            let second = top[1]
            let copies = max(2, licences[second].copies)
            licences[second] = Licence(
                model: .copies, copies: copies, onLoan: copies, waiting: max(4, licences[second].waiting))
        }
        if top.count > 2 { licences[top[2]] = Licence(model: .ppu) }
        if top.count > 3, products[top[3]].publishedDate == nil {
            adjusted[top[3], default: .init()].publishedDate = CatalogGenerator.defaultReferenceDay
        }

        // One of the Å thrillers available: the first that is not among the top three.
        let reserved = Set(top.prefix(3))
        if let aring = aringThrillers.first(where: { !reserved.contains($0) }), !isAvailable(licences[aring]) {
            licences[aring] = Licence(model: .access, onLoan: licences[aring].onLoan)
        }
        return (top, adjusted)
    }

    /// True for a thriller whose first author's last name starts with Å.
    static func isAringThriller(_ product: Product) -> Bool {
        product.categories.contains("Thriller") && (product.authors.first?.lastName.hasPrefix("Å") ?? false)
    }

    /// Whether a licence lends now, ignoring the library's pay-per-loan budget (spent at the start).
    static func isAvailable(_ licence: Licence) -> Bool {
        licence.model == .access || (licence.model == .copies && licence.onLoan < licence.copies)
    }

    /// Indices of the `count` most popular products, in the order `sort=popularity` lists them.
    static func topByPopularity(_ popularity: [Int], _ products: ProductTable, count: Int) -> [Int] {
        let ordering = ProductOrdering(collation: Collation(.swedish))
        // Only the candidates that can reach the top are generated, for the full (title, id) tie-break.
        // The count-th largest popularity, kept in a short list rather than sorting them all.
        var largest: [Int] = []
        for value in popularity where count > 0 && (largest.count < count || value > largest[largest.count - 1]) {
            largest.insert(value, at: largest.firstIndex { $0 < value } ?? largest.count)
            if largest.count > count { largest.removeLast() }
        }
        let threshold = largest.last ?? 0
        let candidates = popularity.indices.filter { popularity[$0] >= threshold }
        let sorted = ordering.sorted(candidates.map { products[$0] }, by: SortSpec(.popularity, .descending))
        let indexByID = Dictionary(uniqueKeysWithValues: candidates.map { (products[$0].id, $0) })
        return sorted.prefix(count).compactMap { indexByID[$0.id] }
    }
}
