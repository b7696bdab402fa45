import Catalog
import Foundation

@testable import MockLending

/// Shared fixtures: the default catalogue is generated once for all tests that only read it.
enum Fixtures {
    static let catalog = CatalogGenerator(seed: 1, size: 600).generate()
    static let search = CatalogSearch(products: catalog.products, collation: Collation(.swedish))
    /// A fixed clock (mid-month, so "this month" holds loans on several days).
    static let clock = DayDate(year: 2026, month: 11, day: 18).startDate(in: MockRules.stockholm).addingTimeInterval(
        10 * 3_600)
    static let state = LibraryState.seeded(catalog, clock: clock)

    /// Indices of the products in popularity order, as `sort=popularity` lists them.
    static var byPopularity: [Int] {
        let ordered = ProductOrdering(collation: Collation(.swedish)).sorted(
            Array(catalog.products), by: SortSpec(.popularity))
        let indexByID = Dictionary(uniqueKeysWithValues: catalog.products.enumerated().map { ($1.id, $0) })
        return ordered.map { indexByID[$0.id]! }
    }

    static func isAringThriller(_ product: Product) -> Bool {
        product.categories.contains("Thriller") && (product.authors.first?.lastName.hasPrefix("Å") ?? false)
    }
}
