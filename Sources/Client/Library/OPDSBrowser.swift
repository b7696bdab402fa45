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
    /// The feed on screen.
    private(set) var feed: OPDSFeed?
    /// What a search asked, when the feed is a search's results.
    private(set) var query: String?
    private var history: [(feed: OPDSFeed, query: String?)] = []

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
    func open(_ address: URL? = nil) async throws -> OPDSFeed {
        try takeUpRememberedLogin()
        return show(try await client.feed(address), query: nil)
    }

    /// The results of a search, through the search link of the feed on screen or of the root.
    func search(_ terms: String) async throws -> OPDSFeed {
        try takeUpRememberedLogin()
        let from: OPDSFeed
        if let feed, feed.link("search") != nil { from = feed } else { from = try await client.feed() }
        return show(try await client.search(terms, from: from), query: terms)
    }

    /// Back to the feed before this one, or nil at the first.
    func back() -> OPDSFeed? {
        guard let previous = history.popLast() else { return nil }
        feed = previous.feed
        query = previous.query
        return previous.feed
    }

    /// Entry `number` (1-based) of the feed on screen.
    func entry(_ number: Int) -> OPDSEntry? {
        guard let entries = feed?.entries, entries.indices.contains(number - 1) else { return nil }
        return entries[number - 1]
    }

    /// Puts `entry` in place of entry `number` of the feed on screen (a book just borrowed, with
    /// its file's link), so that read N and get N reach the loan.
    func replace(_ number: Int, with entry: OPDSEntry) {
        guard var feed, feed.entries.indices.contains(number - 1) else { return }
        feed.entries[number - 1] = entry
        self.feed = feed
    }

    private func show(_ next: OPDSFeed, query: String?) -> OPDSFeed {
        if let feed { history.append((feed, self.query)) }
        if history.count > 64 { history.removeFirst() }
        feed = next
        self.query = query
        return next
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
