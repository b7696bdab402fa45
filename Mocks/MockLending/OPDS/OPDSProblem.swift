import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A refused OPDS call, answered as Library Simplified servers do: an RFC 7807 problem document
/// (`application/problem+json`) whose `detail` is the reason the Elib API gives for the same
/// refusal, or, when no login came with a call that needs one, a 401 with the authentication document.
struct OPDSProblem: HTTPResponseError {
    let status: HTTPResponse.Status
    /// The problem's type URI.
    let type: String
    /// A few words naming the problem.
    let title: Said
    /// What happened and what to do, in the library's words.
    let detail: Said
    /// Set for a call without a login: the authentication document sent instead of a problem.
    var authenticationDocument: Data?

    /// What was being tried when the library said no; names the problem.
    enum Attempt: Sendable {
        case loan, hold, revoke, fulfil, look
    }

    static let problemBase = "http://librarysimplified.org/terms/problem/"
    /// The realm of the `WWW-Authenticate` challenge (plain ASCII: header values are).
    static let realm = "Library card"

    /// A refusal of the library's rules while trying `attempt`.
    ///
    /// A wrong PIN is 401 with a challenge (the login is what has to change); a locked card is 403,
    /// as on the Elib API, so a client does not ask for the PIN again; every other rule's refusal
    /// is 403, an unknown thing 404.
    init(_ refusal: LendingRefusal, while attempt: Attempt, limitReached: Bool = false) {
        detail = refusal.reason
        authenticationDocument = nil
        switch refusal.kind {
        case .unauthenticated:
            (status, type, title) = (
                .unauthorized, Self.problemBase + "credentials-invalid", Said("Invalid credentials")
            )
        case .forbidden where attempt == .fulfil:
            (status, type, title) = (.forbidden, Self.problemBase + "no-active-loan", Said("Not your loan"))
        case .forbidden:
            (status, type, title) = (.forbidden, Self.problemBase + "credentials-suspended", Said("Card locked"))
        case .badRequest:
            (status, type, title) = (.badRequest, Self.problemBase + "invalid-input", Said("Invalid request"))
        case .notFound:
            (status, type, title) = (.notFound, Self.problemBase + "not-found", Said("Not found"))
        case .gone:
            (status, type, title) = (.forbidden, Self.problemBase + "no-active-loan", Said("Loan ended"))
        case .conflict:
            switch attempt {
            case .loan where limitReached:
                (status, type, title) = (
                    .forbidden, Self.problemBase + "loan-limit-reached", Said("Loan limit reached")
                )
            case .loan, .look:
                (status, type, title) = (.forbidden, Self.problemBase + "cannot-issue-loan", Said("Loan refused"))
            case .hold:
                (status, type, title) = (.forbidden, Self.problemBase + "cannot-place-hold", Said("Hold refused"))
            case .revoke:
                (status, type, title) = (.forbidden, Self.problemBase + "cannot-revoke", Said("Cannot return"))
            case .fulfil:
                (status, type, title) = (.forbidden, Self.problemBase + "cannot-fulfill-loan", Said("Cannot fulfil"))
            }
        }
    }

    init(status: HTTPResponse.Status, type: String, title: Said, detail: Said) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
    }

    /// No book with that id.
    static func unknownBook(_ id: String) -> OPDSProblem {
        OPDSProblem(
            status: .notFound, type: problemBase + "not-found", title: Said("Not found"),
            detail: Said("There is no book {id} in this library.", ["id": .text(id)]))
    }

    /// A request the server cannot take as it is (400).
    static func invalid(_ detail: Said) -> OPDSProblem {
        OPDSProblem(
            status: .badRequest, type: problemBase + "invalid-input", title: Said("Invalid request"), detail: detail)
    }

    /// Something of the patron's that is not there (404).
    static func notFound(_ detail: Said) -> OPDSProblem {
        OPDSProblem(status: .notFound, type: problemBase + "not-found", title: Said("Not found"), detail: detail)
    }

    /// An annotation call from a patron who has not chosen to keep annotations on the server.
    static let notOptedIn = OPDSProblem(
        status: .forbidden, type: problemBase + "no-annotation-sync", title: Said("Annotation sync is off"),
        detail: Said("Turn on keeping bookmarks on the server in your profile first."))

    /// A call that needs a login came without one: 401, the challenge and the authentication document.
    static func loginWanted(_ document: Data) -> OPDSProblem {
        var problem = OPDSProblem(
            status: .unauthorized, type: problemBase + "credentials-invalid", title: Said("Log in"),
            detail: Said("Log in with your library card and PIN."))
        problem.authenticationDocument = document
        return problem
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let authenticationDocument {
            response = JSONResponse.raw(authenticationDocument, status: status, contentType: OPDSType.authentication)
        } else {
            let translations = Said.translations(for: request)
            let body = Body(
                type: type, title: title.text(in: translations), detail: detail.text(in: translations),
                status: Int(status.code))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            let data = (try? encoder.encode(body)) ?? Data()
            response = JSONResponse.raw(data, status: status, contentType: OPDSType.problem)
        }
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Basic realm=\"\(Self.realm)\"" }
        return response
    }

    private struct Body: Encodable {
        let type: String
        let title: String
        let detail: String
        let status: Int
    }
}

/// The library card and PIN of a request's `Authorization: Basic` header.
///
/// The PIN goes to `LibraryState.authenticate` and nowhere else: this type has no description,
/// so it cannot end up in a log line or an answer by accident.
struct BasicLogin: Sendable {
    let card: String
    let pin: String

    /// The login in `request`'s header; nil when there is none or it is not Basic with `card:PIN`.
    init?(_ request: Request) {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        card = String(text[..<colon])
        pin = String(text[text.index(after: colon)...])
    }
}
