public import Foundation
public import Localization
internal import TextSafety

/// A bookmark, highlight or reading place kept on a lending library's annotation service, as a
/// W3C Web Annotation (Palace's circulation manager keeps a patron's so).
public struct WebAnnotation: Sendable, Hashable {
    /// Why it was made (the annotation's `motivation`).
    public enum Motivation: String, Sendable, Hashable {
        case bookmarking = "http://www.w3.org/ns/oa#bookmarking"
        case highlighting = "http://www.w3.org/ns/oa#highlighting"
        /// Palace's reading place: one a book, the last replacing the one before.
        case readingPlace = "http://librarysimplified.org/terms/annotation/idling"
    }

    /// The server's address for it; nil until the server has it.
    public var id: URL?
    public var motivation: Motivation
    /// Where it is (a highlight: where it starts), as an EPUB CFI.
    public var cfi: String
    /// Where a highlight ends.
    public var endCFI: String?
    /// When it was made or last changed, as the device that made it said.
    public var time: Date?
    /// The device that made it, as that device named itself (cleaned, at most 60 characters).
    public var device: String?
    /// A highlight's note.
    public var note: String?
    /// The text it marks.
    public var quote: String?
    /// The name bok knows it by on every machine (a highlight's id, a bookmark's title), so an
    /// annotation bok sent is known again whatever id the server gave it; nil in ones other
    /// reading systems made.
    public var key: String?

    public init(
        id: URL? = nil, motivation: Motivation, cfi: String, endCFI: String? = nil, time: Date? = nil,
        device: String? = nil, note: String? = nil, quote: String? = nil, key: String? = nil
    ) {
        self.id = id
        self.motivation = motivation
        self.cfi = cfi
        self.endCFI = endCFI
        self.time = time
        self.device = device
        self.note = note
        self.quote = quote
        self.key = key
    }
}

/// Where a loan's annotations are kept at its lending library: the annotation service its loan
/// links, the book as that service names it (its id in the catalogue), and the patron profile that
/// holds the patron's opt-in.
public struct LibraryAnnotationLink: Sendable, Hashable {
    public var service: URL
    public var source: String
    public var profile: URL?

    public init(service: URL, source: String, profile: URL?) {
        self.service = service
        self.source = source
        self.profile = profile
    }
}

/// A lending library's own annotation service (Palace, Library Simplified): bookmarks, highlights
/// and the reading place of a patron's loans, through their library card, with their opt-in.
///
/// - The patron profile (`vnd.librarysimplified/user-profile+json`, linked from the authentication
///   document) holds the opt-in, `settings["simplified:synchronize_annotations"]`.
/// - Each loan in the loans feed links its annotations (`http://www.w3.org/ns/oa#annotationService`):
///   `GET` lists them as an `AnnotationCollection`, `POST` adds one, `DELETE` on an annotation's
///   `id` removes it.
///
/// A place travels as a `FragmentSelector` conforming to EPUB CFI (the W3C Web Annotation model's
/// way of naming a place in an EPUB); a highlight as a `RangeSelector` of two. Every exchange is
/// bounded in time and size, redirects are not followed, and nothing the server answers reaches
/// the screen as it is.
public struct LibraryAnnotations: Sendable {
    /// Why an exchange did not happen.
    public struct Failure: PatronFacingError, Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// The patron has not chosen to keep annotations on the library's server.
            case notOptedIn
            /// The library refused the card and PIN.
            case loginRefused
            /// The library did not answer.
            case unreachable
            /// It answered, but not as an annotation service does.
            case strangeAnswer
            /// It has no such annotation (404, 410).
            case gone
            /// It refused to keep one (400): the book is not on loan to the patron now (Palace keeps
            /// annotations only of loans). The change waits until the book is borrowed again.
            case notOnLoan
        }

        public let kind: Kind
        public let server: String

        public var patronMessage: String {
            switch kind {
            case .notOptedIn:
                tr(
                    "{server} keeps bookmarks only for patrons who choose it: turn it on with sync on.",
                    ["server": server])
            case .loginRefused:
                tr("{server} refused your card and PIN; log in again with login --remember.", ["server": server])
            case .unreachable:
                tr("{server} did not answer; your bookmarks wait and are sent next time.", ["server": server])
            case .notOnLoan:
                tr(
                    "{server} keeps notes only of books on loan: yours wait until you borrow the book again.",
                    ["server": server])
            case .strangeAnswer, .gone:
                tr("{server} did not answer as an annotation service does; nothing was synced.", ["server": server])
            }
        }
    }

    /// The relation of a loan's link to its annotations.
    public static let serviceRelation = "http://www.w3.org/ns/oa#annotationService"
    static let jsonLD = "application/ld+json; profile=\"http://www.w3.org/ns/anno.jsonld\""
    static let profileType = "vnd.librarysimplified/user-profile+json"
    static let syncSetting = "simplified:synchronize_annotations"
    static let cfiSpecification = "http://www.idpf.org/epub/linking/cfi/epub-cfi.html"
    /// The body fields Palace's clients write.
    static let timeField = "http://librarysimplified.org/terms/time"
    static let deviceField = "http://librarysimplified.org/terms/device"
    /// The body field that carries bok's own name for an annotation (``WebAnnotation/key``). A Web
    /// Annotation's body may carry any property; a server keeps the body as it was sent.
    static let keyField = "urn:x-bok:key"
    /// The most an answer may weigh: a long book's bookmarks and highlights with their notes.
    static let maxBytes = 2 << 20
    /// The most annotations read from one answer.
    static let mostAnnotations = 5_000

    /// The `Authorization` header of the patron's card and PIN.
    let authorization: String
    let deadline: TimeInterval

    /// A client for the patron with this card and PIN.
    public init(card: String, pin: String, deadline: TimeInterval = 5) {
        self.init(authorization: "Basic " + Data("\(card):\(pin)".utf8).base64EncodedString(), deadline: deadline)
    }

    /// A client sending this `Authorization` header (the lending library's login for the patron).
    public init(authorization: String, deadline: TimeInterval = 5) {
        self.authorization = authorization
        self.deadline = deadline
    }

    // MARK: The opt-in

    /// Whether the patron chose to keep annotations on the server (the profile's setting).
    public func isOptedIn(profile: URL) async throws(Failure) -> Bool {
        let data = try await exchange(HTTPRequest(url: profile), accept: Self.profileType)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(kind: .strangeAnswer, server: Self.name(profile))
        }
        return (object["settings"] as? [String: Any])?[Self.syncSetting] as? Bool ?? false
    }

    /// Sets the patron's choice (Palace asks the patron before turning it on).
    public func setOptIn(_ on: Bool, profile: URL) async throws(Failure) {
        let body = try? JSONSerialization.data(withJSONObject: ["settings": [Self.syncSetting: on]])
        _ = try await exchange(
            HTTPRequest(url: profile, method: "PUT", headers: [("Content-Type", Self.profileType)], body: body),
            accept: Self.profileType)
    }

    // MARK: Annotations

    /// The patron's annotations of a book, from the link its loan gives; what cannot be read as
    /// one (another client's own kind of place) is left out.
    public func annotations(at service: URL) async throws(Failure) -> [WebAnnotation] {
        let data = try await exchange(HTTPRequest(url: service), accept: Self.jsonLD)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(kind: .strangeAnswer, server: Self.name(service))
        }
        // A collection's first page holds the items (Palace sends them all there); a page alone too.
        let page = object["first"] as? [String: Any] ?? object
        let items = page["items"] as? [[String: Any]] ?? []
        return items.prefix(Self.mostAnnotations).compactMap { Self.annotation($0, base: service) }
    }

    /// Adds an annotation of the book `source` (its id in the catalogue); the server's copy, with its id.
    @discardableResult
    public func add(
        _ annotation: WebAnnotation, of source: String, to service: URL
    ) async throws(Failure)
        -> WebAnnotation
    {
        let body = try? JSONSerialization.data(
            withJSONObject: Self.json(annotation, source: source), options: [.sortedKeys, .withoutEscapingSlashes])
        let data = try await exchange(
            HTTPRequest(url: service, method: "POST", headers: [("Content-Type", Self.jsonLD)], body: body),
            accept: Self.jsonLD)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let made = Self.annotation(object, base: service), made.id != nil
        else { throw Failure(kind: .strangeAnswer, server: Self.name(service)) }
        return made
    }

    /// Removes an annotation the server has (by its `id`); one already gone is no failure.
    public func remove(_ id: URL) async throws(Failure) {
        do {
            _ = try await exchange(HTTPRequest(url: id, method: "DELETE"), accept: "*/*")
        } catch  where error.kind == .gone {
            // Gone already, which is what was asked; any other answer (a 500) leaves it to try again.
        }
    }

    // MARK: JSON

    /// The annotation as a Web Annotation of `source`.
    static func json(_ annotation: WebAnnotation, source: String) -> [String: Any] {
        func fragment(_ cfi: String) -> [String: Any] {
            ["type": "FragmentSelector", "conformsTo": cfiSpecification, "value": cfi]
        }
        let selector: [String: Any] =
            annotation.endCFI.map { end in
                ["type": "RangeSelector", "startSelector": fragment(annotation.cfi), "endSelector": fragment(end)]
            } ?? fragment(annotation.cfi)
        var target: [String: Any] = ["source": source, "selector": selector]
        if let quote = annotation.quote { target["quote"] = quote }
        var body: [String: Any] = [:]
        if let time = annotation.time { body[timeField] = CalibreSync.iso(time) }
        if let device = annotation.device { body[deviceField] = device }
        if let note = annotation.note { body["value"] = note }
        if let key = annotation.key { body[keyField] = key }
        var object: [String: Any] = [
            "@context": "http://www.w3.org/ns/anno.jsonld", "type": "Annotation",
            "motivation": annotation.motivation.rawValue, "target": target, "body": body,
        ]
        if let id = annotation.id { object["id"] = id.absoluteString }
        return object
    }

    /// An annotation from the server's JSON; nil for one bok cannot place (a motivation it does
    /// not keep, a place that is not an EPUB CFI).
    static func annotation(_ object: [String: Any], base: URL) -> WebAnnotation? {
        guard let motivation = (object["motivation"] as? String).flatMap(WebAnnotation.Motivation.init(rawValue:)),
            let target = object["target"] as? [String: Any], let selector = target["selector"] as? [String: Any]
        else { return nil }
        func cfi(_ selector: [String: Any]?) -> String? {
            guard let value = selector?["value"] as? String, value.utf8.count <= 4096 else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("epubcfi(") || trimmed.hasPrefix("/") { return trimmed }
            // Palace's own readers write a JSON locator; its `contentCFI` is a place within the chapter
            // named by `idref`, which bok cannot join without the package: left out.
            return nil
        }
        let start: String?
        var end: String?
        if (selector["type"] as? String) == "RangeSelector" {
            start = cfi(selector["startSelector"] as? [String: Any])
            end = cfi(selector["endSelector"] as? [String: Any])
        } else {
            start = cfi(selector)
        }
        guard let start else { return nil }
        let body = object["body"] as? [String: Any] ?? [:]
        let time = (body[timeField] as? String).flatMap { CalibreSync.time(iso: $0) }
        let note = (body["value"] as? String).map { SafeText.line($0, limit: 4000) }
        return WebAnnotation(
            id: (object["id"] as? String).flatMap { URL(string: $0, relativeTo: base)?.absoluteURL },
            motivation: motivation, cfi: start, endCFI: end, time: time,
            device: (body[deviceField] as? String).map { SafeText.line($0, limit: 60) }, note: note,
            quote: (target["quote"] as? String).map { SafeText.line($0, limit: 4000) },
            key: (body[keyField] as? String).flatMap { $0.utf8.count <= 1024 ? SafeText.line($0, limit: 200) : nil })
    }

    private func exchange(_ request: HTTPRequest, accept: String) async throws(Failure) -> Data {
        let server = Self.name(request.url)
        var request = request
        request.headers.append(("Authorization", authorization))
        guard let answer = await SyncExchange.run(request, accept: accept, deadline: deadline, maxBytes: Self.maxBytes)
        else { throw Failure(kind: .unreachable, server: server) }
        switch answer.status {
        case 200..<300: return answer.body
        case 400: throw Failure(kind: .notOnLoan, server: server)
        case 401: throw Failure(kind: .loginRefused, server: server)
        case 403: throw Failure(kind: .notOptedIn, server: server)
        case 404, 410: throw Failure(kind: .gone, server: server)
        default: throw Failure(kind: .strangeAnswer, server: server)
        }
    }

    /// The server as a patron names it: its host and port.
    static func name(_ url: URL) -> String { SyncExchange.name(url, otherwise: "library") }
}
