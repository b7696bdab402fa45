import Catalog
import Foundation
import Hummingbird
import NIOCore

/// The OPDS 1.2 face of the mock library, with the Library Simplified (Palace) lending
/// extensions, under `/opds/`: the same library as the Elib API, the same state, rules and faults.
///
/// Catalogue routes are here; borrowing, the shelf, returning and the file are in
/// `OPDSRoutes+Lending.swift`. A request may carry `Authorization: Basic card:PIN`; with a right
/// PIN every entry is written for that patron, otherwise for anyone. A wrong PIN counts toward
/// the card's lock as it does on the Elib API, so the face cannot be used to guess PINs.
struct OPDSRoutes: Sendable {
    let library: MockLibrary
    /// The route that serves loans' EPUBs, reused for `fulfil`.
    let content: ContentRoutes
    /// The catalogue's categories in the library's alphabetical order, one navigation entry each.
    let categories: [String]

    /// The path the face lives under.
    static let base = "/opds"

    static func bookPath(_ id: String) -> String { "\(base)/books/\(id)" }
    static func borrowPath(_ id: String) -> String { "\(base)/books/\(id)/borrow" }
    static func revokePath(_ id: String) -> String { "\(base)/books/\(id)/revoke" }
    static func fulfilPath(_ loanID: String) -> String { "\(base)/loans/\(loanID)/fulfil" }

    init(library: MockLibrary) {
        self.library = library
        content = ContentRoutes(library: library)
        let collation = Collation(locale: MockLibraryPage.locale)
        categories = library.search.index.categoryNames.map { ($0, collation.key($0)) }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    func register(on opds: RouterGroup<MockRequestContext>) {
        opds.get { request, _ in root(request) }
        opds.get("search.xml") { request, _ in openSearch(request) }
        opds.get("search") { request, _ in try search(request) }
        opds.get("top") { request, _ in try list(request, sort: .popularity, title: Said("Popular"), path: "top") }
        opds.get("new") { request, _ in try list(request, sort: .date, title: Said("New"), path: "new") }
        opds.get("authentication") { request, _ in authentication(request) }
        opds.get("books/:id") { request, context in try book(request, id: context.parameters.require("id")) }
        registerLending(on: opds)
        registerAnnotations(on: opds)
    }

    // MARK: Navigation

    func root(_ request: Request) -> Response {
        let name = library.libraryPage().name
        let say = Said.translations(for: request)
        let links = [
            OPDSFeedWriter.Link(rel: "self", href: Self.base + "/", type: OPDSType.navigation),
            OPDSFeedWriter.Link(rel: "start", href: Self.base + "/", type: OPDSType.navigation),
            OPDSFeedWriter.Link(rel: "search", href: Self.base + "/search.xml", type: OPDSType.openSearch),
            OPDSFeedWriter.Link(
                rel: "http://opds-spec.org/shelf", href: Self.base + "/loans", type: OPDSType.acquisition,
                title: say(Said("Loans"))),
            OPDSFeedWriter.Link(
                rel: "http://opds-spec.org/sort/popular", href: Self.base + "/top", type: OPDSType.acquisition,
                title: say(Said("Popular"))),
            OPDSFeedWriter.Link(
                rel: "http://opds-spec.org/sort/new", href: Self.base + "/new", type: OPDSType.acquisition,
                title: say(Said("New"))),
            OPDSFeedWriter.Link(
                rel: "http://opds-spec.org/auth/document", href: Self.base + "/authentication",
                type: OPDSType.authentication),
        ]
        let sections =
            [
                OPDSFeedWriter.Section(
                    id: "urn:bok:opds:top", title: say(Said("Popular")),
                    summary: say(Said("The most borrowed books first.")),
                    href: Self.base + "/top"),
                OPDSFeedWriter.Section(
                    id: "urn:bok:opds:new", title: say(Said("New")), summary: say(Said("The newest books first.")),
                    href: Self.base + "/new"),
            ]
            + categories.map { category in
                OPDSFeedWriter.Section(
                    id: "urn:bok:opds:category:" + Self.encoded(category), title: category, summary: nil,
                    href: Self.base + "/search" + Self.query([("category", category)]))
            }
        let xml = writer().navigationFeed(id: "urn:bok:opds:root", title: name, links: links, sections: sections)
        return Self.answer(xml, type: OPDSType.navigation)
    }

    func openSearch(_ request: Request) -> Response {
        let name = library.libraryPage().name
        let description = Said(
            "Search the catalogue of {library}: words, or author:, title:, category: terms.", ["library": .text(name)])
        let xml = writer().openSearchDescription(name: name, description: description.text(for: request))
        return Self.answer(xml, type: OPDSType.openSearch)
    }

    /// The authentication document (Authentication for OPDS 1.0, basic flow with the library's labels).
    func authentication(_ request: Request) -> Response {
        JSONResponse.raw(authenticationDocument(request), status: .ok, contentType: OPDSType.authentication)
    }

    func authenticationDocument(_ request: Request) -> Data {
        let origin = LibraryRoutes.origin(of: request, fallback: library.configuration)
        let say = Said.translations(for: request)
        let document = AuthenticationDocument(
            id: origin + Self.base + "/authentication", title: library.libraryPage().name,
            description: say(Said("Log in with your library card and PIN.")),
            authentication: [
                .init(
                    type: "http://opds-spec.org/auth/basic",
                    labels: .init(login: say(Said("Library card")), password: say(Said("PIN"))))
            ],
            links: [
                .init(rel: "start", href: Self.base + "/", type: OPDSType.navigation),
                // Palace's patron profile, whose settings hold the opt-in to keep annotations.
                .init(
                    rel: "http://librarysimplified.org/terms/rel/user-profile", href: Self.profilePath,
                    type: Self.profileType),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(document)) ?? Data()
    }

    private struct AuthenticationDocument: Encodable {
        struct Flow: Encodable {
            struct Labels: Encodable {
                let login: String
                let password: String
            }
            let type: String
            let labels: Labels
        }
        struct Link: Encodable {
            let rel: String
            let href: String
            let type: String
        }
        let id: String
        let title: String
        let description: String
        let authentication: [Flow]
        let links: [Link]
    }

    // MARK: Books

    /// `GET /opds/search`: the Elib search route's search (same query syntax, options and
    /// ranking) as an acquisition feed with paging and sort facets.
    func search(_ request: Request) throws -> Response {
        let parameters = QueryParameters(request.uri.query)
        var options = try Self.options(parameters)
        let viewer = viewer(request)
        options.card = viewer.card
        let (products, total) = library.searchPage(options)
        let say = Said.translations(for: request)
        let title: String
        if !options.text.allSatisfy(\.isWhitespace) {
            title = say(Said("Search: {words}", ["words": .text(options.text)]))
        } else if let category = parameters["category"], !category.isEmpty {
            title = category
        } else {
            title = say(Said("All books"))
        }
        let kept = Self.kept(
            parameters, ["q", "sort", "order", "limit", "available", "language", "category", "publisher"])
        var links = Self.pageLinks(path: Self.base + "/search", kept: kept, options: options, total: total)
        links.append(OPDSFeedWriter.Link(rel: "search", href: Self.base + "/search.xml", type: OPDSType.openSearch))
        links.append(OPDSFeedWriter.Link(rel: "start", href: Self.base + "/", type: OPDSType.navigation))
        let unsorted = kept.filter { $0.0 != "sort" && $0.0 != "order" }
        let facets: [(SortKey, String)] = [
            (.relevance, say(Said("Relevance"))), (.title, say(Said("Title"))), (.author, say(Said("Author"))),
            (.date, say(Said("Date"))), (.popularity, say(Said("Popularity"))),
        ]
        for (key, name) in facets {
            links.append(
                OPDSFeedWriter.Link(
                    rel: "http://opds-spec.org/facet",
                    href: Self.base + "/search" + Self.query(unsorted + [("sort", key.rawValue)]),
                    type: OPDSType.acquisition, title: name, facetGroup: say(Said("Sort by")),
                    activeFacet: options.sort.key == key))
        }
        // The other direction of the order in force, and books that can be borrowed now (Palace's groups).
        let sorted = unsorted + [("sort", options.sort.key.rawValue)]
        for (order, name) in [(SortOrder.ascending, say(Said("Ascending"))), (.descending, say(Said("Descending")))] {
            links.append(
                OPDSFeedWriter.Link(
                    rel: "http://opds-spec.org/facet",
                    href: Self.base + "/search"
                        + Self.query(sorted + [("order", order == .ascending ? "asc" : "desc")]),
                    type: OPDSType.acquisition, title: name, facetGroup: say(Said("Order")),
                    activeFacet: options.sort.order == order))
        }
        let everything = kept.filter { $0.0 != "available" }
        for (now, name) in [(true, say(Said("Available now"))), (false, say(Said("All")))] {
            links.append(
                OPDSFeedWriter.Link(
                    rel: "http://opds-spec.org/facet",
                    href: Self.base + "/search" + Self.query(everything + (now ? [("available", "1")] : [])),
                    type: OPDSType.acquisition, title: name, facetGroup: say(Said("Availability")),
                    activeFacet: options.availableOnly == now))
        }
        return feed(request, viewer, title: title, links: links, options: options, products: products, total: total)
    }

    /// `GET /opds/top` and `/opds/new`: the lists bok's `top` and `new` ask the Elib API for (an
    /// empty query by popularity, or by date), paged like a search.
    func list(_ request: Request, sort: SortKey, title: Said, path: String) throws -> Response {
        let parameters = QueryParameters(request.uri.query)
        var options = try Self.options(parameters)
        options.query = nil
        options.text = ""
        options.sort = SortSpec(sort)
        let viewer = viewer(request)
        options.card = viewer.card
        let (products, total) = library.searchPage(options)
        let kept = Self.kept(parameters, ["limit", "available", "language", "category", "publisher"])
        var links = Self.pageLinks(path: Self.base + "/" + path, kept: kept, options: options, total: total)
        links.append(OPDSFeedWriter.Link(rel: "start", href: Self.base + "/", type: OPDSType.navigation))
        links.append(OPDSFeedWriter.Link(rel: "search", href: Self.base + "/search.xml", type: OPDSType.openSearch))
        return feed(
            request, viewer, title: title.text(for: request), links: links, options: options, products: products,
            total: total)
    }

    /// `GET /opds/books/{id}`: one book as an entry document, for the patron when logged in.
    func book(_ request: Request, id: String) throws -> Response {
        guard let index = library.index(of: id) else { throw OPDSProblem.unknownBook(id) }
        let viewer = viewer(request)
        let book = OPDSFeedWriter.Book(
            product: library.catalog.products[index], standing: BookStanding(index, card: viewer.card, in: viewer.state)
        )
        return Self.answer(writer(viewer.state).entryDocument(book), type: OPDSType.entry)
    }

    private func feed(
        _ request: Request, _ viewer: Viewer, title: String, links: [OPDSFeedWriter.Link], options: SearchOptions,
        products: [Product], total: Int
    ) -> Response {
        let books = products.compactMap { product -> OPDSFeedWriter.Book? in
            guard let index = library.index(of: product.id) else { return nil }
            return OPDSFeedWriter.Book(
                product: library.catalog.products[index],
                standing: BookStanding(index, card: viewer.card, in: viewer.state))
        }
        let selfLink = OPDSFeedWriter.Link(
            rel: "self", href: request.uri.path + (request.uri.query.map { "?" + $0 } ?? ""),
            type: OPDSType.acquisition)
        let xml = writer(viewer.state).acquisitionFeed(
            id: "urn:bok:opds:" + selfLink.href, title: title, links: [selfLink] + links,
            page: OPDSFeedWriter.Page(total: total, offset: options.offset, limit: options.limit), books: books)
        return Self.answer(xml, type: OPDSType.acquisition)
    }

    // MARK: The patron asking

    /// The state as the request's patron sees it, and their card when the request's login is right.
    struct Viewer: Sendable {
        var card: String?
        var state: LibraryState
    }

    /// Who asks: with a login, the PIN is checked (a wrong one counts toward the lock, and the
    /// page is then written for anyone); the state is read in the same step.
    func viewer(_ request: Request) -> Viewer {
        guard let login = BasicLogin(request) else { return Viewer(card: nil, state: library.read { copy $0 }) }
        return library.update { state in
            let known = (try? state.authenticate(card: login.card, pin: login.pin)) != nil
            return Viewer(card: known ? login.card : nil, state: state)
        }
    }

    /// The writer for a page of `state` (the state now when nil), hostile when the fault says so.
    func writer(_ state: LibraryState? = nil) -> OPDSFeedWriter {
        let (now, hostile) =
            state.map { ($0.clock, $0.faults.hostile) } ?? library.read { ($0.clock, $0.faults.hostile) }
        return OPDSFeedWriter(
            timeZone: library.configuration.rules.timeZone, now: now, libraryName: MockLibraryPage.name,
            hostile: hostile)
    }

    // MARK: Parameters and links

    static func options(_ parameters: QueryParameters) throws -> SearchOptions {
        do {
            return try SearchOptions(parameters)
        } catch {
            throw OPDSProblem(
                status: .badRequest, type: OPDSProblem.problemBase + "invalid-input", title: Said("Invalid request"),
                detail: error.reason)
        }
    }

    /// The parameters among `names` the request gave, in that order, to carry into other pages' links.
    static func kept(_ parameters: QueryParameters, _ names: [String]) -> [(String, String)] {
        names.compactMap { name in parameters[name].flatMap { $0.isEmpty ? nil : (name, $0) } }
    }

    /// `next`, `previous` and `first`, each only when there is such a page.
    static func pageLinks(
        path: String, kept: [(String, String)], options: SearchOptions, total: Int
    ) -> [OPDSFeedWriter.Link] {
        let limit = options.limit
        let withoutLimit = kept.filter { $0.0 != "limit" } + [("limit", String(limit))]
        func page(_ offset: Int) -> String {
            path + query(withoutLimit + (offset > 0 ? [("offset", String(offset))] : []))
        }
        var links: [OPDSFeedWriter.Link] = []
        if options.offset + limit < total {
            links.append(.init(rel: "next", href: page(options.offset + limit), type: OPDSType.acquisition))
        }
        if options.offset > 0 {
            links.append(.init(rel: "previous", href: page(max(0, options.offset - limit)), type: OPDSType.acquisition))
            links.append(.init(rel: "first", href: page(0), type: OPDSType.acquisition))
        }
        return links
    }

    /// `?a=1&b=x%20y`, every value percent-encoded (a `+` or `&` in a query stays itself).
    static func query(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "?" + pairs.map { "\($0)=\(encoded($1))" }.joined(separator: "&")
    }

    /// `value` with everything but ASCII letters, digits and `-._~` percent-encoded
    /// (`CharacterSet.alphanumerics` would let `Å` through as it is).
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func answer(_ xml: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        JSONResponse.raw(Data(xml.utf8), status: status, contentType: type)
    }
}
