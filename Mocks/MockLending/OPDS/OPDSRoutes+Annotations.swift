import Catalog
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One annotation a patron keeps on the server: a bookmark, a highlight or the reading place.
struct MockAnnotation: Sendable, Hashable {
    /// Its number, in its address (`/opds/annotations/12`).
    let number: Int
    let card: String
    let productIndex: Int
    /// `http://www.w3.org/ns/oa#bookmarking`, `…#highlighting`, or Palace's reading place (`idling`).
    var motivation: String
    /// The target as the client sent it, but for its source: the selector (`{"type":
    /// "FragmentSelector", "value": …}`, a `RangeSelector` of two of them) and what else it gave, as JSON.
    var target: Data
    /// The body as the client sent it (time, device, a note's text), as JSON.
    var body: Data
}

/// The Palace (Library Simplified) annotation service of the OPDS face: a patron who opted in
/// keeps bookmarks, highlights and the reading place of their loans as W3C Web Annotations.
///
/// - `GET`/`PUT /opds/patrons/me/`: the patron profile document, whose
///   `settings["simplified:synchronize_annotations"]` is the opt-in (off until set).
/// - `GET /opds/annotations/`: the patron's annotations, an `AnnotationCollection`;
///   `GET /opds/annotations/books/{id}/` those of one book (the loans feed links it per loan).
/// - `POST /opds/annotations/`: a new one, answered with itself and its `id`. A reading place
///   replaces the book's last one.
/// - `DELETE /opds/annotations/{n}`: gone.
///
/// Without the opt-in every call but the profile's is refused (403), as Palace refuses it; a target
/// that is not one of the patron's loans is 400.
extension OPDSRoutes {
    static let annotationsPath = base + "/annotations/"
    static let profilePath = base + "/patrons/me/"
    static func bookAnnotationsPath(_ id: String) -> String { annotationsPath + "books/" + id + "/" }
    static let annotationType = "application/ld+json; profile=\"http://www.w3.org/ns/anno.jsonld\""
    static let profileType = "vnd.librarysimplified/user-profile+json"
    static let syncSetting = "simplified:synchronize_annotations"
    static let motivations: Set<String> = [
        "http://www.w3.org/ns/oa#bookmarking", "http://www.w3.org/ns/oa#highlighting",
        "http://librarysimplified.org/terms/annotation/idling",
    ]
    /// Annotations a patron may keep, all books together (a bound against a client gone astray).
    static let mostAnnotations = 5_000

    func registerAnnotations(on opds: RouterGroup<MockRequestContext>) {
        opds.get("patrons/me") { request, _ in try profile(request) }
        opds.put("patrons/me") { request, context in try await setProfile(request, context: context) }
        opds.get("annotations") { request, _ in try annotations(request, book: nil) }
        opds.get("annotations/books/:id") { request, context in
            try annotations(request, book: context.parameters.require("id"))
        }
        opds.post("annotations") { request, context in try await addAnnotation(request, context: context) }
        // The loans feed links a book's own annotations; a client may post there too.
        opds.post("annotations/books/:id") { request, context in try await addAnnotation(request, context: context) }
        opds.delete("annotations/:number") { request, context in
            try removeAnnotation(request, number: context.parameters.require("number"))
        }
    }

    // MARK: The profile (the opt-in)

    private func profile(_ request: Request) throws -> Response {
        let login = try loggedIn(request)
        let on = library.updateLocal { $0.annotationSyncCards.contains(login.card) }
        return profileAnswer(on: on)
    }

    private func profileAnswer(on: Bool) -> Response {
        let document: [String: Any] = [
            "simplified:authorization_identifier": "",
            "settings": [Self.syncSetting: on],
            "links": [["rel": "http://www.w3.org/ns/oa#annotationService", "href": Self.annotationsPath]],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return JSONResponse.raw(data, status: .ok, contentType: Self.profileType)
    }

    private func setProfile(_ request: Request, context: MockRequestContext) async throws -> Response {
        let login = try loggedIn(request)
        let body = try await JSONBody.object(request, context: context)
        guard let settings = body["settings"] as? [String: Any], let on = settings[Self.syncSetting] as? Bool else {
            throw OPDSProblem.invalid(Said("Send settings with simplified:synchronize_annotations true or false."))
        }
        library.updateLocal { state in
            if on { state.annotationSyncCards.insert(login.card) } else { state.annotationSyncCards.remove(login.card) }
        }
        return profileAnswer(on: on)
    }

    // MARK: Annotations

    private func annotations(_ request: Request, book: String?) throws -> Response {
        let login = try optedIn(request)
        let index = try book.map { id in
            guard let index = library.index(of: id) else { throw OPDSProblem.unknownBook(id) }
            return index
        }
        let kept = library.updateLocal { state in
            state.annotations.filter { $0.card == login.card && (index == nil || $0.productIndex == index) }
        }
        let address = book.map(Self.bookAnnotationsPath) ?? Self.annotationsPath
        let collection: [String: Any] = [
            "@context": ["http://www.w3.org/ns/anno.jsonld", "http://www.w3.org/ns/ldp.jsonld"],
            "id": address, "type": ["BasicContainer", "AnnotationCollection"], "total": kept.count,
            "first": ["id": address, "type": "AnnotationPage", "items": kept.map(json)],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys])) ?? Data()
        return JSONResponse.raw(data, status: .ok, contentType: Self.annotationType)
    }

    private func addAnnotation(_ request: Request, context: MockRequestContext) async throws -> Response {
        let login = try optedIn(request)
        let body = try await JSONBody.object(request, context: context)
        guard let motivation = body["motivation"] as? String, Self.motivations.contains(motivation) else {
            throw OPDSProblem.invalid(Said("An annotation's motivation is bookmarking, highlighting or idling."))
        }
        guard let target = body["target"] as? [String: Any], let source = target["source"] as? String,
            source.hasPrefix(OPDSFeedWriter.productURN),
            let index = library.index(of: String(source.dropFirst(OPDSFeedWriter.productURN.count))),
            target["selector"] is [String: Any],
            let targetJSON = try? JSONSerialization.data(withJSONObject: target, options: [.sortedKeys])
        else {
            throw OPDSProblem.invalid(Said("An annotation's target is a book's id with a selector of its place."))
        }
        let bodyJSON =
            (try? JSONSerialization.data(withJSONObject: body["body"] as? [String: Any] ?? [:], options: [.sortedKeys]))
            ?? Data("{}".utf8)
        let made = try library.update { (state) throws(OPDSProblem) -> MockAnnotation in
            // As Palace: only a book the patron has on loan.
            guard state.loans.contains(where: { $0.card == login.card && $0.productIndex == index && $0.isActive })
            else { throw OPDSProblem.invalid(Said("Annotations are kept for the books on your loans.")) }
            guard state.annotations.filter({ $0.card == login.card }).count < Self.mostAnnotations else {
                throw OPDSProblem.invalid(Said("Too many annotations are kept; delete some first."))
            }
            if motivation.hasSuffix("idling") {
                state.annotations.removeAll {
                    $0.card == login.card && $0.productIndex == index && $0.motivation == motivation
                }
            }
            let annotation = MockAnnotation(
                number: state.nextNumber, card: login.card, productIndex: index, motivation: motivation,
                target: targetJSON, body: bodyJSON)
            state.nextNumber += 1
            state.annotations.append(annotation)
            return annotation
        }
        var answer = json(made)
        answer["@context"] = "http://www.w3.org/ns/anno.jsonld"
        let data = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()
        return JSONResponse.raw(data, status: .ok, contentType: Self.annotationType)
    }

    private func removeAnnotation(_ request: Request, number: String) throws -> Response {
        let login = try optedIn(request)
        let removed = library.updateLocal { state in
            let before = state.annotations.count
            state.annotations.removeAll { $0.card == login.card && String($0.number) == number }
            return state.annotations.count < before
        }
        guard removed else { throw OPDSProblem.notFound(Said("No such annotation of yours.")) }
        return Response(status: .ok)
    }

    /// An annotation as Palace writes it: its address, motivation, target (the book's id and the
    /// selector) and body.
    private func json(_ annotation: MockAnnotation) -> [String: Any] {
        let id = library.catalog.products[annotation.productIndex].id
        var target = Self.object(annotation.target) as? [String: Any] ?? [:]
        target["source"] = OPDSFeedWriter.productURN + id
        return [
            "id": Self.annotationsPath + String(annotation.number), "type": "Annotation",
            "motivation": annotation.motivation,
            "target": target,
            "body": Self.object(annotation.body),
        ]
    }

    private static func object(_ json: Data) -> Any {
        (try? JSONSerialization.jsonObject(with: json)) ?? [String: Any]()
    }

    /// The call's login, checked.
    private func loggedIn(_ request: Request) throws -> BasicLogin {
        let login = try login(request)
        do {
            _ = try library.update { (state) throws(LendingRefusal) in
                try state.authenticate(card: login.card, pin: login.pin)
            }
        } catch {
            throw OPDSProblem(error, while: .look)
        }
        return login
    }

    /// The call's login, of a patron who chose to keep annotations on the server.
    private func optedIn(_ request: Request) throws -> BasicLogin {
        let login = try loggedIn(request)
        guard library.updateLocal({ $0.annotationSyncCards.contains(login.card) }) else {
            throw OPDSProblem.notOptedIn
        }
        return login
    }
}

/// A request's JSON object, read within a bound.
enum JSONBody {
    static func object(_ request: Request, context: MockRequestContext) async throws -> [String: Any] {
        let buffer = try await request.body.collect(upTo: 64 * 1024)
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]
        else { throw OPDSProblem.invalid(Said("Send a JSON object.")) }
        return object
    }
}
