import Foundation

/// An OPDS 2.0 feed as JSON, decoded into the few typed fields bok reads.
///
/// Written by hand rather than read through `JSONSerialization`: Foundation's dictionaries cost
/// about a third more on a 5 000-entry feed (measured in `bok-bench`, see docs/performance.md),
/// and typed decoding keeps only what is used. Every field is lenient — a value of an unexpected
/// type is skipped, as the dictionary reading did — so one odd publication cannot fail a feed.
struct OPDS2Document: Decodable {
    var metadata: Metadata?
    var links: [Link] = []
    var navigation: [Link] = []
    var publications: [Publication] = []
    var groups: [Group] = []
    var facets: [Facet] = []
    /// True when the object has any of the members an OPDS 2 feed is made of.
    var looksLikeAFeed = false

    struct Metadata: Decodable {
        var title: String?
        /// Publications on all pages (`numberOfItems`).
        var numberOfItems: Int?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            title = c.lenient(String.self, "title")
            numberOfItems = c.lenient(Int.self, "numberOfItems")
        }
    }

    struct Group: Decodable {
        var navigation: [Link] = []
        var publications: [Publication] = []

        init(navigation: [Link], publications: [Publication]) {
            self.navigation = navigation
            self.publications = publications
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            navigation = c.lenientList(Link.self, "navigation")
            publications = c.lenientList(Publication.self, "publications")
        }
    }

    struct Facet: Decodable {
        var title: String?
        var links: [Link] = []

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            title = c.lenient(Metadata.self, "metadata")?.title
            links = c.lenientList(Link.self, "links")
        }
    }

    struct Link: Decodable {
        var href: String?
        var relations: [String] = []
        var type: String?
        var title: String?
        var size: Int?
        var indirectTypes: [String] = []
        var lending: OPDSLending?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            href = c.lenient(String.self, "href")
            relations = c.lenient(Strings.self, "rel")?.values ?? []
            type = c.lenient(String.self, "type")
            title = c.lenient(String.self, "title")
            let properties = c.lenient(Properties.self, "properties")
            size = properties?.size
            indirectTypes = properties?.indirectTypes ?? []
            lending = properties?.lending
        }

        /// `size`, and the Library Simplified lending: `availability {state, since, until}`,
        /// `holds {total, position}`, `copies {total, available}`, `indirectAcquisition`.
        struct Properties: Decodable {
            var size: Int?
            var indirectTypes: [String] = []
            var lending: OPDSLending?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: Key.self)
                size = c.lenient(Int.self, "size")
                var indirect =
                    c.lenient(Indirect.self, "indirectAcquisition")
                    ?? c.lenientList(
                        Indirect.self, "indirectAcquisition"
                    ).first
                while let step = indirect, indirectTypes.count < 8 {
                    if let type = step.type { indirectTypes.append(type) }
                    indirect = step.child
                }
                let availability = c.lenient(Counts.self, "availability")
                let holds = c.lenient(Counts.self, "holds")
                let copies = c.lenient(Counts.self, "copies")
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
        }

        /// One of `availability`, `holds` and `copies`: the members bok reads of any of them.
        struct Counts: Decodable {
            var state: String?
            var since: String?
            var until: String?
            var total: Int?
            var position: Int?
            var available: Int?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: Key.self)
                state = c.lenient(String.self, "state") ?? c.lenient(String.self, "status")
                since = c.lenient(String.self, "since")
                until = c.lenient(String.self, "until")
                total = c.lenient(Int.self, "total").map { max(0, $0) }
                position = c.lenient(Int.self, "position").map { max(0, $0) }
                available = c.lenient(Int.self, "available").map { max(0, $0) }
            }
        }

        /// `indirectAcquisition`: a type, and the step after it (the first of `child`).
        final class Indirect: Decodable {
            let type: String?
            let child: Indirect?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: Key.self)
                type = c.lenient(String.self, "type")
                child = c.lenientList(Indirect.self, "child").first
            }
        }
    }

    struct Publication: Decodable {
        var metadata: PublicationMetadata?
        var links: [Link] = []
        var images: [Link] = []

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            metadata = c.lenient(PublicationMetadata.self, "metadata")
            links = c.lenientList(Link.self, "links")
            images = c.lenientList(Link.self, "images")
        }
    }

    struct PublicationMetadata: Decodable {
        var title: String?
        var identifier: String?
        var authors: [String] = []
        var description: String?
        var publishers: [String] = []
        var language: String?
        var published: String?
        var subjects: [String] = []
        var series: String?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            title = c.lenient(String.self, "title")
            identifier = c.lenient(String.self, "identifier")
            authors = c.lenient(Names.self, "author")?.values ?? []
            description = c.lenient(String.self, "description")
            publishers = c.lenient(Names.self, "publisher")?.values ?? []
            language = c.lenient(Strings.self, "language")?.values.first
            published = c.lenient(String.self, "published")
            subjects = c.lenient(Names.self, "subject")?.values ?? []
            series = c.lenient(BelongsTo.self, "belongsTo")?.series
        }
    }

    /// `belongsTo.series`: an object with `name` and `position`, a list of them, or a name.
    struct BelongsTo: Decodable {
        var series: String?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            if let one = c.lenient(Series.self, "series") ?? c.lenient([Series].self, "series")?.first {
                series = one.name.map { name in one.position.map { "\(name), \($0)" } ?? name }
            } else {
                series = c.lenient(String.self, "series")
            }
        }

        struct Series: Decodable {
            var name: String?
            var position: String?

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: Key.self)
                name = c.lenient(String.self, "name")
                position =
                    c.lenient(Int.self, "position").map(String.init) ?? c.lenient(Double.self, "position").map {
                        "\($0)"
                    } ?? c.lenient(String.self, "position")
            }
        }
    }

    /// A string or a list of strings.
    struct Strings: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let one = try? c.decode(String.self) {
                values = [one]
            } else {
                values = try c.decode([Lenient<String>].self).compactMap(\.value)
            }
        }
    }

    /// A contributor field: a name, an object with a `name` (a string, or a map of languages to
    /// names), or a list of either.
    struct Names: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let one = try? c.decode(String.self) {
                values = [one]
            } else if let list = try? c.decode([Lenient<Names>].self) {
                values = list.flatMap { $0.value?.values ?? [] }
            } else {
                let object = try decoder.container(keyedBy: Key.self)
                if let name = object.lenient(String.self, "name") {
                    values = [name]
                } else if let translated = object.lenient([String: Lenient<String>].self, "name") {
                    values = translated.values.compactMap(\.value).prefix(1).map { $0 }
                } else {
                    values = []
                }
            }
        }
    }

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

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        metadata = c.lenient(Metadata.self, "metadata")
        links = c.lenientList(Link.self, "links")
        navigation = c.lenientList(Link.self, "navigation")
        publications = c.lenientList(Publication.self, "publications")
        groups = c.lenientList(Group.self, "groups")
        facets = c.lenientList(Facet.self, "facets")
        looksLikeAFeed = ["navigation", "publications", "groups", "links"].contains { c.contains(Key(stringValue: $0)) }
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
