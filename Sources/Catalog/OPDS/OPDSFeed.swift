public import Foundation

/// A page of an OPDS catalogue (1.2 Atom or 2.0 JSON): its entries and where to go from it.
public struct OPDSFeed: Sendable, Hashable {
    /// The feed's title (`calibre Library :: By Title`).
    public var title: String
    /// Books (acquisition entries) and sub-catalogues (navigation entries), in the feed's order.
    public var entries: [OPDSEntry]
    /// The feed's own links: `next`, `previous`, `up`, `start`, `search`, facets.
    public var links: [OPDSLink]
    /// Entries on all pages, where the feed says (`opensearch:totalResults`, OPDS 2 `numberOfItems`).
    public var totalResults: Int?

    public init(title: String, entries: [OPDSEntry], links: [OPDSLink], totalResults: Int? = nil) {
        self.title = title
        self.entries = entries
        self.links = links
        self.totalResults = totalResults
    }

    /// The relation of the patron's shelf: their loans and holds (`http://opds-spec.org/shelf`).
    public static let shelfRelation = "http://opds-spec.org/shelf"

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
    /// A sample or preview is not the book, and is not among them.
    public var acquisitions: [OPDSLink] {
        links.filter { link in
            link.relations.contains { $0.hasPrefix("http://opds-spec.org/acquisition") }
                && !link.relations.contains { $0 == OPDSLink.sampleRelation || $0 == "preview" }
        }
        .sorted {
            ($0.relations.contains("http://opds-spec.org/acquisition/open-access") ? 0 : 1)
                < ($1.relations.contains("http://opds-spec.org/acquisition/open-access") ? 0 : 1)
        }
    }

    /// The EPUB to download, when the entry offers one.
    public var epub: OPDSLink? { acquisitions.first { $0.type?.hasPrefix("application/epub+zip") == true } }

    /// The link that borrows the book, or places a hold when it is out (`…/acquisition/borrow`).
    public var borrowLink: OPDSLink? { links.first { $0.relations.contains(OPDSLink.borrowRelation) } }

    /// The link that returns the patron's loan early or cancels their hold (Library Simplified's `revoke`).
    public var revokeLink: OPDSLink? { links.first { $0.relations.contains(OPDSLink.revokeRelation) } }

    /// Whether and how the library lends the book (Library Simplified / Palace extensions): from
    /// the borrow link, else from the first acquisition link that carries it; nil when none does
    /// (the book is then free to get, as in calibre).
    public var lending: OPDSLending? {
        borrowLink?.lending ?? acquisitions.lazy.compactMap(\.lending).first
    }

    /// The feed this entry leads to, when it is a navigation entry (not a book).
    public var navigation: OPDSLink? {
        guard acquisitions.isEmpty else { return nil }
        return links.first { $0.isFeed && !$0.relations.contains { $0.hasPrefix("http://opds-spec.org/image") } }
    }

    /// Formats the entry can be had in, named for a person (`EPUB`, `PDF`, `MOBI`).
    public var formats: [String] {
        acquisitions.compactMap { link in
            // A borrow link's own type is the loan's entry; the book's format is its indirect acquisition.
            let named =
                link.indirectTypes.last
                ?? (link.isFeed || link.type?.lowercased().contains("opds-publication") == true ? nil : link.type)
            // An EPUB behind a DRM licence (Palace's Adobe ACS and Readium LCP loans) is named so: bok cannot open it.
            let steps = ([link.type] + link.indirectTypes).compactMap { $0?.lowercased() }
            if steps.contains(where: { $0.hasPrefix("application/vnd.adobe.adept+xml") }) { return "EPUB (Adobe DRM)" }
            if steps.contains(where: { $0.hasPrefix("application/vnd.readium.lcp.license") }) { return "EPUB (LCP)" }
            guard let type = named?.split(separator: ";").first?.lowercased() else { return nil }
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
    /// The types the link leads to through other steps (`opds:indirectAcquisition`), outermost first.
    public var indirectTypes: [String] = []
    /// Availability, holds and copies of a library's lending (on acquisition links).
    public var lending: OPDSLending?

    /// The relation of a link that borrows a book (`http://opds-spec.org/acquisition/borrow`).
    public static let borrowRelation = "http://opds-spec.org/acquisition/borrow"
    /// The relation of a book's sample (`http://opds-spec.org/acquisition/sample`).
    public static let sampleRelation = "http://opds-spec.org/acquisition/sample"
    /// The relation of a link that ends a loan or a hold (`http://librarysimplified.org/terms/rel/revoke`).
    public static let revokeRelation = "http://librarysimplified.org/terms/rel/revoke"

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

/// A library's lending of one book, as the Library Simplified extensions to OPDS describe it:
/// `opds:availability`, `opds:holds` and `opds:copies` in Atom, `properties.availability`,
/// `.holds` and `.copies` in OPDS 2.
public struct OPDSLending: Sendable, Hashable {
    /// Can this patron have the book now (the extension's `status`, `state` in OPDS 2)?
    public enum State: String, Sendable, Hashable {
        /// It can be borrowed now, or is on loan to the patron (then `until` is the loan's end).
        case available
        /// All copies are out: following the borrow link places a hold.
        case unavailable
        /// The patron holds it and waits in the queue.
        case reserved
        /// The patron's hold has come in: borrow it by `until`.
        case ready
    }

    public var state: State
    /// Since when, as the feed writes it.
    public var since: DayDate?
    /// Until when: a loan's last day, the day a ready hold lapses, or, for a title out for this
    /// patron, the day the mock expects it or a loan can be made again.
    public var until: DayDate?
    /// Patrons waiting (`holds total`).
    public var holds: Int?
    /// The patron's place in the queue (`holds position`).
    public var position: Int?
    /// Copies the library has (`copies total`).
    public var copies: Int?
    /// Copies on the shelf now (`copies available`).
    public var copiesAvailable: Int?
    /// Why a title is out for this patron, where the server says (the mock's `bok:reason`): all
    /// copies on loan (`product`, what an out title means otherwise), the library's budget, or the
    /// patron's own limit.
    public var reason: UnavailableReason?
    /// The pace that stops this patron, with `borrower` (the mock's `bok:pace`, `3/7`).
    public var pace: LoanPace?

    public init(
        state: State, since: DayDate? = nil, until: DayDate? = nil, holds: Int? = nil, position: Int? = nil,
        copies: Int? = nil, copiesAvailable: Int? = nil
    ) {
        self.state = state
        self.since = since
        self.until = until
        self.holds = holds
        self.position = position
        self.copies = copies
        self.copiesAvailable = copiesAvailable
    }

    /// The state from the feed's word; an unknown word is nil (the book is then treated as not lent).
    public init?(word: String) {
        guard let state = State(rawValue: word.trimmedWhitespace.lowercased()) else { return nil }
        self.init(state: state)
    }

    /// The same as the lending library's availability, so bok says it in the same words: available,
    /// or all copies on loan with the patrons waiting.
    public var availability: Availability {
        switch state {
        case .available, .ready:
            return Availability(available: true, copies: copies)
        case .unavailable:
            return Availability(
                available: false, reason: reason ?? .product, copies: copies, waiting: holds, estimatedDate: until,
                pace: pace)
        case .reserved:
            return Availability(available: false, reason: reason ?? .product, copies: copies, waiting: holds)
        }
    }
}
