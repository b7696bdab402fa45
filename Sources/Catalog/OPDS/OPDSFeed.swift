public import Foundation

/// A page of an OPDS catalogue (1.2 Atom or 2.0 JSON): its entries and where to go from it.
public struct OPDSFeed: Sendable, Hashable {
    /// The feed's title (`calibre Library :: By Title`).
    public var title: String
    /// Books (acquisition entries) and sub-catalogues (navigation entries), in the feed's order.
    public var entries: [OPDSEntry]
    /// The feed's own links: `next`, `previous`, `up`, `start`, `search`, facets.
    public var links: [OPDSLink]

    public init(title: String, entries: [OPDSEntry], links: [OPDSLink]) {
        self.title = title
        self.entries = entries
        self.links = links
    }

    /// The first link with relation `rel` (`next`, `previous`/`prev`, `up`, `start`, `search`).
    public func link(_ rel: String) -> OPDSLink? {
        links.first { $0.relations.contains(rel) || (rel == "previous" && $0.relations.contains("prev")) }
    }

    /// Facets the feed offers (`http://opds-spec.org/facet`), grouped as the feed groups them.
    public var facets: [OPDSLink] { links.filter { $0.relations.contains("http://opds-spec.org/facet") } }
}

/// One entry of a feed: a publication, or a link to another feed.
public struct OPDSEntry: Sendable, Hashable {
    public var id: String
    public var title: String
    public var authors: [String] = []
    /// A short summary (Atom `summary`, OPDS 2 `description`).
    public var summary: String?
    /// Longer content (Atom `content`), as text.
    public var content: String?
    public var publisher: String?
    public var language: String?
    /// When the book was issued (`dc:issued`, `published`), as the feed writes it.
    public var issued: String?
    public var subjects: [String] = []
    /// ISBNs and other identifiers (`dc:identifier`).
    public var identifiers: [String] = []
    /// The series name and position, where the feed gives them.
    public var series: String?
    public var links: [OPDSLink] = []

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Links that get the book (`http://opds-spec.org/acquisition…`), best first: open access, then plain.
    public var acquisitions: [OPDSLink] {
        links.filter { $0.relations.contains { $0.hasPrefix("http://opds-spec.org/acquisition") } }
            .sorted {
                ($0.relations.contains("http://opds-spec.org/acquisition/open-access") ? 0 : 1)
                    < ($1.relations.contains("http://opds-spec.org/acquisition/open-access") ? 0 : 1)
            }
    }

    /// The EPUB to download, when the entry offers one.
    public var epub: OPDSLink? { acquisitions.first { $0.type?.hasPrefix("application/epub+zip") == true } }

    /// The feed this entry leads to, when it is a navigation entry (not a book).
    public var navigation: OPDSLink? {
        guard acquisitions.isEmpty else { return nil }
        return links.first { $0.isFeed && !$0.relations.contains { $0.hasPrefix("http://opds-spec.org/image") } }
    }

    /// Formats the entry can be had in, named for a person (`EPUB`, `PDF`, `MOBI`).
    public var formats: [String] {
        acquisitions.compactMap { link in
            guard let type = link.type?.split(separator: ";").first?.lowercased() else { return nil }
            switch type {
            case "application/epub+zip": return "EPUB"
            case "application/pdf": return "PDF"
            case "application/x-mobipocket-ebook": return "MOBI"
            case "application/vnd.amazon.ebook", "application/x-mobi8-ebook": return "AZW3"
            case "text/plain": return "TXT"
            default: return type.split(separator: "/").last.map { $0.uppercased() }
            }
        }
    }
}

/// A link in a feed, resolved against the feed's address.
public struct OPDSLink: Sendable, Hashable {
    public var href: URL
    /// The relations (`rel` may list several, space-separated).
    public var relations: [String]
    public var type: String?
    public var title: String?
    /// The size in bytes, where the feed gives it.
    public var length: Int?
    /// A facet's group (`opds:facetGroup`).
    public var facetGroup: String?
    /// Whether this facet is the one in force (`opds:activeFacet`).
    public var isActiveFacet = false

    public init(href: URL, relations: [String] = [], type: String? = nil, title: String? = nil, length: Int? = nil) {
        self.href = href
        self.relations = relations
        self.type = type
        self.title = title
        self.length = length
    }

    /// Whether the link leads to another feed (an Atom or OPDS 2 catalogue).
    public var isFeed: Bool {
        guard let type = type?.lowercased() else { return false }
        return type.hasPrefix("application/atom+xml") || type.hasPrefix("application/opds+json")
    }
}
