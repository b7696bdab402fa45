import Catalog
import Foundation
import Hummingbird
import NIOCore

/// The books themselves: a loan's EPUB while the loan is active, and each product's sample.
///
/// Served like a file server: `Content-Type: application/epub+zip`, `Content-Length`,
/// `Accept-Ranges: bytes` and single-range requests (206, or 416 when the range is past the
/// end), so a client can resume a broken download. No checksum: like upstream's content links
/// the URL itself is the key, and it stops working (410) when the loan ends.
struct ContentRoutes: Sendable {
    let library: MockLibrary

    /// Where the EPUB of loan `id` is, below the server's origin.
    static func loanPath(_ id: String) -> String { "/mock/content/loans/\(id).epub" }

    func register(on mock: RouterGroup<MockRequestContext>) {
        mock.get("content/loans/{id}.epub") { request, context in try loanBook(request, id: context.parameters.require("id")) }
        mock.get("content/:id/sample.epub") { request, context in try sample(request, id: context.parameters.require("id")) }
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
            throw APIFailure(status: .notFound, reason: "This book has no sample")
        }
        return serve(book(index, sample: true), request)
    }

    func book(_ index: Int, sample: Bool) -> Data {
        library.books.book(BookCache.Key(productIndex: index, sample: sample)) {
            MockBooks.epub(for: library.catalog.products[index], seed: library.configuration.seed, sample: sample)
        }
    }

    /// The whole book, or the part `Range` asks for.
    func serve(_ data: Data, _ request: Request) -> Response {
        var headers = HTTPFields()
        headers[.acceptRanges] = "bytes"
        switch ByteRange(header: request.headers[.range], length: data.count) {
        case .whole:
            headers[.contentType] = "application/epub+zip"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        case .part(let range):
            headers[.contentType] = "application/epub+zip"
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(data.count)"
            let part = data[data.startIndex + range.lowerBound..<data.startIndex + range.upperBound]
            return Response(status: .partialContent, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: part)))
        case .unsatisfiable:
            var response = JSONResponse.make(Wire.ErrorAnswer(
                reason: "The range asked for is outside the book's \(data.count) bytes", responseStatus: "RangeNotSatisfiable"),
                status: .rangeNotSatisfiable)
            response.headers[.contentRange] = "bytes */\(data.count)"
            response.headers[.acceptRanges] = "bytes"
            return response
        }
    }
}
