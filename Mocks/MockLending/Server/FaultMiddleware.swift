import Catalog
import Foundation
import Hummingbird
import NIOCore

/// Applies the injected faults to the library API: latency first, then a dropped connection,
/// a simulated server error or a malformed body.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = MockRequestContext

    let library: MockLibrary

    // Not patron-facing: an injected fault: the connection is dropped.
    /// Thrown after closing the connection for a `Drop` fault; nothing is written any more.
    struct Dropped: Error {}

    /// What a captive portal or a misconfigured proxy answers: 200, but HTML.
    static let malformedBody = Data(
        """
        <!DOCTYPE html>
        <html><head><title>Logga in</title></head>
        <body><h1>Logga in på gästnätet</h1><p>Ange ditt lånekortsnummer för att fortsätta.</p></body></html>
        """.utf8)

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let (faults, roll) = library.updateLocal { state in (state.faults, state.faultDice.unit()) }
        if faults.latencyMs > 0 { try await Task.sleep(for: .milliseconds(faults.latencyMs)) }
        if faults.drop {
            try? await context.channel.close()
            throw Dropped()
        }
        if roll < faults.errorRate {
            throw APIFailure(status: .internalServerError, reason: Said("Simulated server error (fault injection)"))
        }
        if faults.malformed {
            return JSONResponse.raw(Self.malformedBody, status: .ok, contentType: "text/html; charset=utf-8")
        }
        let response = try await next(request, context)
        guard faults.hostile else { return response }
        return try await Self.infect(response)
    }

    /// The response with ``HostileText`` added to its words (JSON answers only).
    static func infect(_ response: Response) async throws -> Response {
        var response = response
        let collector = CollectingBodyWriter()
        try await response.body.write(collector)
        let body = Data(collector.storage.buffer.readableBytesView)
        guard let infected = HostileText.infect(body) else {
            response.body = ResponseBody(byteBuffer: collector.storage.buffer)
            return response
        }
        response.headers[.contentLength] = nil
        response.body = ResponseBody(byteBuffer: ByteBuffer(bytes: infected))
        return response
    }
}
