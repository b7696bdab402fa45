import Catalog
import Foundation
import Hummingbird

/// A failed call, answered as upstream does: a status and `{"Reason", "ResponseStatus"}`.
struct APIFailure: HTTPResponseError {
    let status: HTTPResponse.Status
    /// Shown to the patron by clients, so it says what happened in plain words.
    let reason: String

    static let productNotFound = APIFailure(status: .notFound, reason: "Product not found")
    static let invalidChecksum = APIFailure(status: .unauthorized, reason: "Invalid checksum")

    static func unknownService(_ id: String?) -> APIFailure {
        APIFailure(status: .unauthorized, reason: id.map { "Unknown service id \"\($0)\"" } ?? "Missing service id")
    }

    static func badRequest(_ reason: String) -> APIFailure { APIFailure(status: .badRequest, reason: reason) }

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

    init(status: HTTPResponse.Status, reason: String) {
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
        JSONResponse.make(Wire.ErrorAnswer(reason: reason, responseStatus: responseStatus), status: status)
    }
}
