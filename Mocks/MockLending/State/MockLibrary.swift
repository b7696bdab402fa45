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
    private let state: Mutex<Held>
    /// Where the state is shared with other processes (`bok --mock`), or nil (in memory only).
    private let shared: SharedState?
    /// Where the clock started, to reset to.
    private let startClock: Date

    /// The state, and the shared generation it reflects (-1: not loaded from the file yet).
    private struct Held: Sendable {
        var state: LibraryState
        var generation: Int64 = -1
    }

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
        self.state = Mutex(Held(state: Self.seed(catalog, clock: clock, rules: configuration.rules)))
        // A file that cannot be opened leaves this process with a library of its own, as before.
        self.shared = configuration.stateFile.flatMap { try? SharedState(file: $0) }
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

    /// Takes what another process stored since this one last looked.
    private func refresh(_ held: inout Held) {
        guard let shared, let generation = try? shared.generation(), generation != held.generation,
            let stored = try? shared.load()
        else { return }
        if held.state.restore(stored.state) { held.generation = stored.generation }
    }

    /// Reads the state under the lock, after taking other processes' changes and moving the clock to now.
    func read<T: Sendable, E: Error>(_ body: (borrowing LibraryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (held) throws(E) -> T in
            refresh(&held)
            tick(&held.state)
            return try body(held.state)
        }
    }

    /// Changes the state under the lock, after moving the clock to now; one call is one
    /// consistent change (what `body` changed before throwing stays changed, e.g. a wrong PIN counted).
    /// With a shared file it is one transaction there too: the newest stored state is changed
    /// and stored, so no other process's change is lost.
    func update<T: Sendable, E: Error>(_ body: (inout LibraryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (held) throws(E) -> T in
            guard let shared else {
                tick(&held.state)
                return try body(&held.state)
            }
            var outcome: Result<T, E>?
            let exchanged = try? shared.exchange { stored -> (Void, Data) in
                if let stored, stored.generation != held.generation, held.state.restore(stored.state) {
                    held.generation = stored.generation
                }
                tick(&held.state)
                outcome = Result { () throws(E) -> T in try body(&held.state) }
                return ((), held.state.persisted())
            }
            if let (_, generation) = exchanged { held.generation = generation }
            // The file failed (a full disk): the change still happens here, for this process.
            if outcome == nil {
                tick(&held.state)
                outcome = Result { () throws(E) -> T in try body(&held.state) }
            }
            return try outcome!.get()
        }
    }

    /// Changes what stays with this process (faults and their dice), without the shared file.
    func updateLocal<T: Sendable>(_ body: (inout LibraryState) -> T) -> T {
        state.withLock { held in body(&held.state) }
    }

    /// Back to the seeded state: loans, queues, clock and faults as at start-up.
    func reset() {
        let fresh = Self.seed(catalog, clock: startClock, rules: configuration.rules)
        state.withLock { held in
            held.state = fresh
            if let shared, let (_, generation) = try? shared.exchange({ _ in ((), fresh.persisted()) }) {
                held.generation = generation
            }
        }
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

    /// Books like the one at `index`, best first, each with its availability for `card`: the
    /// rest of its series (in series order) first, then the same author, then a shared category
    /// and shared keywords. The book itself is not among them.
    func similar(to index: Int, card: String?, limit: Int) -> [Product] {
        let book = catalog.products[index]
        let authors = Set(book.authors.map(\.fullName))
        let categories = Set(book.categories)
        let keywords = Set(book.keywords)
        var scored: [(score: Int, order: Int, index: Int)] = []
        for (other, product) in catalog.products.enumerated() where other != index {
            var score = 0
            if let series = book.series, product.series?.name == series.name { score += 100 }
            if !authors.isDisjoint(with: product.authors.map(\.fullName)) { score += 20 }
            if !categories.isDisjoint(with: product.categories) { score += 5 }
            score += 2 * keywords.intersection(product.keywords).count
            // A category alone is too weak a likeness: at least a shared keyword or person too.
            guard score > 5 else { continue }
            scored.append((score, product.series?.order ?? Int.max, other))
        }
        scored.sort { ($0.score, -$0.order, -$0.index) > ($1.score, -$1.order, -$1.index) }
        let snapshot = read { copy $0 }
        let limited = snapshot.hasReachedLimit(card: card)
        return scored.prefix(max(0, limit)).map { entry in
            var product = catalog.products[entry.index]
            product.availability = snapshot.withEstimate(
                snapshot.availability(entry.index, card: card, borrowerLimited: limited), entry.index)
            return product
        }
    }

    /// A page of search results, each product with its availability for `options.card`.
    func searchPage(_ options: SearchOptions) -> (products: [Product], total: Int) {
        // Copying the state out is O(1) (its arrays are copy-on-write), so the search itself runs
        // without holding the lock.
        let snapshot = read { copy $0 }
        let limited = snapshot.hasReachedLimit(card: options.card)
        let page = search.search(options) {
            snapshot.availability($0, card: options.card, borrowerLimited: limited).available
        }
        let products = page.indices.map { index in
            var product = catalog.products[index]
            product.availability = snapshot.withEstimate(
                snapshot.availability(index, card: options.card, borrowerLimited: limited), index)
            return product
        }
        return (products, page.total)
    }

    /// The library page on the clock's day.
    func libraryPage() -> LibraryPage {
        read { state in
            LibraryProfile.page(
                today: state.today, now: state.clock, payPerLoanSpent: state.payPerLoanUsed >= state.payPerLoanBudget,
                rules: state.rules)
        }
    }
}
