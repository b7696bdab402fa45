import Catalog
import Foundation
import Synchronization

/// The simulated library behind the server: the immutable catalogue with its search index, and
/// the mutable state behind one lock.
///
/// Routes call this and never touch the state directly, so every rule of the library (what is
/// available, who may borrow) lives here and in `LibraryState`, testable without HTTP. Every
/// access first moves the virtual clock to now, so loans run out and reservations come due
/// whenever a request arrives, whether or not anyone moved the clock.
final class MockLibrary: Sendable {
    let catalog: GeneratedCatalog
    let search: CatalogSearch
    let configuration: MockConfiguration
    /// Generated EPUBs, kept for the next download.
    let books = BookCache(capacity: 32)
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
        self.state = Mutex(Self.seed(catalog, clock: clock, rules: configuration.rules))
    }

    private static func seed(_ catalog: GeneratedCatalog, clock: Date, rules: MockRules) -> LibraryState {
        var state = LibraryState.seeded(catalog, clock: clock, rules: rules)
        state.clockOffset = clock.timeIntervalSince(Date())
        return state
    }

    /// The catalogue index of a product id.
    func index(of id: String) -> Int? { indexByID[id] }

    /// Lets a running clock catch up with real time; a stopped clock stays where it was put.
    private func tick(_ state: inout LibraryState) {
        guard configuration.clockRuns else { return }
        state.moveClock(to: Date().addingTimeInterval(state.clockOffset))
    }

    /// Reads the state under the lock, after moving the clock to now.
    func read<T: Sendable, E: Error>(_ body: (borrowing LibraryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state) throws(E) -> T in
            tick(&state)
            return try body(state)
        }
    }

    /// Changes the state under the lock, after moving the clock to now; one call is one
    /// consistent change (what `body` changed before throwing stays changed, e.g. a wrong PIN counted).
    func update<T: Sendable, E: Error>(_ body: (inout LibraryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state) throws(E) -> T in
            tick(&state)
            return try body(&state)
        }
    }

    /// Back to the seeded state: loans, queues, clock and faults as at start-up.
    func reset() {
        let fresh = Self.seed(catalog, clock: startClock, rules: configuration.rules)
        state.withLock { $0 = fresh }
    }

    // MARK: Clock

    /// The virtual time now.
    func now() -> Date { read { $0.clock } }

    /// Moves the virtual clock by `seconds` (back when negative), processing the days passed.
    func advanceClock(by seconds: TimeInterval) {
        update { state in
            state.clockOffset += seconds
            state.moveClock(to: state.clock.addingTimeInterval(seconds))
        }
    }

    /// Sets the virtual clock to `date`, processing the days passed; from there it runs on.
    func setClock(_ date: Date) {
        update { state in
            state.clockOffset = date.timeIntervalSince(Date())
            state.moveClock(to: date)
        }
    }

    // MARK: Catalogue

    /// A page of search results, each product with its availability for `options.card`.
    func searchPage(_ options: SearchOptions) -> (products: [Product], total: Int) {
        // Copying the state out is O(1) (its arrays are copy-on-write), so the search itself runs
        // without holding the lock.
        let snapshot = read { copy $0 }
        let limited = snapshot.hasReachedLimit(card: options.card)
        let page = search.search(options) { snapshot.availability($0, card: options.card, borrowerLimited: limited).available }
        let products = page.indices.map { index in
            var product = catalog.products[index]
            product.availability = snapshot.withEstimate(snapshot.availability(index, card: options.card, borrowerLimited: limited), index)
            return product
        }
        return (products, page.total)
    }

    /// The library page on the clock's day.
    func libraryPage() -> LibraryPage {
        read { state in
            LibraryProfile.page(today: state.today, now: state.clock, payPerLoanSpent: state.payPerLoanUsed >= state.payPerLoanBudget,
                                rules: state.rules)
        }
    }
}
