public import Catalog

/// A generated catalogue: the products and, for each, its licence as the library bought it and
/// its circulation at the start (copies on loan, patrons waiting).
public struct GeneratedCatalog: Sendable {
    /// The seed it was generated from.
    public let seed: UInt64
    /// The products, in generation order; `licences[i]` belongs to `products[i]`.
    public let products: [Product]
    /// The licence of each product, index-aligned with `products`.
    public let licences: [Licence]
    /// The day the catalogue was generated "on": the newest book is published before it.
    public let referenceDay: DayDate

    /// Creates a catalogue.
    public init(seed: UInt64, products: [Product], licences: [Licence], referenceDay: DayDate) {
        precondition(products.count == licences.count, "one licence per product")
        self.seed = seed
        self.products = products
        self.licences = licences
        self.referenceDay = referenceDay
    }
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
