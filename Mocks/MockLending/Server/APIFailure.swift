import Catalog
import Foundation
import Hummingbird

/// A failed call, answered as upstream does: a status and `{"Reason", "ResponseStatus"}`.
struct APIFailure: HTTPResponseError {
    let status: HTTPResponse.Status
    /// Shown to the patron by clients, so it says what happened in plain words, in the language
    /// the request asks for.
    let reason: Said

    static let productNotFound = APIFailure(status: .notFound, reason: Said("Product not found"))
    static let invalidChecksum = APIFailure(status: .unauthorized, reason: Said("Invalid checksum"))

    static func unknownService(_ id: String?) -> APIFailure {
        APIFailure(
            status: .unauthorized,
            reason: id.map { Said("Unknown service id \"{id}\"", ["id": .text($0)]) } ?? Said("Missing service id"))
    }

    static func badRequest(_ reason: Said) -> APIFailure { APIFailure(status: .badRequest, reason: reason) }

    /// A refusal of the library's rules, with the status its kind calls for.
    init(_ refusal: LendingRefusal) {
        reason = refusal.reason
        switch refusal.kind {
        case .badRequest: status = .badRequest
        case .unauthenticated: status = .unauthorized
        case .forbidden: status = .forbidden
        case .notFound: status = .notFound
        case .conflict: status = .conflict
        case .gone: status = .gone
        }
    }

    init(status: HTTPResponse.Status, reason: Said) {
        self.status = status
        self.reason = reason
    }

    /// Upstream's status word (`NotFound`, `Unauthorized`…).
    var responseStatus: String {
        switch status.code {
        case 400: "BadRequest"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "NotFound"
        case 409: "Conflict"
        case 410: "Gone"
        case 500: "InternalServerError"
        default: status.reasonPhrase.replacingOccurrences(of: " ", with: "")
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(
            Wire.ErrorAnswer(reason: reason.text(for: request), responseStatus: responseStatus), status: status)
    }
}
