/// The JSON envelopes upstream wraps its answers in, shared by the HTTP client and the mock server.
public enum Wire {
    /// `GET products/{id}` → `{"Product": {...}}`.
    public struct ProductAnswer: Sendable, Codable {
        /// The product.
        public var product: Product
        /// Wraps a product.
        public init(product: Product) { self.product = product }
        enum CodingKeys: String, CodingKey { case product = "Product" }
    }

    /// `GET products` (search extension) → `{"Products": [...], "TotalCount": n}`.
    public struct SearchAnswer: Sendable, Codable {
        /// One page of products.
        public var products: [Product]
        /// Hits in all pages.
        public var totalCount: Int
        /// Wraps a page of hits.
        public init(products: [Product], totalCount: Int) {
            self.products = products
            self.totalCount = totalCount
        }
        enum CodingKeys: String, CodingKey {
            case products = "Products"
            case totalCount = "TotalCount"
        }
    }

    /// One entry of `GET books/availability/{id}`: `{"ProductID", "Available", "Reason"}`, and
    /// this project's `EstimatedDate` and `Pace` as the search's embedded availability has them.
    public struct ProductAvailability: Sendable, Codable {
        /// The product (`ProductID`, upper-case D).
        public var productID: String
        /// Whether it can be borrowed.
        public var available: Bool
        /// Why not (`product`, `library`, `borrower`), empty when available.
        public var reason: String
        /// When a loan can be made again, or a patron who reserves may expect it (extension).
        public var estimatedDate: DayDate?
        /// The pace that stops this patron, with `borrower` (extension).
        public var pace: LoanPace?

        /// Creates an entry.
        public init(
            productID: String, available: Bool, reason: String, estimatedDate: DayDate? = nil, pace: LoanPace? = nil
        ) {
            self.productID = productID
            self.available = available
            self.reason = reason
            self.estimatedDate = estimatedDate
            self.pace = pace
        }

        enum CodingKeys: String, CodingKey {
            case productID = "ProductID"
            case available = "Available"
            case reason = "Reason"
            case estimatedDate = "EstimatedDate"
            case pace = "Pace"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            productID = try c.decodeLenientID(forKey: .productID)
            available = try c.decode(Bool.self, forKey: .available)
            reason = try c.decodeLineIfPresent(forKey: .reason, TextPolicy(decoder)) ?? ""
            // Extensions: one that does not parse is left out, never a reason to refuse the answer.
            estimatedDate = (try? c.decodeIfPresent(DayDate.self, forKey: .estimatedDate)) ?? nil
            pace = (try? c.decodeIfPresent(LoanPace.self, forKey: .pace)) ?? nil
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(productID, forKey: .productID)
            try c.encode(available, forKey: .available)
            try c.encode(reason, forKey: .reason)
            try c.encodeIfPresent(estimatedDate, forKey: .estimatedDate)
            try c.encodeIfPresent(pace, forKey: .pace)
        }
    }

    /// `GET books/availability/{id}` → `{"Products": [...]}`.
    public struct AvailabilityAnswer: Sendable, Codable {
        /// Entries, one per product asked for.
        public var products: [ProductAvailability]
        /// Wraps entries.
        public init(products: [ProductAvailability]) { self.products = products }
        enum CodingKeys: String, CodingKey { case products = "Products" }
    }

    /// `GET libraryproducts/{id}` → `{"Product": {"ProductID", "ModelAvailabilities": [...]}}`.
    public struct LicenceAnswer: Sendable, Codable {
        /// The licence state of one product.
        public struct LicenceState: Sendable, Codable {
            /// The product (`ProductID`).
            public var productID: String
            /// One entry per licence model.
            public var modelAvailabilities: [ModelAvailability]
            /// Creates a licence state.
            public init(productID: String, modelAvailabilities: [ModelAvailability]) {
                self.productID = productID
                self.modelAvailabilities = modelAvailabilities
            }
            enum CodingKeys: String, CodingKey {
                case productID = "ProductID"
                case modelAvailabilities = "ModelAvailabilities"
            }
            public init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                productID = try c.decodeLenientID(forKey: .productID)
                modelAvailabilities = try c.decode([ModelAvailability].self, forKey: .modelAvailabilities)
            }
        }
        /// The state.
        public var product: LicenceState
        /// Wraps a state.
        public init(product: LicenceState) { self.product = product }
        enum CodingKeys: String, CodingKey { case product = "Product" }
    }

    /// `GET library` → `{"Library": {...}}`.
    public struct LibraryAnswer: Sendable, Codable {
        /// The page.
        public var library: LibraryPage
        /// Wraps a page.
        public init(library: LibraryPage) { self.library = library }
        enum CodingKeys: String, CodingKey { case library = "Library" }
    }

    /// A failed call's body: `{"Reason": "...", "ResponseStatus": "..."}`.
    public struct ErrorAnswer: Sendable, Codable {
        /// What went wrong, for the patron.
        public var reason: String
        /// A short status word.
        public var responseStatus: String?
        /// Creates an error body.
        public init(reason: String, responseStatus: String? = nil) {
            self.reason = reason
            self.responseStatus = responseStatus
        }
        enum CodingKeys: String, CodingKey {
            case reason = "Reason"
            case responseStatus = "ResponseStatus"
        }
    }
}

extension Wire {
    /// `POST loans` → `{"CreatedLoan": {...}}`.
    public struct CreatedLoanAnswer: Sendable, Codable {
        /// The new loan.
        public var createdLoan: Loan
        /// Wraps a loan.
        public init(createdLoan: Loan) { self.createdLoan = createdLoan }
        enum CodingKeys: String, CodingKey { case createdLoan = "CreatedLoan" }
    }

    /// `GET loans/{id}` → `{"Loan": {...}}`.
    public struct LoanAnswer: Sendable, Codable {
        /// The loan.
        public var loan: Loan
        /// Wraps a loan.
        public init(loan: Loan) { self.loan = loan }
        enum CodingKeys: String, CodingKey { case loan = "Loan" }
    }

    /// `GET loans` → `{"Loans": [...]}`.
    public struct LoansAnswer: Sendable, Codable {
        /// The patron's loans.
        public var loans: [Loan]
        /// Wraps loans.
        public init(loans: [Loan]) { self.loans = loans }
        enum CodingKeys: String, CodingKey { case loans = "Loans" }
    }

    /// `POST patrons/verify` → `{"Patron": {...}}`.
    public struct PatronAnswer: Sendable, Codable {
        /// The verified patron.
        public var patron: Patron
        /// Wraps a patron.
        public init(patron: Patron) { self.patron = patron }
        enum CodingKeys: String, CodingKey { case patron = "Patron" }
    }

    /// `POST reservations` → `{"CreatedReservation": {...}}`.
    public struct CreatedReservationAnswer: Sendable, Codable {
        /// The new reservation.
        public var createdReservation: Reservation
        /// Wraps a reservation.
        public init(createdReservation: Reservation) { self.createdReservation = createdReservation }
        enum CodingKeys: String, CodingKey { case createdReservation = "CreatedReservation" }
    }

    /// `GET reservations` → `{"Reservations": [...]}`.
    public struct ReservationsAnswer: Sendable, Codable {
        /// The patron's reservations.
        public var reservations: [Reservation]
        /// Wraps reservations.
        public init(reservations: [Reservation]) { self.reservations = reservations }
        enum CodingKeys: String, CodingKey { case reservations = "Reservations" }
    }
}
