public import Foundation

/// A loan, as `POST loans` (`CreatedLoan`) and `GET loans` (`Loan`) answer it.
public struct Loan: Sendable, Hashable, Codable, Identifiable {
    /// Upstream's loan id (`LoanID`).
    public var id: String
    /// The product lent (`ProductID`).
    public var productID: String
    /// The title, as the server names it.
    public var title: String
    /// The cover image's URL.
    public var coverImage: String?
    /// When the loan was made.
    public var createdDate: Date?
    /// The last day of the loan; it ends by itself after this day.
    public var expiryDate: DayDate
    /// False once the loan has ended.
    public var active: Bool
    /// Content to download or stream, per format, possibly in parts.
    public var links: [Link]
    /// Extra material (`{"Name", "Link"}`).
    public var supplements: [Supplement]

    /// Content of one format.
    public struct Link: Sendable, Hashable, Codable {
        /// The format (`4104` EPUB for download).
        public var formatID: String
        /// The parts, in order.
        public var contents: [Part]

        /// One downloadable part.
        public struct Part: Sendable, Hashable, Codable {
            /// The part's number, from 1.
            public var part: Int
            /// Where to fetch it.
            public var url: String

            /// Creates a part.
            public init(part: Int, url: String) {
                self.part = part
                self.url = url
            }

            enum CodingKeys: String, CodingKey {
                case part = "Part"
                case url = "Url"
            }
        }

        /// Creates a link.
        public init(formatID: String, contents: [Part]) {
            self.formatID = formatID
            self.contents = contents
        }

        enum CodingKeys: String, CodingKey {
            case formatID = "FormatID"
            case contents = "Contents"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            formatID = try c.decodeLenientID(forKey: .formatID)
            contents = try c.decodeIfPresent([Part].self, forKey: .contents) ?? []
        }
    }

    /// A supplement to a loan.
    public struct Supplement: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// Where it is.
        public var link: String

        /// Creates a supplement.
        public init(name: String, link: String) {
            self.name = name
            self.link = link
        }

        enum CodingKeys: String, CodingKey {
            case name = "Name"
            case link = "Link"
        }
    }

    /// Creates a loan.
    public init(
        id: String, productID: String, title: String, coverImage: String? = nil, createdDate: Date? = nil,
        expiryDate: DayDate, active: Bool = true, links: [Link] = [], supplements: [Supplement] = []
    ) {
        self.id = id
        self.productID = productID
        self.title = title
        self.coverImage = coverImage
        self.createdDate = createdDate
        self.expiryDate = expiryDate
        self.active = active
        self.links = links
        self.supplements = supplements
    }

    /// The URL of the EPUB for download (format 4104), first part, if the loan has one.
    public var epubURL: String? {
        links.first { $0.formatID == "4104" }?.contents.sorted { $0.part < $1.part }.first?.url
    }

    enum CodingKeys: String, CodingKey {
        case id = "LoanID"
        case productID = "ProductID"
        case title = "Title"
        case coverImage = "CoverImage"
        case createdDate = "CreatedDate"
        case expiryDate = "ExpiryDate"
        case active = "Active"
        case links = "Links"
        case supplements = "Supplements"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeLenientID(forKey: .id)
        productID = try c.decodeLenientID(forKey: .productID)
        title = try c.decodeLineIfPresent(forKey: .title, TextPolicy(decoder)) ?? ""
        coverImage = try c.decodeIfPresent(String.self, forKey: .coverImage)
        createdDate = try c.decodeIfPresent(String.self, forKey: .createdDate).flatMap(Timestamp.parse)
        expiryDate = try c.decode(DayDate.self, forKey: .expiryDate)
        active = try c.decodeIfPresent(Bool.self, forKey: .active) ?? true
        links = try c.decodeIfPresent([Link].self, forKey: .links) ?? []
        supplements = try c.decodeIfPresent([Supplement].self, forKey: .supplements) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(productID, forKey: .productID)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(coverImage, forKey: .coverImage)
        try c.encodeIfPresent(createdDate.map(Timestamp.format), forKey: .createdDate)
        try c.encode(expiryDate, forKey: .expiryDate)
        try c.encode(active, forKey: .active)
        try c.encode(links, forKey: .links)
        try c.encode(supplements, forKey: .supplements)
    }
}

/// ISO 8601 timestamps as upstream writes them (`2026-11-21T14:05:00Z`, with or without fractions).
public enum Timestamp {
    /// Parses a timestamp; a date-only value is midnight UTC.
    public static func parse(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        if let day = DayDate(string: text), text.count == 10 { return day.startDate(in: TimeZone(identifier: "UTC")!) }
        return nil
    }

    /// Formats a timestamp in UTC with seconds.
    public static func format(_ date: Date) -> String { date.formatted(.iso8601) }
}
