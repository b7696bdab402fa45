public import Catalog

/// A generated catalogue: the products and, for each, its licence as the library bought it and
/// its circulation at the start (copies on loan, patrons waiting).
///
/// The products are not stored: a book is a pure function of (seed, index), generated again
/// whenever a page of results or a product is asked for (`ProductTable`). What is kept is what
/// changes or must be known for every book at once: the licences, the few books the scenario
/// guarantees adjusted, and the search index when the catalogue was generated for a server.
public struct GeneratedCatalog: Sendable {
    /// The seed it was generated from.
    public let seed: UInt64
    /// The products, in generation order, generated when read; `licences[i]` belongs to `products[i]`.
    public let products: ProductTable
    /// The licence of each product, index-aligned with `products`.
    public let licences: [Licence]
    /// The day the catalogue was generated "on": the newest book is published before it.
    public let referenceDay: DayDate
    /// Indices of the most popular products (up to eleven), in the order `sort=popularity` lists them.
    let topByPopularity: [Int]
    /// The search index and sort ranks, when generated with a collation.
    let search: CatalogSearch?

    init(
        seed: UInt64, products: ProductTable, licences: [Licence], referenceDay: DayDate, topByPopularity: [Int],
        search: CatalogSearch?
    ) {
        precondition(products.count == licences.count, "one licence per product")
        self.seed = seed
        self.products = products
        self.licences = licences
        self.referenceDay = referenceDay
        self.topByPopularity = topByPopularity
        self.search = search
    }
}

/// The products of a generated catalogue as a collection: each is generated when read (a few
/// microseconds), so a catalogue of a million titles costs its plans, not its texts.
public struct ProductTable: RandomAccessCollection, Sendable, Equatable {
    let generator: CatalogGenerator
    let plans: [CatalogGenerator.Plan]
    /// What the scenario guarantees changed in a few books, by index.
    let adjusted: [Int: Adjustment]
    /// Indices of the thrillers whose first author's last name starts with Å (`ScenarioGuarantees`).
    let aringThrillers: Set<Int>
    /// Each book's days of being active, so that availability needs no generated book.
    let activeDays: [ActiveDays]

    /// The days a generated book is active: its one `Active` status, as day ordinals.
    struct ActiveDays: Sendable, Equatable {
        var from: Int32
        var until: Int32

        init(from: Int32, until: Int32) {
            self.from = from
            self.until = until
        }

        /// The status of a generated book (which has exactly one, named `Active`).
        init(_ product: borrowing Product) {
            precondition(product.statuses.count == 1 && product.statuses[0].name == "Active")
            from = product.statuses[0].validFrom.map { Int32($0.ordinal) } ?? .min
            until = product.statuses[0].validUntil.map { Int32($0.ordinal) } ?? .max
        }
    }

    /// A change `ScenarioGuarantees` made to a generated book.
    struct Adjustment: Sendable, Equatable {
        var popularity: Int?
        var publishedDate: DayDate?
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { plans.count }

    public subscript(index: Int) -> Product {
        var product = generator.book(index, plan: plans[index], referenceOrdinal: generator.referenceDay.ordinal).0
        if let adjustment = adjusted[index] {
            if let popularity = adjustment.popularity { product.popularity = popularity }
            if let date = adjustment.publishedDate { product.publishedDate = date }
        }
        return product
    }

    /// True for a thriller whose first author's last name starts with Å.
    func isAringThriller(_ index: Int) -> Bool { aringThrillers.contains(index) }

    /// Whether book `index` may be lent on `day` (`Product.isActive(on:)`, without generating it).
    func isActive(_ index: Int, on day: DayDate) -> Bool {
        let ordinal = Int32(day.ordinal)
        return activeDays[index].from <= ordinal && ordinal <= activeDays[index].until
    }

    /// Equal books in the same order (generating both, so for small catalogues).
    public static func == (lhs: ProductTable, rhs: ProductTable) -> Bool { lhs.elementsEqual(rhs) }
}

/// How the library may lend one title, and its circulation when the mock starts.
public struct Licence: Sendable, Hashable, Codable {
    /// The licence model, as `GET libraryproducts/{id}` names it.
    public enum Model: String, Sendable, Hashable, CaseIterable, Codable {
        /// Unlimited simultaneous loans; never runs out.
        case access
        /// A number of copies, each lent to one patron at a time.
        case copies
        /// Pay per loan: any number of loans, each drawing on the library's monthly budget.
        case ppu
    }

    /// The model.
    public var model: Model
    /// Copies the library owns (copies model only; 0 otherwise).
    public var copies: Int
    /// Loans currently counted against the licence.
    public var onLoan: Int
    /// Patrons in the reservation queue.
    public var waiting: Int

    /// Creates a licence.
    public init(model: Model, copies: Int = 0, onLoan: Int = 0, waiting: Int = 0) {
        self.model = model
        self.copies = copies
        self.onLoan = onLoan
        self.waiting = waiting
    }

    /// True when every copy is out (never for `access` or `ppu`).
    public var isExhausted: Bool { model == .copies && onLoan >= copies }
}
