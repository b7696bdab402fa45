/// A title in the library's catalogue, with upstream's `Product` keys.
///
/// Note upstream's spelling: `ProductId` here, `ProductID` in every other answer. Fields marked
/// "extension" are this project's additions (see `elib-api.md`); a plain Elib server omits them.
public struct Product: Sendable, Hashable, Codable, Identifiable {
    /// Upstream's product id.
    public var id: String
    /// The title in the edition's language.
    public var title: String
    /// The original title of a translated book (extension).
    public var originalTitle: String?
    /// Authors, translators and others, first author first.
    public var contributors: [Contributor]
    /// The publisher's name.
    public var publisher: String?
    /// The day the edition was published.
    public var publishedDate: DayDate?
    /// ISO 639-1 language code, e.g. `sv`.
    public var language: String?
    /// Categories, e.g. `Thriller`, `Deckare`.
    public var categories: [String]
    /// The publisher's description.
    public var description: String?
    /// The cover image's URL.
    public var coverImage: String?
    /// Length in pages.
    public var pages: Int?
    /// `Ebook`, `Audiobook`.
    public var bookType: String?
    /// ISBN-13s of the edition.
    public var isbns: [String]
    /// Formats that can be lent.
    public var formats: [Format]
    /// Validity statuses; lendable while a status named `Active` is valid.
    public var statuses: [Status]
    /// A free sample, if the publisher offers one.
    public var teaser: Teaser?
    /// The series this book belongs to, from `Relations`.
    public var series: Series?
    /// Search keywords (extension).
    public var keywords: [String]
    /// Loans in the last twelve months (extension).
    public var popularity: Int?
    /// Mean patron rating, 0–5 (extension).
    public var rating: Double?
    /// Availability embedded by the search extension; filled in by the client otherwise.
    public var availability: Availability?

    /// A lendable format of a product.
    public struct Format: Sendable, Hashable, Codable {
        /// `4104` EPUB for download, `4101` EPUB online, `4103` PDF, `4002` streamed audio.
        public var id: String
        /// The format's display name.
        public var name: String
        /// Size of the file, when known.
        public var sizeInBytes: Int?

        /// Creates a format.
        public init(id: String, name: String, sizeInBytes: Int? = nil) {
            self.id = id
            self.name = name
            self.sizeInBytes = sizeInBytes
        }

        enum CodingKeys: String, CodingKey {
            case id = "FormatId"
            case name = "Name"
            case sizeInBytes = "SizeInBytes"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decodeLenientID(forKey: .id)
            name = try c.decodeLineIfPresent(forKey: .name, TextPolicy(decoder)) ?? ""
            sizeInBytes = try c.decodeIfPresent(Int.self, forKey: .sizeInBytes)
        }
    }

    /// A period during which the product has a status, e.g. `Active`.
    public struct Status: Sendable, Hashable, Codable {
        /// The status's name.
        public var name: String
        /// First day of validity.
        public var validFrom: DayDate?
        /// Last day of validity.
        public var validUntil: DayDate?

        /// Creates a status.
        public init(name: String, validFrom: DayDate? = nil, validUntil: DayDate? = nil) {
            self.name = name
            self.validFrom = validFrom
            self.validUntil = validUntil
        }

        enum CodingKeys: String, CodingKey {
            case name = "Name"
            case validFrom = "ValidFrom"
            case validUntil = "ValidUntil"
        }
    }

    /// A sample anyone may read without a loan.
    public struct Teaser: Sendable, Hashable, Codable {
        /// Where to download it.
        public var url: String
        /// Its format id.
        public var formatID: String

        /// Creates a teaser.
        public init(url: String, formatID: String = "4104") {
            self.url = url
            self.formatID = formatID
        }

        enum CodingKeys: String, CodingKey {
            case url = "Url"
            case formatID = "FormatID"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            url = try c.decode(String.self, forKey: .url)
            formatID = try c.decodeIfPresent(String.self, forKey: .formatID) ?? "4104"
        }
    }

    /// A series and this book's place in it.
    public struct Series: Sendable, Hashable, Codable {
        /// The series' name.
        public var name: String
        /// The book's number in the series, from 1.
        public var order: Int?

        /// Creates a series reference.
        public init(name: String, order: Int?) {
            self.name = name
            self.order = order
        }
    }

    /// Creates a product; only the id and the title are required.
    public init(
        id: String, title: String, originalTitle: String? = nil, contributors: [Contributor] = [],
        publisher: String? = nil, publishedDate: DayDate? = nil, language: String? = nil,
        categories: [String] = [], description: String? = nil, coverImage: String? = nil,
        pages: Int? = nil, bookType: String? = "Ebook", isbns: [String] = [], formats: [Format] = [],
        statuses: [Status] = [], teaser: Teaser? = nil, series: Series? = nil, keywords: [String] = [],
        popularity: Int? = nil, rating: Double? = nil, availability: Availability? = nil
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.contributors = contributors
        self.publisher = publisher
        self.publishedDate = publishedDate
        self.language = language
        self.categories = categories
        self.description = description
        self.coverImage = coverImage
        self.pages = pages
        self.bookType = bookType
        self.isbns = isbns
        self.formats = formats
        self.statuses = statuses
        self.teaser = teaser
        self.series = series
        self.keywords = keywords
        self.popularity = popularity
        self.rating = rating
        self.availability = availability
    }

    /// The authors, first author first.
    public var authors: [Contributor] { contributors.filter { $0.role == .author } }
    /// The translators.
    public var translators: [Contributor] { contributors.filter { $0.role == .translator } }
    /// The publication year, when known.
    public var year: Int? { publishedDate?.year }

    /// Formats to offer, by Elib's rule: where EPUB for download (4104) exists, ignore the PDF (4103).
    public var offeredFormats: [Format] {
        formats.contains { $0.id == "4104" } ? formats.filter { $0.id != "4103" } : formats
    }

    /// Whether a status named `Active` is valid on `day` (no statuses at all counts as active).
    public func isActive(on day: DayDate) -> Bool {
        guard !statuses.isEmpty else { return true }
        return statuses.contains { s in
            s.name.lowercased() == "active"
                && (s.validFrom.map { $0 <= day } ?? true)
                && (s.validUntil.map { day <= $0 } ?? true)
        }
    }
}
