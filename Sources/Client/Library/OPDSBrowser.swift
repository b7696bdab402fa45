import Catalog
import Foundation
import Logging

/// Where the patron is in an OPDS catalogue: the feed on screen (whose entries the numbers
/// mean), and the feeds before it for `back`.
@MainActor
final class OPDSBrowser {
    /// The catalogue, with the login in use (if any).
    private(set) var client: OPDSClient
    /// Where a login remembered with `login --remember` is kept; it is read before the first request.
    var credentialStore: CredentialStore?
    /// True once the remembered login was looked for (or a login was given).
    private var checkedRemembered = false
    /// True once the catalogue's own words about logging in (its authentication document's title
    /// and description) were shown, so a second login does not repeat them.
    var introShown = false
    /// The page on screen: the feed, the search that found it, and which of its entries show.
    private(set) var page: OPDSPage?
    /// The feed on screen.
    var feed: OPDSFeed? { page?.feed }
    /// What a search asked, when the feed is a search's results.
    var query: String? { page?.query }
    /// The pages before this one, for `back`.
    private var history: [OPDSPage] = []
    /// True when `back` has somewhere to go.
    var canGoBack: Bool { !history.isEmpty }

    /// Told of every login and logout, so the session's loans and shelf use the same login.
    var onLogin: ((_ user: String?, _ password: String?) -> Void)?

    init(client: OPDSClient) { self.client = client }

    /// Logs in with `user` and `password` (or out, with nil): requests from now on carry them.
    func use(user: String?, password: String?) {
        client = client.with(user: user, password: password)
        checkedRemembered = true
        onLogin?(user, password)
    }

    /// Takes up the login remembered for this catalogue, the first time a request is made.
    /// - Throws: `UserError` when the credentials file may not be used (others can read it).
    func takeUpRememberedLogin() throws {
        guard !checkedRemembered, client.user == nil, let credentialStore else { return }
        if let login = try credentialStore.catalogueLogin(for: client.root) {
            use(user: login.user, password: login.password)
        }
        checkedRemembered = true
    }

    /// Shows the feed at `address` (the root when nil); the one on screen is kept for `back`.
    /// - Parameter keepingQuery: true for an order or a filter of the search on screen.
    func open(_ address: URL? = nil, keepingQuery: Bool = false) async throws -> OPDSPage {
        try takeUpRememberedLogin()
        let query = keepingQuery ? self.query : nil
        return show(OPDSPage(feed: try await client.feed(address), query: query))
    }

    /// The results of a search, through the search link of the feed on screen or of the root.
    func search(_ terms: String) async throws -> OPDSPage {
        try takeUpRememberedLogin()
        let from: OPDSFeed
        if let feed, feed.link("search") != nil { from = feed } else { from = try await client.feed() }
        return show(OPDSPage(feed: try await client.search(terms, from: from), query: terms))
    }

    /// The entries after those on screen: the rest of this feed when the window showed only
    /// part of it, else the feed's next page, numbered on from this one. Nil at the last.
    func more() async throws -> OPDSPage? {
        guard var page else { return nil }
        if page.start + page.shown < page.feed.entries.count {
            page.start += page.shown
            return show(page)
        }
        guard let next = page.feed.link("next") else { return nil }
        try takeUpRememberedLogin()
        var following = OPDSPage(feed: try await client.feed(next.href), query: page.query)
        following.firstNumber = page.firstNumber + page.feed.entries.count
        return show(following)
    }

    /// Back to the page before this one, or nil at the first.
    func back() -> OPDSPage? {
        guard let previous = history.popLast() else { return nil }
        page = previous
        return previous
    }

    /// Records how many entries the page on screen shows, from its first (the window's fit).
    func showing(_ count: Int) {
        page?.shown = count
    }

    /// Entry `number` of the feed on screen, counted as the screen numbers it.
    func entry(_ number: Int) -> OPDSEntry? {
        guard let page, let index = page.index(of: number) else { return nil }
        return page.feed.entries[index]
    }

    /// Puts `entry` in place of entry `number` of the feed on screen (a book just borrowed, with
    /// its file's link), so that read N and get N reach the loan.
    func replace(_ number: Int, with entry: OPDSEntry) {
        guard let index = page?.index(of: number) else { return }
        page?.feed.entries[index] = entry
    }

    private func show(_ next: OPDSPage) -> OPDSPage {
        if let page { history.append(page) }
        if history.count > 64 { history.removeFirst() }
        page = next
        return next
    }
}

/// A page of a catalogue as shown: the feed, the search that found it, the number its first
/// entry has (numbers go on across the pages of a list, as search results' do), and which of its
/// entries are on screen (a feed longer than the window shows in parts, `more` shows the rest).
struct OPDSPage {
    var feed: OPDSFeed
    /// What a search asked, when the feed is a search's results (or an order of them).
    var query: String?
    /// The number of the feed's first entry: 1, or 21 on the page after one of 20.
    var firstNumber = 1
    /// The index of the first entry on screen.
    var start = 0
    /// How many entries are on screen from `start` (all of them until the page is drawn).
    var shown = Int.max

    init(feed: OPDSFeed, query: String?) {
        self.feed = feed
        self.query = query
    }

    /// The index in the feed of the entry numbered `number`, if the feed has it.
    func index(of number: Int) -> Int? {
        let index = number - firstNumber
        return feed.entries.indices.contains(index) ? index : nil
    }

    /// The numbers the feed's entries have.
    var numbers: ClosedRange<Int>? {
        feed.entries.isEmpty ? nil : firstNumber...(firstNumber + feed.entries.count - 1)
    }

    /// Entries in all pages of the list: as the feed says, or counted when this is the last page.
    var total: Int? {
        feed.totalResults ?? (feed.link("next") == nil ? firstNumber - 1 + feed.entries.count : nil)
    }
}

extension Session {
    /// Browses `browser`'s catalogue with this session's credentials file: a login remembered with
    /// `login --remember` is taken up now, and every login is the card the loans and shelf are kept under.
    func attach(_ browser: OPDSBrowser) {
        library.catalogue = browser
        browser.credentialStore = account.credentialStore
        browser.onLogin = { [weak self] user, password in
            guard let self else { return }
            // Logged out (or in as someone else): the password of the login before is forgotten.
            if let before = account.card, before != user || password == nil { library.pins.forget(before) }
            account.card = user
            account.pin = password
        }
        try? browser.takeUpRememberedLogin()
    }
}
