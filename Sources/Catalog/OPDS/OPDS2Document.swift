import Foundation

/// An OPDS 2.0 feed as JSON, read into the few typed fields bok reads.
///
/// Read from ``JSONValue`` by hand: typed decoding through `JSONDecoder` cost two thirds of
/// parsing a 5 000-entry feed, and `JSONSerialization`'s dictionaries more (bok-bench, see
/// docs/performance.md). Every field is lenient: a value of an unexpected type is skipped, so one
/// odd publication cannot fail a feed.
struct OPDS2Document {
    var metadata: Metadata?
    var links: [Link] = []
    var navigation: [Link] = []
    var publications: [Publication] = []
    var groups: [Group] = []
    var facets: [Facet] = []
    /// True when the object has any of the members an OPDS 2 feed is made of.
    var looksLikeAFeed = false

    /// The feed `root` is; nil when it is no object.
    init?(_ root: JSONValue) {
        guard root.isObject else { return nil }
        metadata = root["metadata"].flatMap(Metadata.init)
        links = Self.list(root["links"], Link.init)
        navigation = Self.list(root["navigation"], Link.init)
        publications = Self.list(root["publications"], Publication.init)
        groups = Self.list(root["groups"], Group.init)
        facets = Self.list(root["facets"], Facet.init)
        looksLikeAFeed = ["navigation", "publications", "groups", "links"].contains { root.has($0) }
    }

    /// The items of an array that read as a `T`; none for a value that is no array.
    static func list<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> [T] {
        value?.items?.compactMap(read) ?? []
    }

    struct Metadata {
        var title: String?
        /// Publications on all pages (`numberOfItems`).
        var numberOfItems: Int?

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            title = value["title"]?.string
            numberOfItems = value["numberOfItems"]?.int
        }
    }

    struct Group {
        var navigation: [Link] = []
        var publications: [Publication] = []

        init(navigation: [Link], publications: [Publication]) {
            self.navigation = navigation
            self.publications = publications
        }

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            navigation = OPDS2Document.list(value["navigation"], Link.init)
            publications = OPDS2Document.list(value["publications"], Publication.init)
        }
    }

    struct Facet {
        var title: String?
        var links: [Link] = []

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            title = value["metadata"].flatMap(Metadata.init)?.title
            links = OPDS2Document.list(value["links"], Link.init)
        }
    }

    struct Link {
        var href: String?
        var relations: [String] = []
        var type: String?
        var title: String?
        var size: Int?
        var indirectTypes: [String] = []
        var lending: OPDSLending?

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            href = value["href"]?.string
            relations = value["rel"].flatMap(OPDS2Document.strings) ?? []
            type = value["type"]?.string
            title = value["title"]?.string
            guard let properties = value["properties"], properties.isObject else { return }
            size = properties["size"]?.int
            // `indirectAcquisition`: an object or a list of them; each a type and the step after it
            // (the first of `child`).
            func step(_ value: JSONValue?) -> JSONValue? {
                guard let value else { return nil }
                return value.isObject ? value : value.items?.first(where: \.isObject)
            }
            var indirect = step(properties["indirectAcquisition"])
            while let current = indirect, indirectTypes.count < 8 {
                if let type = current["type"]?.string { indirectTypes.append(type) }
                indirect = current["child"]?.items?.first(where: \.isObject)
            }
            let availability = properties["availability"].flatMap(Counts.init)
            let holds = properties["holds"].flatMap(Counts.init)
            let copies = properties["copies"].flatMap(Counts.init)
            guard availability != nil || holds != nil || copies != nil else { return }
            // Counts without a state: the book is out when no copy is on the shelf.
            let state =
                availability?.state.flatMap(OPDSLending.init(word:))?.state
                ?? (copies?.available == 0 ? .unavailable : .available)
            lending = OPDSLending(
                state: state, since: availability?.since.flatMap(DayDate.init(string:)),
                until: availability?.until.flatMap(DayDate.init(string:)), holds: holds?.total,
                position: holds?.position, copies: copies?.total, copiesAvailable: copies?.available)
        }

        /// One of `availability`, `holds` and `copies`: the members bok reads of any of them.
        struct Counts {
            var state: String?
            var since: String?
            var until: String?
            var total: Int?
            var position: Int?
            var available: Int?

            init?(_ value: JSONValue) {
                guard value.isObject else { return nil }
                state = value["state"]?.string ?? value["status"]?.string
                since = value["since"]?.string
                until = value["until"]?.string
                total = value["total"]?.int.map { max(0, $0) }
                position = value["position"]?.int.map { max(0, $0) }
                available = value["available"]?.int.map { max(0, $0) }
            }
        }
    }

    struct Publication {
        var metadata: PublicationMetadata?
        var links: [Link] = []
        var images: [Link] = []

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            metadata = value["metadata"].flatMap(PublicationMetadata.init)
            links = OPDS2Document.list(value["links"], Link.init)
            images = OPDS2Document.list(value["images"], Link.init)
        }
    }

    struct PublicationMetadata {
        var title: String?
        var identifier: String?
        var authors: [String] = []
        var description: String?
        var publishers: [String] = []
        var language: String?
        var published: String?
        var subjects: [String] = []
        var series: String?

        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            title = value["title"]?.string
            identifier = value["identifier"]?.string
            authors = value["author"].map(OPDS2Document.names) ?? []
            description = value["description"]?.string
            publishers = value["publisher"].map(OPDS2Document.names) ?? []
            language = value["language"].flatMap(OPDS2Document.strings)?.first
            published = value["published"]?.string
            subjects = value["subject"].map(OPDS2Document.names) ?? []
            series = value["belongsTo"].flatMap(Self.series)
        }

        /// `belongsTo.series`: an object with `name` and `position`, a list of them (the first), or a name.
        static func series(_ belongsTo: JSONValue) -> String? {
            guard belongsTo.isObject, let series = belongsTo["series"] else { return nil }
            if let name = series.string { return name }
            let list = series.items
            guard let one = series.isObject ? series : list?.first, list?.allSatisfy(\.isObject) ?? true,
                one.isObject, let name = one["name"]?.string
            else { return nil }
            let position = one["position"].flatMap { $0.int.map(String.init) ?? $0.double.map { "\($0)" } ?? $0.string }
            return position.map { "\(name), \($0)" } ?? name
        }
    }

    /// A string or a list of strings (those of it); nil for anything else.
    static func strings(_ value: JSONValue) -> [String]? {
        if let one = value.string { return [one] }
        return value.items?.compactMap(\.string)
    }

    /// A contributor field: a name, an object with a `name` (a string, or a map of languages to
    /// names, of which the first), or a list of either.
    static func names(_ value: JSONValue) -> [String] {
        if let one = value.string { return [one] }
        if let list = value.items { return list.flatMap(names) }
        guard let name = value["name"] else { return [] }
        if let one = name.string { return [one] }
        return name.members?.lazy.compactMap(\.value.string).first.map { [$0] } ?? []
    }
}

// What the Authentication for OPDS document's reading (OPDSAuthentication) shares: lenient typed
// decoding, for a document of a few members where JSONDecoder's cost does not matter.
extension OPDS2Document {
    /// A value that is skipped (nil) when it is not a `Value`.
    struct Lenient<Value: Decodable>: Decodable {
        var value: Value?

        init(from decoder: any Decoder) throws {
            value = try? decoder.singleValueContainer().decode(Value.self)
        }
    }

    /// Member names, whatever they are.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension KeyedDecodingContainer where Key == OPDS2Document.Key {
    /// The member `name` as a `T`, or nil when it is missing or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ name: String) -> T? {
        try? decodeIfPresent(T.self, forKey: Key(stringValue: name))
    }

    /// The member `name` as a list of `T`, leaving out the items that are not a `T`.
    func lenientList<T: Decodable>(_ type: T.Type, _ name: String) -> [T] {
        (try? decodeIfPresent([OPDS2Document.Lenient<T>].self, forKey: Key(stringValue: name)))?.compactMap(\.value)
            ?? []
    }
}
