import Localization

/// Narrows a search to part of the catalogue.
public struct SearchFilters: Sendable, Hashable, Codable {
    /// Only titles in this category.
    public var category: String?
    /// Only titles in this language (ISO 639-1).
    public var language: String?
    /// Only titles from this publisher.
    public var publisher: String?
    /// Only titles that can be borrowed now.
    public var availableOnly: Bool

    /// Creates filters; none by default.
    public init(category: String? = nil, language: String? = nil, publisher: String? = nil, availableOnly: Bool = false)
    {
        self.category = category
        self.language = language
        self.publisher = publisher
        self.availableOnly = availableOnly
    }

    /// True when nothing is filtered.
    public var isEmpty: Bool { category == nil && language == nil && publisher == nil && !availableOnly }
}

/// One search, as sent to the lending service.
public struct SearchRequest: Sendable, Hashable {
    /// The query text (`SearchQuery` syntax); empty lists the whole catalogue (for top and new lists).
    public var query: String
    /// The order.
    public var sort: SortSpec
    /// Hits to skip.
    public var offset: Int
    /// Hits to return.
    public var limit: Int
    /// Filters.
    public var filters: SearchFilters
    /// The patron's card, so availability can say `borrower` when they are at their limit.
    public var card: String?

    /// Creates a request.
    public init(
        query: String, sort: SortSpec = SortSpec(.relevance), offset: Int = 0, limit: Int = 20,
        filters: SearchFilters = SearchFilters(), card: String? = nil
    ) {
        self.query = query
        self.sort = sort
        self.offset = offset
        self.limit = limit
        self.filters = filters
        self.card = card
    }
}

/// One page of search hits.
public struct SearchPage: Sendable, Hashable {
    /// The hits on this page, each with its availability when it could be learnt.
    public var products: [Product]
    /// Hits on all pages.
    public var total: Int
    /// Position of the first hit on this page in the whole list.
    public var offset: Int

    /// Creates a page.
    public init(products: [Product], total: Int, offset: Int) {
        self.products = products
        self.total = total
        self.offset = offset
    }
}

/// A library's lending service: the calls of `elib-api.md`.
///
/// `HTTPLendingService` speaks to a real server (or the mock on loopback); tests may supply other
/// implementations. Every method throws `LendingError`.
public protocol LendingService: Sendable {
    /// Searches the catalogue; every returned product carries its availability where it could be learnt.
    func search(_ request: SearchRequest) async throws -> SearchPage
    /// One product by id.
    func product(id: String) async throws -> Product
    /// Whether a product can be borrowed now, by `card` when given.
    func availability(productID: String, card: String?) async throws -> Availability
    /// The library's page.
    func library() async throws -> LibraryPage
    /// Books like `productID`, best first (the rest of its series first), with availability for
    /// `card` (extension; `unsupported` where the library has none).
    func similar(productID: String, card: String?, limit: Int) async throws -> [Product]
}

/// The lending calls: patrons, loans and reservations.
///
/// The PIN only ever travels in a POST body, never in a URL, a log line or an error message.
public protocol PatronLending: Sendable {
    /// Checks a card and PIN (`POST patrons/verify`).
    func verifyPatron(card: String, pin: String) async throws -> Patron
    /// Borrows a product (`POST loans`).
    func createLoan(card: String, pin: String, productID: String) async throws -> Loan
    /// The patron's loans (`GET loans`).
    func loans(card: String, onlyActive: Bool) async throws -> [Loan]
    /// One loan (`GET loans/{id}`).
    func loan(id: String) async throws -> Loan
    /// Ends a loan early (`DELETE loans/{id}`, extension); `card` lets the server refuse someone else's loan.
    func returnLoan(id: String, card: String?) async throws
    /// Joins a title's queue (`POST reservations`, extension).
    func reserve(card: String, pin: String, productID: String) async throws -> Reservation
    /// The patron's reservations (`GET reservations`, extension).
    func reservations(card: String) async throws -> [Reservation]
    /// Leaves a queue (`DELETE reservations/{id}`, extension); `card` lets the server refuse someone else's.
    func cancelReservation(id: String, card: String?) async throws
}

extension LendingService {
    /// A library without the extension: `unsupported`.
    public func similar(productID: String, card: String?, limit: Int) async throws -> [Product] {
        throw LendingError(.unsupported, tr("This library does not suggest similar books."))
    }
}
