import Catalog
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The books themselves: a loan's EPUB while the loan is active, and each product's sample.
///
/// Served like a file server: `Content-Type: application/epub+zip`, `Content-Length`,
/// `Accept-Ranges: bytes` and single-range requests (206, or 416 when the range is past the
/// end), so a client can resume a broken download. No checksum: like upstream's content links
/// the URL itself is the key, and it stops working (410) when the loan ends.
///
/// Extension: every answer carries `Repr-Digest: sha-256=:…:` (RFC 9530), the SHA-256 of the
/// whole file whatever range is sent, so a client can check the copy it put together.
struct ContentRoutes: Sendable {
    let library: MockLibrary

    /// Where the EPUB of loan `id` is, below the server's origin.
    static func loanPath(_ id: String) -> String { "/mock/content/loans/\(id).epub" }

    func register(on mock: RouterGroup<MockRequestContext>) {
        mock.get("content/loans/{id}.epub") { request, context in
            try loanBook(request, id: context.parameters.require("id"))
        }
        mock.get("content/:id/sample.epub") { request, context in
            try sample(request, id: context.parameters.require("id"))
        }
        mock.get("content/:id/cover.png") { _, context in try cover(id: context.parameters.require("id")) }
    }

    /// The product's cover, the same picture its EPUB opens with (the catalogue advertises it).
    func cover(id: String) throws -> Response {
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        let png = MockBooks.cover(for: library.catalog.products[index], seed: library.configuration.seed)
        var headers = HTTPFields()
        headers[.contentType] = "image/png"
        headers[.cacheControl] = "max-age=86400"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }

    func loanBook(_ request: Request, id: String) throws -> Response {
        let loan: Loan
        do {
            loan = try library.read { (state) throws(LendingRefusal) in try state.readableLoan(id) }
        } catch {
            throw APIFailure(error)
        }
        return serve(book(loan.productIndex, sample: false), request)
    }

    func sample(_ request: Request, id: String) throws -> Response {
        guard let index = library.index(of: id) else { throw APIFailure.productNotFound }
        guard library.catalog.products[index].teaser != nil else {
            throw APIFailure(status: .notFound, reason: Said("This book has no sample"))
        }
        return serve(book(index, sample: true), request)
    }

    func book(_ index: Int, sample: Bool) -> Data {
        library.books.book(BookCache.Key(productIndex: index, sample: sample)) {
            MockBooks.epub(for: library.catalog.products[index], seed: library.configuration.seed, sample: sample)
        }
    }

    /// The whole book, or the part `Range` asks for, damaged or cut short when a content fault says so.
    func serve(_ data: Data, _ request: Request) -> Response {
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        headers[Self.reprDigest] = "sha-256=:" + Data(SHA256.hash(data: data)).base64EncodedString() + ":"
        let faults = library.read { $0.faults }
        func body(_ part: Data) -> ResponseBody {
            var bytes = part
            if faults.corruptContent, !bytes.isEmpty { bytes[bytes.startIndex + bytes.count / 2] ^= 0xFF }
            let cut = faults.cutContentAfter
            guard cut > 0, cut < bytes.count else { return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)) }
            // Promise the whole length, send part of it, then fail: the connection closes mid-body.
            let sent = ByteBuffer(bytes: bytes.prefix(cut))
            return ResponseBody(contentLength: bytes.count) { writer in
                try await writer.write(sent)
                throw FaultMiddleware.Dropped()
            }
        }
        switch ByteRange(header: request.headers[.range], length: data.count) {
        case .whole:
            headers[.contentType] = "application/epub+zip"
            return Response(status: .ok, headers: headers, body: body(data))
        case .part(let range):
            headers[.contentType] = "application/epub+zip"
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)"
            let part = data[data.startIndex + range.lowerBound..<data.startIndex + range.upperBound]
            return Response(status: .partialContent, headers: headers, body: body(Data(part)))
        case .unsatisfiable:
            var response = JSONResponse.make(
                Wire.ErrorAnswer(
                    reason: Said(
                        "The range asked for is outside the book's {count} bytes", ["count": .number(data.count)]
                    ).text(for: request),
                    responseStatus: "RangeNotSatisfiable"),
                status: .rangeNotSatisfiable)
            response.headers[.contentRange] = "bytes */\(data.count)"
            response.headers[.acceptRanges] = "bytes"
            return response
        }
    }

    /// `Repr-Digest` (RFC 9530).
    static let reprDigest = HTTPField.Name("Repr-Digest")!
}
