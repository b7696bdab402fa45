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
        enum CodingKeys: String, CodingKey { case products = "Products", totalCount = "TotalCount" }
    }

    /// One entry of `GET books/availability/{id}`: `{"ProductID", "Available", "Reason"}`.
    public struct ProductAvailability: Sendable, Codable {
        /// The product (`ProductID`, upper-case D).
        public var productID: String
        /// Whether it can be borrowed.
        public var available: Bool
        /// Why not (`product`, `library`, `borrower`), empty when available.
        public var reason: String

        /// Creates an entry.
        public init(productID: String, available: Bool, reason: String) {
            self.productID = productID
            self.available = available
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey { case productID = "ProductID", available = "Available", reason = "Reason" }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            productID = try c.decodeLenientID(forKey: .productID)
            available = try c.decode(Bool.self, forKey: .available)
            reason = try c.decodeIfPresent(String.self, forKey: .reason) ?? ""
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
                case productID = "ProductID", modelAvailabilities = "ModelAvailabilities"
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
        enum CodingKeys: String, CodingKey { case reason = "Reason", responseStatus = "ResponseStatus" }
    }
}
