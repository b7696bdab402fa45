public import Foundation
import Localization
import Synchronization
internal import TextSafety

/// A library that lends through OPDS (the Library Simplified extensions Palace's servers use),
/// seen as a lending service: the same search, loans, reservations and shelf as an Elib library,
/// so every command, the shelf's badges and a scenario file work over either protocol.
///
/// - Search follows the catalogue's search link; pages are gathered by following `next` links,
///   whatever page size the server uses. An order other than relevance is one of the feed's
///   facets (`Sort by` → Title, Author …; `Order` → Ascending, Descending); `top` and `new` are
///   the root's `http://opds-spec.org/sort/popular` and `…/sort/new` feeds. Filters the feed has
///   no facet for are applied to the gathered entries.
/// - The patron's card and PIN are the login (HTTP Basic, to the catalogue's own origin only).
///   The PIN of a card is the one the session keeps (the lookup given at creation), or the one a
///   call brings; the service keeps none of its own, so a new login or a logout takes effect at once.
/// - Loans and holds are the entries of the root's shelf feed (`http://opds-spec.org/shelf`);
///   a loan's id and a hold's id are the book's entry id; returning and cancelling follow the
///   entry's `revoke` link.
public final class OPDSLendingService: LendingService, PatronLending {
    /// The catalogue, without a login.
    public let client: OPDSClient
    private let storedPIN: @Sendable (String) -> String?
    private let state = Mutex(State())

    private struct State {
        var root: OPDSFeed?
        /// Books seen in any feed, by id: what `product(id:)`, `availability` and `createLoan` start from.
        var entries: [String: OPDSEntry] = [:]
        /// Results gathered so far, by what was asked.
        var listings: [ListingKey: Listing] = [:]
    }

    private struct ListingKey: Hashable {
        var query: String
        var sort: SortSpec
        var filters: SearchFilters
    }

    private struct Listing {
        var entries: [OPDSEntry]
        var next: URL?
        var total: Int?
        /// The filters no facet applied, applied here to each page.
        var filters: SearchFilters
    }

    /// Most pages followed in one call, so a filter few books pass cannot page through a huge catalogue.
    static let maxPages = 25
    /// Most books remembered by id.
    static let maxRemembered = 20_000

    /// A lending service over the catalogue `client` reaches; `storedPIN` gives a remembered PIN for a card.
    public init(client: OPDSClient, storedPIN: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.client = client
        self.storedPIN = storedPIN
    }

    // MARK: The catalogue

    public func search(_ request: SearchRequest) async throws -> SearchPage {
        let key = ListingKey(query: request.query, sort: request.sort, filters: request.filters)
        // A new list is asked for afresh (loans and the clock change availability); `more` pages on.
        let cached = request.offset == 0 ? nil : state.withLock { $0.listings[key] }
        var listing: Listing
        if let cached { listing = cached } else { listing = try await firstListing(key, card: request.card) }
        // Pages are followed until the hits asked for are there, a bounded number at a time: a filter
        // few books pass on a large catalogue must not page through all of it in one command.
        var pages = 0
        while let next = listing.next, listing.entries.count < request.offset + request.limit, pages < Self.maxPages {
            pages += 1
            let feed = try await login(request.card).feed(next)
            listing.next = feed.link("next")?.href
            listing.entries += remembered(feed.entries.filter { matches($0, listing.filters) })
        }
        let finished = listing
        state.withLock { $0.listings[key] = finished }
        // The feed's total where it gives one and nothing is filtered here; else what is known, and one
        // more while a next page exists, so that more goes on.
        let total =
            listing.filters.isEmpty && listing.total != nil
            ? max(listing.total!, listing.entries.count) : listing.entries.count + (listing.next == nil ? 0 : 1)
        let products = listing.entries.dropFirst(request.offset).prefix(request.limit).map(Self.product)
        return SearchPage(products: Array(products), total: total, offset: request.offset)
    }

    /// The first page of a list: the search (or the root's popular or new feed), then the facets that order it.
    private func firstListing(_ key: ListingKey, card: String?) async throws -> Listing {
        let client = login(card)
        let root = try await rootFeed()
        var feed: OPDSFeed
        var sort = key.sort
        if key.query.isEmpty, let popular = root.link("http://opds-spec.org/sort/popular"),
            sort == SortSpec(.popularity)
        {
            feed = try await client.feed(popular.href)
        } else if key.query.isEmpty, let new = root.link("http://opds-spec.org/sort/new"), sort == SortSpec(.date) {
            feed = try await client.feed(new.href)
        } else {
            feed = try await client.search(key.query, from: root)
            if sort.key == .relevance, sort.order == SortKey.relevance.defaultOrder { sort = SortSpec(.relevance) }
            feed = try await ordered(feed, by: sort, client: client)
        }
        var filters = key.filters
        // Books that can be borrowed now, where the feed has that facet (Palace's Availability group).
        if filters.availableOnly,
            let facet = Self.facet(
                in: feed, group: [TypedWord("typed: facet", "avail")], titled: [TypedWord("typed: facet", "now")])
        {
            if !facet.isActiveFacet { feed = try await client.feed(facet.href) }
            filters.availableOnly = false
        }
        return Listing(
            entries: remembered(feed.entries.filter { $0.navigation == nil && matches($0, filters) }),
            next: feed.link("next")?.href, total: feed.totalResults, filters: filters)
    }

    /// The feed in `sort`'s order, through its facets.
    private func ordered(_ feed: OPDSFeed, by sort: SortSpec, client: OPDSClient) async throws -> OPDSFeed {
        guard sort != SortSpec(.relevance) else { return feed }
        var feed = feed
        let names: [TypedWord] =
            switch sort.key {
            case .relevance: [TypedWord("typed: facet", "relevan")]
            case .title: [TypedWord("typed: facet", "title")]
            case .author: [TypedWord("typed: facet", "author")]
            case .date:
                [
                    TypedWord("typed: facet", "date"), TypedWord("typed: facet", "publish"),
                    TypedWord("typed: facet", "new"), TypedWord("typed: facet", "recent"),
                ]
            case .publisher: [TypedWord("typed: facet", "publisher")]
            case .popularity: [TypedWord("typed: facet", "popular")]
            case .rating: [TypedWord("typed: facet", "rating"), TypedWord("typed: facet", "rated")]
            }
        guard let facet = Self.facet(in: feed, group: [TypedWord("typed: facet", "sort")], titled: names) else {
            throw LendingError(
                .unsupported,
                tr(
                    "The catalogue at {server} cannot sort by {key}.",
                    ["server": client.displayName, "key": sort.key.word]))
        }
        if !facet.isActiveFacet { feed = try await client.feed(facet.href) }
        guard sort.order != sort.key.defaultOrder else { return feed }
        let word = sort.order == .ascending ? TypedWord("typed: facet", "asc") : TypedWord("typed: facet", "desc")
        let group = [TypedWord("typed: facet", "order"), TypedWord("typed: facet", "direction")]
        guard let facet = Self.facet(in: feed, group: group, titled: [word]) else {
            throw LendingError(
                .unsupported,
                tr(
                    "The catalogue at {server} sorts by {key} one way only.",
                    ["server": client.displayName, "key": sort.key.word]))
        }
        return facet.isActiveFacet ? feed : try await client.feed(facet.href)
    }

    /// The facet of a group whose name has one of `group` in it, titled with one of `titled`: each
    /// a part of a word (`relevan`), in English or in any language bok speaks, since a catalogue
    /// names its facets in the language bok asks for (`Sortera efter` · `Författare`).
    private static func facet(in feed: OPDSFeed, group: [TypedWord], titled: [TypedWord]) -> OPDSLink? {
        let groupParts = group.flatMap { [$0.english] + $0.otherNames }
        let titleParts = titled.flatMap { [$0.english] + $0.otherNames }
        return feed.facets.first { facet in
            let groupName = (facet.facetGroup ?? "").lowercased()
            let title = (facet.title ?? "").lowercased()
            return groupParts.contains { groupName.contains($0) } && titleParts.contains { title.contains($0) }
        }
    }

    private func matches(_ entry: OPDSEntry, _ filters: SearchFilters) -> Bool {
        guard entry.navigation == nil else { return false }
        if filters.availableOnly, entry.lending?.availability.available == false { return false }
        if let language = filters.language?.lowercased(),
            entry.language.map({ $0.lowercased().hasPrefix(language) }) != true
        {
            return false
        }
        if let category = filters.category?.lowercased(),
            !entry.subjects.contains(where: { $0.lowercased() == category })
        {
            return false
        }
        if let publisher = filters.publisher?.lowercased(), entry.publisher?.lowercased() != publisher { return false }
        return true
    }

    public func product(id: String) async throws -> Product {
        Self.product(await fresh(try await entry(id), card: nil))
    }

    public func availability(productID: String, card: String?) async throws -> Availability {
        let entry = await fresh(try await entry(productID), card: card)
        return entry.lending?.availability ?? Availability(available: entry.epub != nil)
    }

    public func library() async throws -> LibraryPage {
        let root = try await rootFeed()
        return LibraryPage(name: root.title.isEmpty ? client.displayName : root.title)
    }

    // MARK: Patrons, loans and holds

    public func verifyPatron(card: String, pin: String) async throws -> Patron {
        // The shelf feed wants the login; a catalogue without one is asked for its root with it.
        if try await rootFeed(card: card, pin: pin).link(OPDSFeed.shelfRelation) == nil {
            _ = try await login(card, pin: pin).feed()
        } else {
            _ = try await shelf(card: card, pin: pin)
        }
        return Patron(card: card, name: "", loansThisMonth: 0, maxLoansPerMonth: 0)
    }

    public func createLoan(card: String, pin: String, productID: String) async throws -> Loan {
        // As the library has it now for this patron, not as a list shown a while ago said.
        let entry = await fresh(try await entry(productID), card: card, pin: pin)
        // On loan to them already (a loan's entry: no borrow link, available until its last day): no second loan.
        if entry.borrowLink == nil, entry.lending?.until != nil, let loan = Self.loan(entry) { return loan }
        guard let link = entry.borrowLink else {
            throw LendingError(
                .rejected, tr("The library does not lend {title}.", ["title": entry.title]), reason: "product")
        }
        if entry.lending?.state == .reserved { throw Self.queuedAlready(entry) }
        if entry.lending?.state == .unavailable {
            throw LendingError(
                .rejected, tr("All copies of {title} are on loan.", ["title": entry.title]), status: 403,
                reason: entry.lending?.reason?.word ?? "product")
        }
        let answer = try await borrow(link, entry: entry, card: card, pin: pin)
        if let loan = Self.loan(answer) { return loan }
        // It went out between the look and the borrow, and the library put the patron in the queue.
        let place = Self.reservation(answer)?.queuePosition ?? 0
        throw LendingError(
            .rejected,
            place > 0
                ? tr(
                    "{title} went out before it could be lent to you; you are #{place} in the queue for it now.",
                    ["title": entry.title, "place": place])
                : tr("All copies of {title} are on loan.", ["title": entry.title]),
            status: 409, reason: "product")
    }

    /// `You are #2 in the queue for X already.`
    private static func queuedAlready(_ entry: OPDSEntry) -> LendingError {
        let place = entry.lending?.position ?? 0
        return LendingError(
            .rejected,
            place > 0
                ? tr("You are #{place} in the queue for {title} already.", ["title": entry.title, "place": place])
                : tr("You are in the queue for {title} already.", ["title": entry.title]),
            status: 409)
    }

    public func loans(card: String, onlyActive: Bool) async throws -> [Loan] {
        try await shelf(card: card).compactMap(Self.loan)
    }

    public func loan(id: String) async throws -> Loan {
        guard let loan = state.withLock({ $0.entries[id] }).flatMap(Self.loan) else {
            throw LendingError(.notFound, tr("The library no longer lists that loan."), status: 404)
        }
        return loan
    }

    public func returnLoan(id: String, card: String?) async throws {
        try await revoke(id, card: card) {
            tr("The library at {server} has no early return: the loan ends by itself on its last day.", ["server": $0])
        }
    }

    public func reserve(card: String, pin: String, productID: String) async throws -> Reservation {
        let entry = await fresh(try await entry(productID), card: card, pin: pin)
        if entry.lending?.state == .reserved || entry.lending?.state == .ready { throw Self.queuedAlready(entry) }
        guard let link = entry.borrowLink, entry.lending?.state == .unavailable else {
            throw LendingError(
                .rejected, tr("{title} can be borrowed now; there is no queue to join.", ["title": entry.title]),
                status: 409)
        }
        let answer = try await borrow(link, entry: entry, card: card, pin: pin)
        if let reservation = Self.reservation(answer) { return reservation }
        // A copy came back between the look and the hold: the library lent it instead.
        throw LendingError(
            .rejected,
            Self.loan(answer) != nil
                ? tr(
                    "A copy of {title} came back, so the library lent it to you instead of reserving it: loans "
                        + "shows it.",
                    ["title": entry.title])
                : tr(
                    "The library did not say whether {title} was reserved; reservations shows it.",
                    ["title": entry.title]),
            status: 409)
    }

    public func reservations(card: String) async throws -> [Reservation] {
        try await shelf(card: card).compactMap(Self.reservation)
    }

    public func cancelReservation(id: String, card: String?) async throws {
        try await revoke(id, card: card) {
            tr("The library at {server} does not let bok cancel a reservation; ask the library.", ["server": $0])
        }
    }

    /// The `Authorization` header for a file of `card`'s loan (on the catalogue's own origin only).
    public func authorization(for url: URL, card: String?) -> String? {
        login(card).authorization(for: url)
    }

    // MARK: Annotations

    /// Where the library keeps the patron's bookmarks and highlights of a loan, when it keeps them
    /// (Palace's annotation service): the service the loan links in the loans feed, the book's id,
    /// and the patron profile the authentication document links (it holds the patron's opt-in).
    /// Both on the catalogue's own origin, where the patron's login goes; nil otherwise.
    public func annotationLink(productID: String, card: String) async -> LibraryAnnotationLink? {
        func service(_ entry: OPDSEntry?) -> URL? {
            entry?.links.first { $0.relations.contains(LibraryAnnotations.serviceRelation) }?.href
        }
        // As the loans feed last gave it; a book last seen in a search or a borrow's answer is looked
        // for in the loans feed.
        var found = service(state.withLock { $0.entries[productID] })
        if found == nil { found = service((try? await shelf(card: card))?.first { $0.id == productID }) }
        guard let found, Origin(found) == Origin(client.root) else { return nil }
        let service = found
        return LibraryAnnotationLink(service: service, source: productID, profile: await profile())
    }

    /// The patron profile the authentication document links (on the catalogue's own origin), which
    /// holds the patron's settings; nil when there is none or it cannot be had.
    public func profile() async -> URL? {
        let profile = ((try? await client.authentication()) ?? nil)?.profile
            .flatMap { URL(string: $0, relativeTo: client.root)?.absoluteURL }
        return profile.flatMap { Origin($0) == Origin(client.root) ? $0 : nil }
    }

    // MARK: -

    /// The root feed, read once; with `card`'s login when the catalogue asks for one to show it
    /// (a members-only catalogue), so loans and the shelf work right after a borrow.
    private func rootFeed(card: String? = nil, pin: String? = nil) async throws -> OPDSFeed {
        if let root = state.withLock({ $0.root }) { return root }
        let root: OPDSFeed
        do {
            root = try await client.feed()
        } catch let error as LendingError where error.kind == .unauthorized {
            let member = login(card, pin: pin)
            guard member.user != nil else { throw error }
            root = try await member.feed()
        }
        state.withLock { $0.root = root }
        return root
    }

    /// The client with `card`'s login, when its PIN is known.
    private func login(_ card: String?, pin: String? = nil) -> OPDSClient {
        guard let card, let pin = pin ?? storedPIN(card) else { return client }
        return client.with(user: card, password: pin)
    }

    /// The book as the library has it now (for the patron, with their login), through its own
    /// entry's link; as last seen when it has none or it cannot be had.
    private func fresh(_ entry: OPDSEntry, card: String?, pin: String? = nil) async -> OPDSEntry {
        guard
            let link = entry.links.first(where: {
                $0.relations.contains("alternate") && $0.type?.lowercased().contains("type=entry") == true
            }),
            var now = try? await login(card, pin: pin).feed(link.href).entries.first
        else { return entry }
        now.id = entry.id
        return remembered([now])[0]
    }

    /// Keeps the books of a feed for `product(id:)`; returns them.
    private func remembered(_ entries: [OPDSEntry]) -> [OPDSEntry] {
        state.withLock { state in
            if state.entries.count + entries.count > Self.maxRemembered { state.entries.removeAll() }
            for entry in entries where entry.navigation == nil { state.entries[entry.id] = entry }
        }
        return entries
    }

    /// The entry bok has seen under `id`, or under an id whose last part it is: a patron (or a
    /// scenario written for an Elib library) gives the library's own number, `id:3963488`, where
    /// the feed names the book `urn:bok:product:3963488` or `https://host/works/3963488`.
    /// A book not seen yet is searched for by that number, for catalogues whose search knows it.
    private func entry(_ id: String) async throws -> OPDSEntry {
        func seen() -> OPDSEntry? {
            state.withLock { state -> OPDSEntry? in
                if let entry = state.entries[id] { return entry }
                let endings = state.entries.values.filter { Self.lastPart(of: $0.id) == id }
                return endings.count == 1 ? endings.first : nil
            }
        }
        if let found = seen() { return found }
        if !id.isEmpty, Self.lastPart(of: id) == id, (try? await search(SearchRequest(query: id, limit: 5))) != nil,
            let found = seen()
        {
            return found
        }
        throw LendingError(
            .notFound,
            tr(
                "bok has not seen that book in the catalogue at {server} this session; search for it again.",
                ["server": client.displayName]),
            status: 404)
    }

    /// The patron's loans and holds: the shelf feed with their login.
    private func shelf(card: String, pin: String? = nil) async throws -> [OPDSEntry] {
        // A catalogue that does not lend (calibre's) has no shelf: nothing is on loan from it.
        guard let link = try await rootFeed(card: card, pin: pin).link(OPDSFeed.shelfRelation) else { return [] }
        let client = login(card, pin: pin)
        guard client.user != nil else {
            throw LendingError(
                .unauthorized,
                tr("Log in first (login) so bok can fetch your loans from {server}.", ["server": client.displayName]),
                status: 401)
        }
        return remembered(try await client.feed(link.href).entries.filter { $0.navigation == nil })
    }

    private func borrow(_ link: OPDSLink, entry: OPDSEntry, card: String, pin: String) async throws -> OPDSEntry {
        var answer = try await client.with(user: card, password: pin).borrow(link)
        // The answer is the same book, whatever id the server writes on it.
        answer.id = entry.id
        if answer.title.isEmpty { answer.title = entry.title }
        if answer.authors.isEmpty { answer.authors = entry.authors }
        _ = remembered([answer])
        return answer
    }

    private func revoke(_ id: String, card: String?, unsupported: (String) -> String) async throws {
        guard let card else { throw LendingError(.invalidRequest, tr("Log in first (login).")) }
        guard let entry = try await shelf(card: card).first(where: { $0.id == id }) else {
            throw LendingError(.notFound, tr("The library no longer lists it."), status: 404)
        }
        guard let link = entry.revokeLink else {
            throw LendingError(.unsupported, unsupported(client.displayName))
        }
        if let answer = try await login(card).revoke(link) { _ = remembered([answer]) }
    }

    // MARK: Entries as the lending model

    static func product(_ entry: OPDSEntry) -> Product {
        Product(
            id: entry.id, title: entry.title,
            contributors: entry.authors.map(contributor),
            publisher: entry.publisher, publishedDate: entry.issued.flatMap { DayDate(string: String($0.prefix(10))) },
            language: entry.language, categories: entry.subjects, description: entry.summary ?? entry.content,
            coverImage: entry.links.first { $0.relations.contains("http://opds-spec.org/image") }?.href.absoluteString,
            isbns: entry.identifiers.compactMap { id in
                id.lowercased().hasPrefix("urn:isbn:") ? String(id.dropFirst(9)) : nil
            },
            formats: entry.formats.map { Product.Format(id: $0, name: $0) },
            teaser: entry.links.first {
                $0.relations.contains(OPDSLink.sampleRelation)
                    && $0.type?.hasPrefix("application/epub+zip") == true
            }.map { Product.Teaser(url: $0.href.absoluteString) },
            series: entry.series.map(series),
            availability: entry.lending?.availability ?? Availability(available: entry.epub != nil))
    }

    /// `3963488` of `urn:bok:product:3963488` or `https://host/works/3963488`.
    static func lastPart(of id: String) -> Substring {
        id.split(whereSeparator: { $0 == ":" || $0 == "/" }).last ?? Substring(id)
    }

    /// `Millennium, 2` → Millennium, book 2; a name without a number is the name alone.
    public static func series(_ text: String) -> Product.Series {
        if let comma = text.lastIndex(of: ","),
            let order = Int(String(text[text.index(after: comma)...]).trimmedWhitespace),
            order > 0
        {
            return Product.Series(name: String(text[..<comma]).trimmedWhitespace, order: order)
        }
        return Product.Series(name: text, order: nil)
    }

    /// "Selma Lagerlöf" → first name Selma, last name Lagerlöf; "Lagerlöf, Selma" the same.
    static func contributor(_ name: String) -> Contributor {
        if let comma = name.firstIndex(of: ",") {
            return Contributor(
                firstName: String(name[name.index(after: comma)...]).trimmedWhitespace,
                lastName: String(name[..<comma]).trimmedWhitespace)
        }
        guard let space = name.lastIndex(of: " ") else { return Contributor(firstName: "", lastName: name) }
        return Contributor(
            firstName: String(name[..<space]).trimmedWhitespace,
            lastName: String(name[name.index(after: space)...]).trimmedWhitespace)
    }

    /// A shelf entry on loan to the patron: available until its last day, with its file's link.
    static func loan(_ entry: OPDSEntry) -> Loan? {
        guard entry.borrowLink == nil, entry.lending.map({ $0.state == .available }) ?? (entry.epub != nil) else {
            return nil
        }
        let until = entry.lending?.until ?? DayDate(Date().addingTimeInterval(365 * 86_400))
        let file = entry.epub.map {
            [Loan.Link(formatID: "4104", contents: [.init(part: 1, url: $0.href.absoluteString)])]
        }
        return Loan(
            id: entry.id, productID: entry.id, title: entry.title,
            coverImage: entry.links.first { $0.relations.contains("http://opds-spec.org/image") }?.href.absoluteString,
            createdDate: nil, expiryDate: until, active: true, links: file ?? [])
    }

    /// A shelf entry the patron holds: waiting with a place, or ready until a day.
    static func reservation(_ entry: OPDSEntry) -> Reservation? {
        guard let lending = entry.lending, lending.state == .reserved || lending.state == .ready else { return nil }
        // A hold's `until` is when the patron's turn is expected (as Palace writes it); a ready one's, its last day.
        return Reservation(
            id: entry.id, productID: entry.id, title: entry.title, queuePosition: lending.position ?? 0,
            estimatedDate: lending.state == .reserved ? lending.until : nil,
            ready: lending.state == .ready, readyUntil: lending.state == .ready ? lending.until : nil)
    }
}
