/// Upstream's JSON shape of `Product`, including the older `Authors` feed and the relation list.
extension Product {
    enum CodingKeys: String, CodingKey {
        case id = "ProductId"
        case title = "Title"
        case originalTitle = "OriginalTitle"
        case contributors = "Contributors"
        case authors = "Authors"
        case publisher = "Publisher"
        case publishedDate = "PublishedDate"
        case language = "Language"
        case categories = "Categories"
        case description = "Description"
        case coverImage = "CoverImage"
        case pages = "BookLength"
        case bookType = "BookType"
        case isbns = "PublicIdentifiers"
        case formats = "AvailableFormats"
        case statuses = "Statuses"
        case teaser = "Teaser"
        case relations = "Relations"
        case keywords = "Keywords"
        case popularity = "Popularity"
        case rating = "Rating"
        case availability = "Availability"
    }

    /// One entry of `Relations`: a series (with order) or another edition.
    struct Relation: Codable {
        var type: String
        var name: String?
        var order: Int?
        var productID: String?

        enum CodingKeys: String, CodingKey {
            case type = "Type"
            case name = "Name"
            case order = "Order"
            case productID = "ProductID"
        }
    }

    /// One entry of `PublicIdentifiers`: `{"IdType": "ISBN13", "Id": "978…"}` or a bare string.
    struct PublicIdentifier: Codable {
        var type: String
        var value: String

        enum CodingKeys: String, CodingKey {
            case type = "IdType"
            case value = "Id"
        }

        init(type: String, value: String) {
            self.type = type
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
                self.init(type: "ISBN13", value: text)
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                type: try c.decodeIfPresent(String.self, forKey: .type) ?? "ISBN13",
                value: try c.decodeLenientID(forKey: .value))
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let policy = TextPolicy(decoder)
        id = try c.decodeLenientID(forKey: .id)
        title = try c.decodeLine(forKey: .title, policy)
        originalTitle = try c.decodeLineIfPresent(forKey: .originalTitle, policy)
        if let list = try c.decodeIfPresent([Contributor].self, forKey: .contributors) {
            contributors = list
        } else {
            contributors = try c.decodeIfPresent([Contributor].self, forKey: .authors) ?? []
        }
        publisher = try c.decodeLineIfPresent(forKey: .publisher, policy)
        publishedDate = try c.decodeIfPresent(DayDate.self, forKey: .publishedDate)
        language = try c.decodeLineIfPresent(forKey: .language, policy)
        categories = try c.decodeLinesIfPresent(forKey: .categories, policy) ?? []
        description = try c.decodeTextIfPresent(forKey: .description, policy)
        coverImage = try c.decodeIfPresent(String.self, forKey: .coverImage)
        pages = try c.decodeIfPresent(Int.self, forKey: .pages)
        bookType = try c.decodeLineIfPresent(forKey: .bookType, policy)
        isbns = (try c.decodeIfPresent([PublicIdentifier].self, forKey: .isbns) ?? []).map(\.value)
        formats = try c.decodeIfPresent([Format].self, forKey: .formats) ?? []
        statuses = try c.decodeIfPresent([Status].self, forKey: .statuses) ?? []
        teaser = try c.decodeIfPresent(Teaser.self, forKey: .teaser)
        let relations = try c.decodeIfPresent([Relation].self, forKey: .relations) ?? []
        series = relations.first { $0.type.lowercased() == "series" }.flatMap { r in
            r.name.map { Series(name: policy.line($0), order: r.order) }
        }
        keywords = try c.decodeLinesIfPresent(forKey: .keywords, policy) ?? []
        popularity = try c.decodeIfPresent(Int.self, forKey: .popularity)
        rating = try c.decodeIfPresent(Double.self, forKey: .rating)
        availability = try c.decodeIfPresent(Availability.self, forKey: .availability)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(originalTitle, forKey: .originalTitle)
        try c.encode(contributors, forKey: .contributors)
        try c.encodeIfPresent(publisher, forKey: .publisher)
        try c.encodeIfPresent(publishedDate, forKey: .publishedDate)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encode(categories, forKey: .categories)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(coverImage, forKey: .coverImage)
        try c.encodeIfPresent(pages, forKey: .pages)
        try c.encodeIfPresent(bookType, forKey: .bookType)
        try c.encode(isbns.map { PublicIdentifier(type: "ISBN13", value: $0) }, forKey: .isbns)
        try c.encode(formats, forKey: .formats)
        try c.encode(statuses, forKey: .statuses)
        try c.encodeIfPresent(teaser, forKey: .teaser)
        if let series {
            try c.encode([Relation(type: "Series", name: series.name, order: series.order)], forKey: .relations)
        }
        if !keywords.isEmpty { try c.encode(keywords, forKey: .keywords) }
        try c.encodeIfPresent(popularity, forKey: .popularity)
        try c.encodeIfPresent(rating, forKey: .rating)
        try c.encodeIfPresent(availability, forKey: .availability)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an id that upstream sends sometimes as a number, sometimes as a string.
    func decodeLenientID(forKey key: Key) throws -> String {
        if let text = try? decode(String.self, forKey: key) { return text }
        if let number = try? decode(Int64.self, forKey: key) { return String(number) }
        throw DecodingError.typeMismatch(
            String.self,
            .init(codingPath: codingPath + [key], debugDescription: "Expected an id (string or number)"))
    }
}
