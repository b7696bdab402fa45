public import Foundation

/// The library's own page: its name, notices, events and lending rules (`GET library`, extension).
public struct LibraryPage: Sendable, Hashable, Codable {
    /// The library's name, e.g. `Malmö stadsbibliotek`.
    public var name: String
    /// Notices to patrons.
    public var alerts: [Notice]
    /// Coming events.
    public var events: [Event]
    /// Days a loan lasts.
    public var loanPeriodDays: Int?
    /// Loans a patron may make per month.
    public var maxLoansPerMonth: Int?
    /// The library's pace, when it has one: at most so many loans in any so many days (extension).
    public var loanPace: LoanPace?
    /// The library's locale as a BCP 47 tag, e.g. `sv-SE` (extension; text order follows it).
    public var locale: String?
    /// The library's time zone, an IANA name such as `Europe/Stockholm` (extension): its days
    /// are the ones loans are due on.
    public var timeZone: String?
    /// The library's clock when it answered (extension; the mock's clock may have been moved).
    public var now: Date?

    /// A notice on the library page.
    public struct Notice: Sendable, Hashable, Codable {
        /// Headline.
        public var title: String
        /// Body text.
        public var message: String?

        /// Creates a notice.
        public init(title: String, message: String? = nil) {
            self.title = title
            self.message = message
        }

        enum CodingKeys: String, CodingKey {
            case title = "Title"
            case message = "Message"
        }

        public init(from decoder: any Decoder) throws {
            let policy = TextPolicy(decoder)
            if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
                self.init(title: policy.text(text))
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                title: try c.decodeLine(forKey: .title, policy),
                message: try c.decodeTextIfPresent(forKey: .message, policy))
        }
    }

    /// An event at the library.
    public struct Event: Sendable, Hashable, Codable {
        /// What happens.
        public var title: String
        /// When.
        public var date: DayDate?
        /// Where, e.g. a branch or a room.
        public var place: String?

        /// Creates an event.
        public init(title: String, date: DayDate? = nil, place: String? = nil) {
            self.title = title
            self.date = date
            self.place = place
        }

        enum CodingKeys: String, CodingKey {
            case title = "Title"
            case date = "Date"
            case place = "Place"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let policy = TextPolicy(decoder)
            self.init(
                title: try c.decodeLine(forKey: .title, policy),
                date: try c.decodeIfPresent(DayDate.self, forKey: .date),
                place: try c.decodeLineIfPresent(forKey: .place, policy))
        }
    }

    /// Creates a library page.
    public init(
        name: String, alerts: [Notice] = [], events: [Event] = [], loanPeriodDays: Int? = nil,
        maxLoansPerMonth: Int? = nil, loanPace: LoanPace? = nil, locale: String? = nil, timeZone: String? = nil,
        now: Date? = nil
    ) {
        self.name = name
        self.alerts = alerts
        self.events = events
        self.loanPeriodDays = loanPeriodDays
        self.maxLoansPerMonth = maxLoansPerMonth
        self.loanPace = loanPace
        self.locale = locale
        self.timeZone = timeZone
        self.now = now
    }

    enum CodingKeys: String, CodingKey {
        case name = "Name"
        case alerts = "Alerts"
        case events = "Events"
        case loanPeriodDays = "LoanPeriodDays"
        case maxLoansPerMonth = "MaxLoansPerMonth"
        case loanPace = "LoanPace"
        case locale = "Locale"
        case timeZone = "TimeZone"
        case now = "Now"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(alerts, forKey: .alerts)
        try c.encode(events, forKey: .events)
        try c.encodeIfPresent(loanPeriodDays, forKey: .loanPeriodDays)
        try c.encodeIfPresent(maxLoansPerMonth, forKey: .maxLoansPerMonth)
        try c.encodeIfPresent(loanPace, forKey: .loanPace)
        try c.encodeIfPresent(locale, forKey: .locale)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(now.map(Timestamp.format), forKey: .now)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeLine(forKey: .name, TextPolicy(decoder))
        alerts = try c.decodeIfPresent([Notice].self, forKey: .alerts) ?? []
        events = try c.decodeIfPresent([Event].self, forKey: .events) ?? []
        loanPeriodDays = try c.decodeIfPresent(Int.self, forKey: .loanPeriodDays)
        maxLoansPerMonth = try c.decodeIfPresent(Int.self, forKey: .maxLoansPerMonth)
        loanPace = (try? c.decodeIfPresent(LoanPace.self, forKey: .loanPace)) ?? nil
        locale = try c.decodeLineIfPresent(forKey: .locale, TextPolicy(decoder))
        timeZone = try? c.decodeIfPresent(String.self, forKey: .timeZone)
        now = (try? c.decodeIfPresent(String.self, forKey: .now)).flatMap { $0.flatMap(Timestamp.parse) }
    }
}
