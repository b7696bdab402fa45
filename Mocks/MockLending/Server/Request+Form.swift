import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// The fields of a form-encoded POST body (`ServiceID=…&Card=…`), names matched
    /// case-insensitively; fields in the query string count too, after the body's.
    ///
    /// The body may hold a PIN, so it is read here and nowhere logged.
    /// - Throws: `APIFailure` 400 when the body is larger than a form can be.
    func formFields() async throws -> QueryParameters {
        let body: ByteBuffer
        do {
            body = try await self.body.collect(upTo: 64 * 1024)
        } catch {
            throw APIFailure.badRequest(Said("The form is too large; send the fields of elib-api.md only."))
        }
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let query = uri.query ?? ""
        return QueryParameters(query.isEmpty ? text : text + "&" + query)
    }
}
