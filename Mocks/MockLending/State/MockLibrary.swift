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
    /// Encoded products, for search pages and product pages.
    let productJSONs = ProductJSONCache(capacity: 4_096)
    private let state: Mutex<Held>
    /// Where the clock started, to reset to.
    private let startClock: Date

    /// Where the state lives.
    private enum Sharing: Sendable {
        /// In memory only, by design (`bok mock-server`, scenario runs, tests), or since the
        /// server stopped and closed the file.
        case memory
        /// In the file every `bok --mock` of the user shares.
        case shared(SharedState)
        /// In this process only: the file could not be used, and `mock reset` rebuilds it.
        case privately(SharedStateProblem)
    }

    /// The state, the shared generation it reflects (-1: not loaded from the file yet), and where it lives.
    private struct Held: Sendable {
        var state: LibraryState
        var generation: Int64 = -1
        var sharing = Sharing.memory
    }

    /// Whether the catalogue's index was read from the index cache.
    let indexFromCache: Bool
    /// Done once a newly built index is in the cache (or failed to be written).
    let indexCacheWritten = DispatchGroup()

    init(configuration: MockConfiguration) {
        let generator = CatalogGenerator(seed: configuration.seed, size: configuration.catalogSize)
        let collation = Collation(locale: MockLibraryPage.locale)
        let catalog: GeneratedCatalog
        if let directory = configuration.indexCacheDirectory, generator.size >= configuration.indexCacheMinimumSize {
            (catalog, indexFromCache) = IndexCache.catalog(generator, collation: collation, directory: directory)
            if !indexFromCache {
                // Written while the server answers; `MockLendingServer.stop()` waits for it.
                DispatchQueue.global(qos: .utility).async(group: indexCacheWritten) {
                    // A cache that cannot be written (a read-only home, a full disk) only costs the next start time.
                    try? IndexCache.write(catalog, collation: collation, directory: directory)
                }
            }
        } else {
            catalog = generator.generate(indexingIn: collation)
            indexFromCache = false
        }
        self.catalog = catalog
        self.configuration = configuration
        // Generated with a collation, so the search is there.
        self.search = catalog.search!
        let clock = configuration.clockStart ?? Date()
        self.startClock = clock
        self.state = Mutex(Held(state: Self.seed(catalog, clock: clock, rules: configuration.rules)))
        guard let file = configuration.stateFile else { return }
        state.withLock { held in
            do throws(SharedStateProblem) {
                held.sharing = .shared(try SharedState(file: file))
            } catch {
                goPrivate(&held, error)
                return
            }
            // Read now, so that a file that cannot be read is told at start, not at a patron's borrow.
            refresh(&held)
        }
    }

    private static func seed(_ catalog: GeneratedCatalog, clock: Date, rules: MockRules) -> LibraryState {
        var state = LibraryState.seeded(catalog, clock: clock, rules: rules)
        state.clockOffset = clock.timeIntervalSince(Date())
        return state
    }

    /// The catalogue index of a product id.
    func index(of id: String) -> Int? { CatalogGenerator.index(ofProductID: id, size: catalog.products.count) }

    /// Lets a running clock catch up with real time; a stopped clock stays where it was put.
    private func tick(_ state: inout LibraryState) {
        guard configuration.clockRuns else { return }
        state.moveClock(to: Date().addingTimeInterval(state.clockOffset))
    }

    /// Takes what another process stored since this one last looked; a file that can no longer
    /// be read leaves this process on what it holds.
    private func refresh(_ held: inout Held) {
        guard case .shared(let shared) = held.sharing else { return }
        do throws(SharedStateProblem) {
            try shared.checkStillThere()
            let generation = try shared.generation()
            guard generation != held.generation, let stored = try shared.load() else { return }
            guard held.state.restore(stored.state) else { throw SharedStateProblem.undecodable(shared.file) }
            held.generation = stored.generation
        } catch {
            goPrivate(&held, error)
        }
    }

    /// Leaves the shared file for the rest of this process, lending on from what it holds, and
    /// tells ``MockConfiguration/onPrivateState``. Its new ids carry a tag of their own, so none
    /// names a loan the shared library made or will make.
    private func goPrivate(_ held: inout Held, _ problem: SharedStateProblem) {
        held.sharing = .privately(problem)
        held.state.idSuffix = "-" + String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 36)
        configuration.onPrivateState?(problem)
    }

    /// Why the state is not the one shared with the user's other processes: nil when it is (or is
    /// in memory by design).
    var sharedStateProblem: SharedStateProblem? {
        state.withLock { held in
            if case .privately(let problem) = held.sharing { return problem }
            return nil
        }
    }

    /// `Shared`, `Private` or nil (in memory by design), for `GET /mock/state`.
    var sharing: String? {
        state.withLock { held in
            switch held.sharing {
            case .memory: nil
            case .shared: "Shared"
            case .privately: "Private"
            }
        }
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
    /// and stored, so no other process's change is lost. When the file fails, the change is made
    /// again from the state before it, privately (so a loan made then carries a private id).
    func update<T: Sendable, E: Error>(_ body: (inout LibraryState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (held) throws(E) -> T in
            var outcome: Result<T, E>?
            if case .shared(let shared) = held.sharing {
                var before: LibraryState?
                do throws(SharedStateProblem) {
                    try shared.checkStillThere()
                    let (_, generation) = try shared.exchange { stored throws(SharedStateProblem) -> (Void, Data) in
                        if let stored, stored.generation != held.generation {
                            guard held.state.restore(stored.state) else {
                                throw SharedStateProblem.undecodable(shared.file)
                            }
                            held.generation = stored.generation
                        }
                        before = held.state
                        tick(&held.state)
                        outcome = Result { () throws(E) -> T in try body(&held.state) }
                        return ((), held.state.persisted())
                    }
                    held.generation = generation
                } catch {
                    if let before { held.state = before }
                    outcome = nil
                    goPrivate(&held, error)
                }
            }
            if let outcome { return try outcome.get() }
            tick(&held.state)
            return try body(&held.state)
        }
    }

    /// Changes what stays with this process (faults and their dice), without the shared file.
    func updateLocal<T: Sendable>(_ body: (inout LibraryState) -> T) -> T {
        state.withLock { held in body(&held.state) }
    }

    /// Closes the shared file (see ``SharedState/close()``) when the server stops: what this
    /// process changed is in the file alone when the next `bok --mock` opens it. The state stays
    /// in memory for anything asked afterwards.
    func close() {
        state.withLock { held in
            guard case .shared(let shared) = held.sharing else { return }
            held.sharing = .memory
            shared.close()
        }
    }

    /// What ``reset()`` did with the shared file.
    enum ResetOutcome: Sendable, Equatable {
        /// No file: the state is in memory by design.
        case memory
        /// The shared state is back at the seed, for every process.
        case shared
        /// This process lent privately, and shares the file (back at the seed) again: it could be
        /// used after all (another process had rebuilt it, or a lock was released).
        case rejoined
        /// The file could not be used; it was removed and made anew, at the seed.
        case rebuilt
        /// It could not be rebuilt: this process is at the seed, privately.
        case notRebuilt(SharedStateProblem)
    }

    /// Back to the seed: loans, queues, clock and faults as at start-up. A state file that cannot
    /// be used is rebuilt: removed with its `-wal` and `-shm` and made anew (not one another
    /// process holds locked: that is no damage).
    @discardableResult
    func reset() -> ResetOutcome {
        let fresh = Self.seed(catalog, clock: startClock, rules: configuration.rules)
        return state.withLock { held in
            held.state = fresh
            held.generation = -1
            var problem: SharedStateProblem
            switch held.sharing {
            case .memory:
                return .memory
            case .shared(let shared):
                do throws(SharedStateProblem) {
                    try shared.checkStillThere()
                    held.generation = try shared.exchange { _ in ((), fresh.persisted()) }.1
                    return .shared
                } catch {
                    shared.close()
                    problem = error
                }
            case .privately(let known):
                problem = known
            }
            // The old connection is closed before anything is opened or removed.
            held.sharing = .privately(problem)
            guard let file = configuration.stateFile else { return .memory }
            do throws(SharedStateProblem) {
                let shared = try SharedState(file: file)
                held.generation = try shared.exchange { _ in ((), fresh.persisted()) }.1
                held.sharing = .shared(shared)
                return .rejoined
            } catch {
                problem = error
            }
            guard problem.kind != .busy else {
                goPrivate(&held, problem)
                return .notRebuilt(problem)
            }
            do throws(SharedStateProblem) {
                let shared = try SharedState.rebuild(file: file)
                held.generation = try shared.exchange { _ in ((), fresh.persisted()) }.1
                held.sharing = .shared(shared)
                return .rebuilt
            } catch {
                goPrivate(&held, error)
                return .notRebuilt(error)
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
        // Only the books the index says can score are generated and scored.
        for other in search.similarCandidates(to: book, at: index) {
            let product = catalog.products[other]
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
        let stop = snapshot.borrowerLimit(card: card)
        return scored.prefix(max(0, limit)).map { entry in
            var product = catalog.products[entry.index]
            product.availability = snapshot.withEstimate(
                snapshot.availability(entry.index, card: card, limit: stop), entry.index)
            return product
        }
    }

    /// A page of search results, each product with its availability for `options.card`.
    func searchPage(_ options: SearchOptions) -> (products: [Product], total: Int) {
        let (page, total) = searchHits(options)
        let products = page.map { hit in
            var product = catalog.products[hit.index]
            product.availability = hit.availability
            return product
        }
        return (products, total)
    }

    /// A page of search results as catalogue indices, each with its availability for `options.card`.
    func searchHits(_ options: SearchOptions) -> (page: [(index: Int, availability: Availability)], total: Int) {
        // Copying the state out is O(1) (its arrays are copy-on-write), so the search itself runs
        // without holding the lock.
        let snapshot = read { copy $0 }
        let limit = snapshot.borrowerLimit(card: options.card)
        func hit(_ index: Int) -> (index: Int, availability: Availability) {
            (index, snapshot.withEstimate(snapshot.availability(index, card: options.card, limit: limit), index))
        }
        // The library's own number for a book finds it, as a catalogue's search by number does.
        if options.offset == 0, let index = index(of: options.text.trimmingCharacters(in: .whitespaces)) {
            return ([hit(index)], 1)
        }
        let page = search.search(options) {
            snapshot.availability($0, card: options.card, limit: limit).available
        }
        return (page.indices.map(hit), page.total)
    }

    /// Product `index` as JSON, without availability, its links made absolute with `origin`:
    /// kept for the next page that shows it (generating and encoding a product was half of a
    /// search's time under load).
    func productJSON(_ index: Int, origin: String) -> Data {
        productJSONs.value(for: ProductJSONCache.Key(index: index, origin: origin)) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            // Our own Codable model: encoding cannot fail.
            return (try? encoder.encode(LibraryRoutes.absolute(catalog.products[index], origin: origin)))
                ?? Data("{}".utf8)
        }
    }

    /// The library page on the clock's day.
    func libraryPage() -> LibraryPage {
        read { state in
            MockLibraryPage.page(
                today: state.today, now: state.clock, payPerLoanSpent: state.payPerLoanUsed >= state.payPerLoanBudget,
                rules: state.rules)
        }
    }
}
