import Localization

/// Why a book cannot be borrowed right now, in upstream's words.
public enum UnavailableReason: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The title has used up its loans: all copies are out.
    case product
    /// The library has reached its lending budget or limit for now.
    case library
    /// This patron has reached their own loan limit.
    case borrower
    /// A reason this client does not know; shown as the server wrote it.
    case other(String)

    /// Maps upstream's word to a case.
    public init(word: String) {
        switch word.lowercased() {
        case "product": self = .product
        case "library": self = .library
        case "borrower": self = .borrower
        default: self = .other(word)
        }
    }

    /// The word upstream uses (`product`, `library`, `borrower`).
    public var word: String {
        switch self {
        case .product: "product"
        case .library: "library"
        case .borrower: "borrower"
        case .other(let word): word
        }
    }

    public var description: String { word }

    public init(from decoder: any Decoder) throws {
        self.init(word: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(word)
    }
}

/// Whether a book can be borrowed now and, if not, why and how many are waiting.
///
/// Encodes as the search extension's embedded object: `{"Available", "Reason", "Copies", "Waiting", "EstimatedDate"}`.
public struct Availability: Sendable, Hashable, Codable {
    /// True when a loan can be made now.
    public var available: Bool
    /// Why not, when `available` is false.
    public var reason: UnavailableReason?
    /// Number of copies the library holds, when known (`nil` for unlimited access titles).
    public var copies: Int?
    /// Patrons in the reservation queue, when known.
    public var waiting: Int?
    /// When a patron who reserves now may expect the book, when the server estimates it (an
    /// extension); for `library` and `borrower`, the first day a loan can be made again.
    public var estimatedDate: DayDate?
    /// For `borrower`: the library's pace when that, not the monthly limit, is what stops the
    /// patron (an extension).
    public var pace: LoanPace?

    /// Creates an availability.
    public init(
        available: Bool, reason: UnavailableReason? = nil, copies: Int? = nil, waiting: Int? = nil,
        estimatedDate: DayDate? = nil, pace: LoanPace? = nil
    ) {
        self.available = available
        self.reason = available ? nil : reason
        self.copies = copies
        self.waiting = waiting
        self.estimatedDate = available ? nil : estimatedDate
        self.pace = available ? nil : pace
    }

    enum CodingKeys: String, CodingKey {
        case available = "Available"
        case reason = "Reason"
        case copies = "Copies"
        case waiting = "Waiting"
        case estimatedDate = "EstimatedDate"
        case pace = "Pace"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        available = try c.decode(Bool.self, forKey: .available)
        // Upstream sends an empty string as the reason of an available book.
        let word = try c.decodeLineIfPresent(forKey: .reason, TextPolicy(decoder)) ?? ""
        reason = available || word.isEmpty ? nil : UnavailableReason(word: word)
        copies = try c.decodeIfPresent(Int.self, forKey: .copies)
        waiting = try c.decodeIfPresent(Int.self, forKey: .waiting)
        // An estimate that does not parse is left out: it is a nicety, never a reason to refuse the answer.
        estimatedDate = available ? nil : (try? c.decodeIfPresent(DayDate.self, forKey: .estimatedDate)) ?? nil
        pace = available ? nil : (try? c.decodeIfPresent(LoanPace.self, forKey: .pace)) ?? nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(available, forKey: .available)
        try c.encode(reason?.word ?? "", forKey: .reason)
        try c.encodeIfPresent(copies, forKey: .copies)
        try c.encodeIfPresent(waiting, forKey: .waiting)
        try c.encodeIfPresent(estimatedDate, forKey: .estimatedDate)
        try c.encodeIfPresent(pace, forKey: .pace)
    }

    /// The reason in words a patron understands, or nil when the book is available.
    ///
    /// For example `all 3 copies on loan, 2 waiting` or `the library's e-book budget for this month is
    /// used up`. (bok's screens add the days: see the client's `AvailabilityWords`.)
    public var explanation: String? {
        guard !available else { return nil }
        switch reason {
        case .product?, nil:
            var text: String
            switch copies {
            case 1?: text = tr("the only copy is on loan")
            case 2?: text = tr("both copies on loan")
            case let n? where n > 1: text = trn("all {n} copies on loan", "all {n} copies on loan", n)
            default: text = tr("all copies on loan")
            }
            if let waiting, waiting > 0 { text += trn(", {n} waiting", ", {n} waiting", waiting) }
            return text
        case .library?:
            return tr("the library's e-book budget for this month is used up")
        case .borrower?:
            if let pace {
                return trn(
                    "you have made {n} loan in {days} days, as many as the library allows",
                    "you have made {n} loans in {days} days, as many as the library allows", pace.loans,
                    ["days": pace.days])
            }
            return tr("you have reached your own loan limit for this month")
        case .other(let word)?:
            return word
        }
    }

    /// The reason in a few words, for narrow places such as grid cards: `on loan · 2 waiting`.
    public var shortExplanation: String? {
        guard !available else { return nil }
        switch reason {
        case .product?, nil:
            if let waiting, waiting > 0 { return trn("on loan · {n} waiting", "on loan · {n} waiting", waiting) }
            return tr("on loan")
        case .library?: return tr("library budget used up")
        case .borrower?: return tr("your limit reached")
        case .other(let word)?: return word
        }
    }
}

/// The state of one licence model of a title, as `GET libraryproducts/{id}` reports it.
public struct ModelAvailability: Sendable, Hashable, Codable {
    /// The model's name; `access` means always available.
    public var model: String
    /// Loans currently counted against the model.
    public var current: Int
    /// The model's limit.
    public var max: Int

    /// Creates a model availability.
    public init(model: String, current: Int, max: Int) {
        self.model = model
        self.current = current
        self.max = max
    }

    /// Upstream's rule: `access` is always available, any other model while `Current < Max`.
    public var isAvailable: Bool { model.lowercased() == "access" || current < max }

    enum CodingKeys: String, CodingKey {
        case model = "Model"
        case current = "Current"
        case max = "Max"
    }
}
