public import Foundation
import Localization
public import Logging
internal import TextSafety

/// An OPDS catalogue over HTTP: feeds, search, and the address of a book's file.
///
/// Every call has the session's deadline and a cap on the answer; a password goes in an
/// `Authorization` header (HTTP Basic), never in a URL, and only to the catalogue's own host.
/// Failures are `LendingError`s worded for the patron, as the lending client's are.
public struct OPDSClient: Sendable {
    /// The catalogue's root feed.
    public let root: URL
    /// The user name sent with requests (HTTP Basic), nil when not logged in.
    public let user: String?
    let password: String?
    let timeout: TimeInterval
    let maxBodyBytes: Int
    let logger: Logger
    /// Other servers its redirects may lead to (the profile's `allow-redirects`).
    public var redirectsAllowed = RedirectAllowance()
    let accept =
        "application/atom+xml;profile=opds-catalog, application/opds+json, application/atom+xml;q=0.9, */*;q=0.1"

    /// Creates a client for the catalogue at `root`.
    public init(
        root: URL, user: String? = nil, password: String? = nil, timeout: TimeInterval = 10,
        maxBodyBytes: Int = 16 << 20,
        logger: Logger = Logger(label: "bok.opds", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.root = root
        self.user = user
        self.password = password
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }

    /// The same catalogue with another login (nil: none), the same deadline, cap and logger.
    public func with(user: String?, password: String?) -> OPDSClient {
        var client = OPDSClient(
            root: root, user: user, password: password, timeout: timeout, maxBodyBytes: maxBodyBytes, logger: logger)
        client.redirectsAllowed = redirectsAllowed
        return client
    }

    /// The catalogue's name for messages: its host and port.
    public var displayName: String { root.host.map { h in root.port.map { "\(h):\($0)" } ?? h } ?? root.absoluteString }

    /// The feed at `url` (the root when nil).
    public func feed(_ url: URL? = nil) async throws -> OPDSFeed {
        let target = url ?? root
        let data = try await get(target)
        do {
            return try OPDSParser.feed(data, base: target)
        } catch let failure as OPDSParser.Failure {
            logger.debug("not a feed", metadata: ["url": "\(target.absoluteString)", "why": "\(failure.description)"])
            throw LendingError(
                .badResponse,
                tr(
                    "The catalogue at {server} sent a page that is not a catalogue bok can read. Is the address "
                        + "that of an OPDS catalogue?",
                    ["server": displayName]))
        }
    }

    /// The results of searching for `terms` from a feed that has a `search` link (an OpenSearch
    /// description, or a `{searchTerms}` template as calibre gives).
    public func search(_ terms: String, from feed: OPDSFeed) async throws -> OPDSFeed {
        guard let link = feed.link("search") else {
            throw LendingError(
                .unsupported, tr("The catalogue at {server} has no search; browse it instead.", ["server": displayName])
            )
        }
        var template = link.href.absoluteString.removingPercentEncoding ?? link.href.absoluteString
        if !template.contains("{searchTerms}") {
            let description = try await get(link.href)
            guard let found = OPDSParser.openSearchTemplate(description, base: link.href) else {
                throw LendingError(
                    .badResponse,
                    tr(
                        "The catalogue at {server} describes its search in a way bok cannot use; browse it instead.",
                        ["server": displayName]))
            }
            template = found
        }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?&=+#")
        let encoded = terms.addingPercentEncoding(withAllowedCharacters: allowed) ?? terms
        guard let url = URL(string: template.replacingOccurrences(of: "{searchTerms}", with: encoded)) else {
            throw LendingError(
                .badResponse,
                tr("The catalogue at {server} gave a search address bok cannot use.", ["server": displayName]))
        }
        do {
            return try await self.feed(url)
        } catch let error as LendingError where error.kind == .notFound {
            // calibre answers a search without hits with 404: no books, not a page that has moved.
            return OPDSFeed(title: "", entries: [], links: [])
        }
    }

    /// Follows a book's borrow link with the login in use, and reads the entry the library answers
    /// with: a loan (available, `until` its last day, with the file's link) or a hold (reserved,
    /// with the patron's place). Palace's servers answer a GET; a server that wants a POST says so
    /// with 405, and the link is followed again with a POST.
    /// - Throws: `LendingError` in the patron's words: a refusal with the library's own reason
    ///   (its problem document's `detail`, also in `reason`), a login wanted, or an answer that is not an entry.
    public func borrow(_ link: OPDSLink) async throws -> OPDSEntry {
        let (body, url) = try await lendingCall(link.href, methods: ["GET", "POST"], refused: "borrow refused") {
            tr("The library did not lend it: {reason}", ["reason": $0])
        }
        do {
            return try OPDSParser.entry(body, base: url)
        } catch {
            logger.debug("borrow answer unreadable", metadata: ["url": "\(url.absoluteString)"])
            throw LendingError(
                .badResponse,
                tr(
                    "The catalogue at {server} answered the loan in a way bok cannot read; browse shows whether "
                        + "it was made.",
                    ["server": displayName]))
        }
    }

    /// Follows a loan's or a hold's `revoke` link: the loan is returned early, the hold cancelled.
    /// Palace's servers take a GET (or PUT); a 405 is tried again as DELETE, then POST.
    /// - Returns: the book's entry as it now stands, when the library sends one.
    public func revoke(_ link: OPDSLink) async throws -> OPDSEntry? {
        let (body, url) = try await lendingCall(
            link.href, methods: ["GET", "DELETE", "POST"], refused: "revoke refused"
        ) { tr("The library did not take it back: {reason}", ["reason": $0]) }
        return try? OPDSParser.entry(body, base: url)
    }

    /// One lending request (borrow, revoke) with the login in use: each method in turn while the
    /// server answers 405. A refusal with a problem document becomes `LendingError` with the
    /// library's reason (`worded` puts it in a sentence); a 401/403 says how to log in.
    private func lendingCall(
        _ url: URL, methods: [String], refused: Logger.Message, worded: (String) -> String
    ) async throws -> (Data, URL) {
        var (data, http) = try await exchange(url, method: methods[0])
        for method in methods.dropFirst() where http.status == 405 {
            (data, http) = try await exchange(url, method: method)
        }
        let status = http.status
        if !(200..<300).contains(status), status != 401, let reason = Self.problem(data) {
            logger.debug(refused, metadata: ["status": "\(status)", "reason": "\(reason)"])
            throw LendingError(status == 404 ? .notFound : .rejected, worded(reason), status: status, reason: reason)
        }
        return (try checked(data, http, url: url), url)
    }

    /// The reason in a problem document (RFC 7807, as Palace sends with a refused loan): its
    /// `detail`, else its `title`, made safe to show and cut to a line.
    static func problem(_ data: Data) -> String? {
        struct Problem: Decodable {
            var title: String?
            var detail: String?
        }
        guard let problem = try? JSONDecoder().decode(Problem.self, from: data),
            let text = [problem.detail, problem.title].compactMap({ $0 }).first(where: { !$0.isEmpty })
        else { return nil }
        return SafeText.line(text, limit: 200)
    }

    /// The `Authorization` header for the catalogue's own origin (scheme, host and port), when a user is set.
    public func authorization(for url: URL) -> String? {
        guard let user, let password, let origin = Origin(url), origin == Origin(root) else { return nil }
        return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// How the catalogue asks its patrons to log in: the authentication document it sends with a
    /// 401 on its root feed, or links from that feed (on its own origin); nil when it has none, as
    /// a plain HTTP Basic catalogue (calibre's) has none.
    /// - Throws: ``OPDSAuthentication/Failure`` when the document cannot be read (the reason goes
    ///   to the debug log); `LendingError` when the catalogue cannot be reached.
    public func authentication() async throws -> OPDSAuthentication? {
        let document = try await fetchAuthentication()
        // Reading a document of megabytes has no await in it: a Ctrl-C meanwhile stops here, before
        // the caller asks the patron anything.
        try Task.checkCancellation()
        return document
    }

    private func fetchAuthentication() async throws -> OPDSAuthentication? {
        let (data, http) = try await exchange(root)
        if http.status == 401 || http.status == 403 {
            guard let document = authenticationBody(data, http) else { return nil }
            return try document.get()
        }
        _ = try checked(data, http, url: root)
        guard let feed = try? OPDSParser.feed(data, base: root),
            let link = feed.links.first(where: { $0.relations.contains(OPDSAuthentication.relation) })
        else { return nil }
        // The document is public (the draft says so), but bok's requests stay on the catalogue's origin.
        guard Origin(link.href) == Origin(root) else {
            logger.debug("authentication document elsewhere", metadata: ["url": "\(link.href.absoluteString)"])
            return nil
        }
        return try read(try await exchange(link.href).0)
    }

    /// The authentication document in a 401's body, when its type (or its shape) says it is one.
    private func authenticationBody(
        _ data: Data, _ http: HTTPTransfer.Head
    ) -> Result<OPDSAuthentication, OPDSAuthentication.Failure>? {
        let typed = OPDSAuthentication.isDocument(contentType: http.value("Content-Type"))
        // Some servers send it as plain application/json: a JSON body with an authentication list is one too.
        guard typed || (data.first == UInt8(ascii: "{") && data.range(of: Data("\"authentication\"".utf8)) != nil)
        else { return nil }
        return Result { () throws(OPDSAuthentication.Failure) in try read(data) }
    }

    private func read(_ data: Data) throws(OPDSAuthentication.Failure) -> OPDSAuthentication {
        do {
            return try OPDSAuthentication.parse(data)
        } catch {
            logger.debug("unreadable authentication document", metadata: ["why": "\(error.description)"])
            throw error
        }
    }

    func get(_ url: URL) async throws -> Data {
        let (data, http) = try await exchange(url)
        return try checked(data, http, url: url)
    }

    /// One request to the catalogue, its status not yet looked at.
    private func exchange(_ url: URL, method: String = "GET") async throws -> (Data, HTTPTransfer.Head) {
        var request = HTTPRequest(url: url, method: method)
        if let authorization = authorization(for: url) { request.headers.append(("Authorization", authorization)) }
        let name = displayName
        var exchange = BoundedExchange(accept: accept, deadline: timeout, maxBytes: maxBodyBytes)
        exchange.redirectsAllowed = redirectsAllowed
        do {
            // The whole call within `timeout`, the feed read up to the cap and no further, and redirects
            // only within the catalogue's origin (the Authorization header must not go elsewhere).
            // A 401 comes back as a status: libcurl does not wait on a challenge as corelibs Foundation did.
            return try await exchange.run(request)
        } catch {
            switch error.kind {
            case .timedOut:
                throw timedOut(name)
            case .tooLarge:
                throw LendingError(
                    .badResponse,
                    tr(
                        "The catalogue at {server} sent a page larger than {size} MB, so bok stopped reading it.",
                        ["server": name, "size": maxBodyBytes >> 20]))
            case .tooManyRedirects:
                throw LendingError(
                    .redirected,
                    tr(
                        "The catalogue at {server} sent bok from one of its addresses to another and on, without an "
                            + "answer (a redirect loop). Try again later, or tell the catalogue's keepers.",
                        ["server": name]))
            case .redirectedAway(let target):
                throw LendingError(
                    .redirected,
                    tr(
                        "The catalogue at {server} sent bok to another server ({target}); bok only follows links "
                            + "within the catalogue's own address. If the catalogue has moved, use its new address; "
                            + "if it keeps its books there, add allow-redirects = {target} to its profile.",
                        ["server": name, "target": target.map { "\($0.host):\($0.port)" } ?? tr("an unknown address")]))
            case .transport(let failure):
                logger.debug(
                    "transfer failed", metadata: ["url": "\(url.absoluteString)", "detail": "\(failure.detail)"])
                switch failure.kind {
                case .timedOut:
                    throw timedOut(name)
                case .cannotConnect, .cannotFindHost:
                    throw LendingError(
                        .unreachable,
                        tr(
                            "Cannot reach the catalogue at {server}. Check the address and that the server is running.",
                            ["server": name]))
                case .cancelled: throw CancellationError()
                default:
                    throw LendingError(
                        .dropped,
                        tr(
                            "The catalogue at {server} closed the connection before answering. Try again.",
                            ["server": name]))
                }
            }
        }
    }

    /// The body of an answer that went well; the patron's words for one that did not.
    private func checked(_ data: Data, _ http: HTTPTransfer.Head, url: URL) throws -> Data {
        let name = displayName
        switch http.status {
        case 200..<300: break
        case 401, 403:
            let document = try? authenticationBody(data, http)?.get()
            // A refusal that gives its reason (a wrong PIN and the tries left, a locked card) is said in its words.
            let reason = document == nil && user != nil ? Self.problem(data) : nil
            let message =
                reason.map {
                    tr("The catalogue at {server} did not accept the login: {reason}", ["server": name, "reason": $0])
                } ?? refusal(document)
            throw LendingError(.unauthorized, message, status: http.status, reason: reason)
        case 404:
            logger.debug("no such page", metadata: ["url": "\(url.absoluteString)"])
            throw LendingError(
                .notFound,
                tr(
                    "The catalogue at {server} has no such page; it may have moved. browse starts again at the top.",
                    ["server": name]),
                status: 404)
        default:
            logger.debug("refused", metadata: ["url": "\(url.absoluteString)", "status": "\(http.status)"])
            throw LendingError(
                .rejected, tr("The catalogue at {server} could not answer. Try again later.", ["server": name]),
                status: http.status)
        }
        return data
    }

    /// Why the catalogue refused, in its own words for the fields when its authentication document gives them.
    private func refusal(_ document: OPDSAuthentication?) -> String {
        let name = displayName
        if let document, document.basic == nil {
            return Self.unsupported(document, server: name)
        }
        if let basic = document?.basic, basic.loginLabel != nil || basic.passwordLabel != nil {
            let (login, password) = (basic.loginLabel ?? tr("User name"), basic.passwordLabel ?? tr("Password"))
            return user == nil
                ? tr(
                    "The catalogue at {server} asks for your {login} and {password}: log in with login (the {password} "
                        + "is never shown).",
                    ["server": name, "login": login, "password": password])
                : tr(
                    "The catalogue at {server} did not accept that {login} and {password}. Type login to try again.",
                    ["server": name, "login": login, "password": password])
        }
        return user == nil
            ? tr(
                "The catalogue at {server} asks for a user name and password: log in with login (your "
                    + "password is never shown).",
                ["server": name])
            : tr(
                "The catalogue at {server} did not accept that user name and password. Type login to try "
                    + "again.",
                ["server": name])
    }

    /// What to say when a catalogue offers only ways of logging in that bok does not support (OAuth, SAML).
    public static func unsupported(_ document: OPDSAuthentication, server: String) -> String {
        var names: [String] = []
        var seen: Set<String> = []
        for flow in document.flows where seen.insert(flow.name).inserted { names.append(flow.name) }
        // At most OPDSAuthentication.flowLimit names of 40 characters; the list is cut to a line's worth.
        let flows = SafeText.line(names.joined(separator: ", "), limit: 120)
        return tr(
            "The catalogue at {server} logs in with {flows}, which bok does not support: bok supports the basic "
                + "flow (a user name and password) only. Use the library's own app or website, or ask the library "
                + "for a login with a password.",
            ["server": server, "flows": flows])
    }

    private func timedOut(_ name: String) -> LendingError {
        LendingError(
            .timeout,
            tr(
                "The catalogue at {server} did not answer within {seconds} s. Try again, or check the server.",
                ["server": name, "seconds": Int(timeout)]))
    }
}
