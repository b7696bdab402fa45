/// A place in a title's reservation queue (`POST reservations`, `GET reservations`; extension).
public struct Reservation: Sendable, Hashable, Codable, Identifiable {
    /// The reservation's id (`ReservationID`).
    public var id: String
    /// The product reserved (`ProductID`).
    public var productID: String
    /// The title, when the server names it.
    public var title: String?
    /// Place in the queue, 1 = next.
    public var queuePosition: Int
    /// When the patron's turn is expected.
    public var estimatedDate: DayDate?
    /// True when it is the patron's turn: the book can be borrowed until `readyUntil`.
    public var ready: Bool
    /// The last day to borrow a ready reservation.
    public var readyUntil: DayDate?

    /// Creates a reservation.
    public init(
        id: String, productID: String, title: String? = nil, queuePosition: Int, estimatedDate: DayDate? = nil,
        ready: Bool = false, readyUntil: DayDate? = nil
    ) {
        self.id = id
        self.productID = productID
        self.title = title
        self.queuePosition = queuePosition
        self.estimatedDate = estimatedDate
        self.ready = ready
        self.readyUntil = readyUntil
    }

    enum CodingKeys: String, CodingKey {
        case id = "ReservationID"
        case productID = "ProductID"
        case title = "Title"
        case queuePosition = "QueuePosition"
        case estimatedDate = "EstimatedDate"
        case ready = "Ready"
        case readyUntil = "ReadyUntil"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeLenientID(forKey: .id)
        productID = try c.decodeLenientID(forKey: .productID)
        title = try c.decodeLineIfPresent(forKey: .title, TextPolicy(decoder))
        queuePosition = try c.decodeIfPresent(Int.self, forKey: .queuePosition) ?? 0
        estimatedDate = try c.decodeIfPresent(DayDate.self, forKey: .estimatedDate)
        ready = try c.decodeIfPresent(Bool.self, forKey: .ready) ?? false
        readyUntil = try c.decodeIfPresent(DayDate.self, forKey: .readyUntil)
    }
}

/// A patron as `POST patrons/verify` answers (extension).
public struct Patron: Sendable, Hashable, Codable {
    /// The library card number.
    public var card: String
    /// The patron's name.
    public var name: String
    /// Loans made this calendar month.
    public var loansThisMonth: Int
    /// Loans allowed per month.
    public var maxLoansPerMonth: Int

    /// Creates a patron.
    public init(card: String, name: String, loansThisMonth: Int, maxLoansPerMonth: Int) {
        self.card = card
        self.name = name
        self.loansThisMonth = loansThisMonth
        self.maxLoansPerMonth = maxLoansPerMonth
    }

    enum CodingKeys: String, CodingKey {
        case card = "Card"
        case name = "Name"
        case loansThisMonth = "LoansThisMonth"
        case maxLoansPerMonth = "MaxLoansPerMonth"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            card: try c.decode(String.self, forKey: .card),
            name: try c.decodeLine(forKey: .name, TextPolicy(decoder)),
            loansThisMonth: try c.decode(Int.self, forKey: .loansThisMonth),
            maxLoansPerMonth: try c.decode(Int.self, forKey: .maxLoansPerMonth))
    }
}

extension Reservation {
    /// The order a patron's reservations are listed in: ready first, then by place in the queue.
    public static func shownFirst(_ a: Reservation, _ b: Reservation) -> Bool {
        (a.ready ? 0 : 1, a.queuePosition) < (b.ready ? 0 : 1, b.queuePosition)
    }
}
