import Catalog
import Foundation

/// The media types of the OPDS face.
enum OPDSType {
    static let navigation = "application/atom+xml;profile=opds-catalog;kind=navigation"
    static let acquisition = "application/atom+xml;profile=opds-catalog;kind=acquisition"
    static let entry = "application/atom+xml;type=entry;profile=opds-catalog"
    static let authentication = "application/vnd.opds.authentication.v1.0+json"
    static let openSearch = "application/opensearchdescription+xml"
    static let problem = "application/problem+json"
    static let epub = "application/epub+zip"
}

/// Writes the OPDS 1.2 face's documents (Atom feeds and entries with the Library Simplified
/// lending extensions), every href an absolute path on this server.
struct OPDSFeedWriter: Sendable {
    /// The library's time zone, in which a loan's last day ends.
    let timeZone: TimeZone
    /// The virtual clock now: every feed's `updated`.
    let now: Date
    /// The library's name, each feed's author.
    let libraryName: String
    /// The `Hostile` fault: books' words gain ``HostileText`` as in the API's JSON answers (the
    /// characters XML cannot carry arrive as U+FFFD; the rest, such as U+009B and U+202E, as they are).
    var hostile = false

    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let opdsNamespace = "http://opds-spec.org/2010/catalog"
    /// bok's own extension: `bok:reason` on `opds:availability` (`product`, `library`, `borrower`)
    /// and `bok:pace` (`3/7`) when the patron's pace is what stops them.
    static let bokNamespace = "urn:x-bok:opds"
    /// What an entry's `<id>` is made of: this, then the product's id.
    static let productURN = "urn:bok:product:"
    static let dctermsNamespace = "http://purl.org/dc/terms/"
    static let openSearchNamespace = "http://a9.com/-/spec/opensearch/1.1/"

    static let borrowRelation = "http://opds-spec.org/acquisition/borrow"
    static let revokeRelation = "http://librarysimplified.org/terms/rel/revoke"

    /// A link of a feed or an entry.
    struct Link: Sendable {
        var rel: String
        var href: String
        var type: String?
        var title: String?
        /// For facets: the group and whether this one is in force.
        var facetGroup: String?
        var activeFacet = false
    }

    /// A navigation entry: a title leading to another feed.
    struct Section: Sendable {
        var id: String
        var title: String
        var summary: String?
        var href: String
    }

    /// A book with how it stands for the patron asking.
    struct Book: Sendable {
        var product: Product
        var standing: BookStanding
    }

    /// Where a page sits in its whole list (OpenSearch's counts).
    struct Page: Sendable {
        var total: Int
        var offset: Int
        var limit: Int
    }

    // MARK: Documents

    /// A navigation feed of `sections`.
    func navigationFeed(id: String, title: String, links: [Link], sections: [Section]) -> String {
        var xml = XMLText()
        openFeed(&xml, id: id, title: title, links: links)
        for section in sections {
            xml.open("entry")
            xml.element("title", section.title)
            xml.element("id", section.id)
            xml.element("updated", stamp(now))
            if let summary = section.summary { xml.element("content", ["type": "text"], summary) }
            write(&xml, Link(rel: "subsection", href: section.href, type: OPDSType.acquisition))
            xml.close("entry")
        }
        xml.close("feed")
        return xml.text
    }

    /// An acquisition feed of `books`, with OpenSearch's counts when it is a page of a longer list.
    func acquisitionFeed(id: String, title: String, links: [Link], page: Page?, books: [Book]) -> String {
        var xml = XMLText()
        openFeed(&xml, id: id, title: title, links: links)
        if let page {
            xml.element("opensearch:totalResults", String(page.total))
            xml.element("opensearch:startIndex", String(page.offset + 1))
            xml.element("opensearch:itemsPerPage", String(page.limit))
        }
        for book in books { entry(&xml, book, namespaces: false) }
        xml.close("feed")
        return xml.text
    }

    /// One book as an entry document (`application/atom+xml;type=entry`).
    func entryDocument(_ book: Book) -> String {
        var xml = XMLText()
        entry(&xml, book, namespaces: true)
        return xml.text
    }

    /// The OpenSearch description of the face's search.
    func openSearchDescription(name: String, description: String) -> String {
        var xml = XMLText()
        xml.open("OpenSearchDescription", ["xmlns": Self.openSearchNamespace])
        xml.element("ShortName", "bok mock")
        xml.element("LongName", name)
        xml.element("Description", description)
        xml.element("InputEncoding", "UTF-8")
        xml.element("OutputEncoding", "UTF-8")
        xml.empty("Url", ["type": OPDSType.acquisition, "template": OPDSRoutes.base + "/search?q={searchTerms}"])
        xml.close("OpenSearchDescription")
        return xml.text
    }

    // MARK: Parts

    private func openFeed(_ xml: inout XMLText, id: String, title: String, links: [Link]) {
        xml.open(
            "feed",
            [
                "xmlns": Self.atomNamespace, "xmlns:opds": Self.opdsNamespace, "xmlns:bok": Self.bokNamespace,
                "xmlns:dcterms": Self.dctermsNamespace,
                "xmlns:opensearch": Self.openSearchNamespace,
            ])
        xml.element("id", id)
        xml.element("title", title)
        xml.element("updated", stamp(now))
        xml.open("author")
        xml.element("name", libraryName)
        xml.close("author")
        for link in links { write(&xml, link) }
    }

    private func write(_ xml: inout XMLText, _ link: Link) {
        xml.empty(
            "link",
            [
                "rel": link.rel, "href": link.href, "type": link.type, "title": link.title,
                "opds:facetGroup": link.facetGroup, "opds:activeFacet": link.activeFacet ? "true" : nil,
            ])
    }

    private func entry(_ xml: inout XMLText, _ book: Book, namespaces: Bool) {
        let product = hostile ? Self.infected(book.product) : book.product
        if namespaces {
            xml.open(
                "entry",
                [
                    "xmlns": Self.atomNamespace, "xmlns:opds": Self.opdsNamespace, "xmlns:bok": Self.bokNamespace,
                    "xmlns:dcterms": Self.dctermsNamespace,
                ])
        } else {
            xml.open("entry")
        }
        xml.element("id", Self.productURN + product.id)
        xml.element("title", product.title)
        xml.element("updated", stamp(product.publishedDate.map { $0.startDate(in: timeZone) } ?? now))
        for person in product.contributors {
            let element = person.role == .author ? "author" : "contributor"
            xml.open(element)
            xml.element("name", person.fullName)
            xml.close(element)
        }
        if let publisher = product.publisher { xml.element("dcterms:publisher", publisher) }
        if let language = product.language { xml.element("dcterms:language", language) }
        if let issued = product.publishedDate { xml.element("dcterms:issued", issued.description) }
        for isbn in product.isbns { xml.element("dcterms:identifier", "urn:isbn:" + isbn) }
        for category in product.categories { xml.empty("category", ["term": category, "label": category]) }
        // OPDS 1 has no series element; OPDS 2 has belongsTo.series {name, position}: the same here.
        if let series = product.series {
            xml.element("bok:series", ["position": series.order.map(String.init)], series.name)
        }
        if let blurb = product.description { xml.element("summary", ["type": "text"], blurb) }
        let path = OPDSRoutes.bookPath(product.id)
        write(&xml, Link(rel: "alternate", href: path, type: OPDSType.entry))
        if let cover = product.coverImage {
            write(&xml, Link(rel: "http://opds-spec.org/image", href: cover, type: "image/png"))
            write(&xml, Link(rel: "http://opds-spec.org/image/thumbnail", href: cover, type: "image/png"))
        }
        // The loan's file before the sample: a client taking the first EPUB acquisition gets the book.
        lending(&xml, book)
        if let teaser = product.teaser {
            write(&xml, Link(rel: "http://opds-spec.org/acquisition/sample", href: teaser.url, type: OPDSType.epub))
        }
        xml.close("entry")
    }

    /// The acquisition link and its lending state: a loan's file, or the borrow link (which
    /// borrows, or reserves a title that is out), and the revoke link for what is the patron's.
    private func lending(_ xml: inout XMLText, _ book: Book) {
        let standing = book.standing
        let id = book.product.id
        switch standing.mine {
        case .loan(let loan, let since, let lastDay):
            xml.open(
                "link",
                ["rel": "http://opds-spec.org/acquisition", "href": OPDSRoutes.fulfilPath(loan), "type": OPDSType.epub])
            xml.empty("opds:availability", ["status": "available", "since": stamp(since), "until": end(of: lastDay)])
            counts(&xml, standing, position: nil)
            xml.close("link")
        case .waiting(_, let since, let position, let estimate):
            openBorrow(&xml, id)
            // Palace writes a hold's expected end as `until`: the day the patron's turn is expected.
            xml.empty("opds:availability", ["status": "reserved", "since": stamp(since), "until": estimate.map(end)])
            counts(&xml, standing, position: position)
            xml.close("link")
        case .ready(_, let since, let lastDay, let position):
            openBorrow(&xml, id)
            xml.empty("opds:availability", ["status": "ready", "since": stamp(since), "until": end(of: lastDay)])
            counts(&xml, standing, position: position)
            xml.close("link")
        case .none:
            openBorrow(&xml, id)
            // Why a title is out for this patron (all copies out, the library's budget, their own limit) has no
            // word in the Library Simplified extensions; bok's mock says it in one attribute of its own.
            let availability = standing.availability
            xml.empty(
                "opds:availability",
                [
                    "status": availability.available ? "available" : "unavailable",
                    "bok:reason": availability.available ? nil : availability.reason?.word,
                    // The budget's new month and the patron's next loan day: when the title is not
                    // out, the day it can be borrowed, as `until` says for a hold.
                    "until": availability.reason == .product ? nil : availability.estimatedDate.map(end),
                    "bok:pace": availability.pace?.description,
                ])
            counts(&xml, standing, position: nil)
            xml.close("link")
        }
        if standing.isMine { write(&xml, Link(rel: Self.revokeRelation, href: OPDSRoutes.revokePath(id))) }
        // A loan's bookmarks and places, kept on the server (Palace's annotation service).
        if case .loan = standing.mine {
            write(
                &xml,
                Link(
                    rel: "http://www.w3.org/ns/oa#annotationService", href: OPDSRoutes.bookAnnotationsPath(id),
                    type: OPDSRoutes.annotationType))
        }
    }

    private func openBorrow(_ xml: inout XMLText, _ id: String) {
        xml.open("link", ["rel": Self.borrowRelation, "href": OPDSRoutes.borrowPath(id), "type": OPDSType.entry])
        xml.empty("opds:indirectAcquisition", ["type": OPDSType.epub])
    }

    private func counts(_ xml: inout XMLText, _ standing: BookStanding, position: Int?) {
        xml.empty("opds:holds", ["total": String(standing.holds), "position": position.map(String.init)])
        if let copies = standing.copies {
            xml.empty("opds:copies", ["total": String(copies.total), "available": String(copies.available)])
        }
    }

    /// The product's words with the hostile text the API's `Hostile` fault adds to the same fields.
    static func infected(_ product: Product) -> Product {
        var product = product
        product.title += HostileText.title
        product.contributors = product.contributors.map { person in
            var person = person
            person.firstName = HostileText.firstName + person.firstName
            person.lastName += HostileText.lastName
            return person
        }
        product.categories = product.categories.map { $0 + HostileText.category }
        product.description = product.description.map { HostileText.description + $0 }
        product.publisher = product.publisher.map { $0 + HostileText.name }
        return product
    }

    // MARK: Dates

    /// An instant as Atom writes it: `2026-11-18T09:00:00Z`.
    func stamp(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The last second of `day` in the library's time zone, in UTC. Its date part is `day` in
    /// Stockholm (and any zone at or east of UTC), so a client that reads only the date gets the
    /// same day as the Elib API's `ExpiryDate`.
    func end(of day: DayDate) -> String {
        stamp(day.adding(days: 1).startDate(in: timeZone).addingTimeInterval(-1))
    }
}
