import Foundation
import Hummingbird
import NIOCore

/// Builds JSON responses with exactly `Content-Type: application/json`, as upstream sends.
enum JSONResponse {
    /// `value` encoded as JSON. Encoding our own `Codable` models cannot fail; if it ever did,
    /// the client would see a 500 with the reason rather than a half-written body.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            return raw(
                Data(#"{"Reason":"The mock could not encode its answer","ResponseStatus":"InternalServerError"}"#.utf8),
                status: .internalServerError, contentType: "application/json")
        }
        return raw(data, status: status, contentType: "application/json")
    }

    /// A body as given.
    static func raw(_ data: Data, status: HTTPResponse.Status, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
