import Catalog
import Foundation
import Synchronization

/// The simulated library behind the server: the immutable catalogue with its search index, and
/// the mutable state behind one lock.
///
/// Routes call this and never touch the state directly, so every rule of the library (what is
/// available, who may borrow) lives here and in `LibraryState`, testable without HTTP.
final class MockLibrary: Sendable {
    let catalog: GeneratedCatalog
    let search: CatalogSearch
    let configuration: MockConfiguration
    private let indexByID: [String: Int]
    private let state: Mutex<LibraryState>
    /// Where the clock started, to reset to.
    private let startClock: Date

    init(configuration: MockConfiguration) {
        let catalog = CatalogGenerator(seed: configuration.seed, size: configuration.catalogSize).generate()
        self.catalog = catalog
        self.configuration = configuration
        self.search = CatalogSearch(products: catalog.products, collation: Collation(locale: LibraryProfile.locale))
        var indexByID: [String: Int] = [:]
        indexByID.reserveCapacity(catalog.products.count)
        for (index, product) in catalog.products.enumerated() { indexByID[product.id] = index }
        self.indexByID = indexByID
        let clock = configuration.clockStart ?? Date()
        self.startClock = clock
        self.state = Mutex(LibraryState.seeded(catalog, clock: clock))
    }

    /// The catalogue index of a product id.
    func index(of id: String) -> Int? { indexByID[id] }

    /// Reads the state under the lock.
    func read<T: Sendable>(_ body: (borrowing LibraryState) -> T) -> T {
        state.withLock { body($0) }
    }

    /// Changes the state under the lock.
    func update<T: Sendable>(_ body: (inout LibraryState) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// Back to the seeded state: loans, queues, clock and faults as at start-up.
    func reset() {
        let fresh = LibraryState.seeded(catalog, clock: startClock)
        state.withLock { $0 = fresh }
    }

    /// A page of search results, each product with its availability for `options.card`.
    func searchPage(_ options: SearchOptions) -> (products: [Product], total: Int) {
        // Copying the state out is O(1) (its arrays are copy-on-write), so the search itself runs
        // without holding the lock.
        let snapshot = state.withLock { $0 }
        let limited = snapshot.hasReachedLimit(card: options.card)
        let page = search.search(options) { snapshot.availability($0, card: nil, borrowerLimited: limited).available }
        let products = page.indices.map { index in
            var product = catalog.products[index]
            product.availability = snapshot.availability(index, card: nil, borrowerLimited: limited)
            return product
        }
        return (products, page.total)
    }

    /// The library page on the clock's day.
    func libraryPage() -> LibraryPage {
        state.withLock { state in
            LibraryProfile.page(today: DayDate(state.clock, in: LibraryState.timeZone),
                                payPerLoanSpent: state.payPerLoanUsed >= state.payPerLoanBudget)
        }
    }
}
