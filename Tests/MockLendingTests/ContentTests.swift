import Catalog
import Foundation
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The books themselves: a loan's EPUB and the samples, served with ranges.
@Suite("Mock lending: content")
struct ContentTests {
    @Test("A loan's EPUB is served whole, with its type, length and Accept-Ranges, and in ranges")
    func loanEPUBAndRanges() async throws {
        try await TestServer.lending { server in
            let id = LendingFixtures.accessTitle()
            let loan = try await server.lending.createLoan(card: "1001", pin: "1234", productID: id)
            let url = try #require(loan.epubURL)
            let product = try #require(Fixtures.catalog.products.first { $0.id == id })
            let book = MockBooks.epub(for: product, seed: 1, sample: false)
            let n = book.count
            #expect(n > 10)

            let (whole, response) = try await server.download(url)
            #expect(response.statusCode == 200 && whole == book)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/epub+zip")
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "\(n)")
            #expect(response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")

            let cases: [(String, Range<Int>)] = [
                ("bytes=0-4", 0..<5), ("bytes=5-", 5..<n), ("bytes=-3", (n - 3)..<n),
                ("bytes=2-\(n + 100)", 2..<n), ("bytes=-\(n + 5)", 0..<n),
            ]
            for (header, range) in cases {
                let (part, partial) = try await server.download(url, range: header)
                #expect(partial.statusCode == 206, "\(header)")
                #expect(part == book.subdata(in: range), "\(header)")
                #expect(
                    partial.value(forHTTPHeaderField: "Content-Range")
                        == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(n)")
                #expect(partial.value(forHTTPHeaderField: "Content-Length") == "\(range.count)")
            }
            for header in ["bytes=\(n)-", "bytes=\(n + 10)-\(n + 20)", "bytes=-0"] {
                let (body, unsatisfiable) = try await server.download(url, range: header)
                #expect(unsatisfiable.statusCode == 416, "\(header)")
                #expect(unsatisfiable.value(forHTTPHeaderField: "Content-Range") == "bytes */\(n)")
                #expect(String(decoding: body, as: UTF8.self).contains("\"Reason\""))
            }
            // Ranges this server does not serve are ignored: the whole book.
            let (ignored, whole200) = try await server.download(url, range: "bytes=0-1,4-5")
            #expect(whole200.statusCode == 200 && ignored == book)
        }
    }

    @Test("The Teaser URL serves the sample to anyone; a product without one is 404")
    func samples() async throws {
        try await TestServer.lending { server in
            let client = server.client()
            let withSample = try #require(Fixtures.catalog.products.first { $0.teaser != nil })
            let product = try await client.product(id: withSample.id)
            let url = try #require(product.teaser?.url)
            let (data, response) = try await server.download(url)
            #expect(response.statusCode == 200 && data == MockBooks.epub(for: withSample, seed: 1, sample: true))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/epub+zip")
            let (_, partial) = try await server.download(url, range: "bytes=0-0")
            #expect(partial.statusCode == 206)

            let without = try #require(Fixtures.catalog.products.first { $0.teaser == nil })
            let (body, missing) = try await server.download(
                "http://127.0.0.1:\(server.server.port)/mock/content/\(without.id)/sample.epub")
            #expect(missing.statusCode == 404 && String(decoding: body, as: UTF8.self).contains("no sample"))
            let (_, unknownLoan) = try await server.download(
                "http://127.0.0.1:\(server.server.port)/mock/content/loans/L999999.epub")
            #expect(unknownLoan.statusCode == 404)
        }
    }

    @Test(
        "Range headers",
        arguments: [
            ("bytes=0-9", ByteRange.part(0..<10)), ("bytes=90-", .part(90..<100)), ("bytes=-10", .part(90..<100)),
            ("bytes=95-200", .part(95..<100)), ("bytes=-500", .part(0..<100)), ("bytes=100-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable), ("bytes=99999999999999999999-", .unsatisfiable), ("bytes=9-3", .whole),
            ("bytes=0-1,5-6", .whole), ("items=0-9", .whole), ("bytes=a-b", .whole), ("bytes=-", .whole), ("", .whole),
            (" bytes = 3 - 4 ", .whole), ("bytes=3 - 4", .part(3..<5)),
        ])
    func byteRanges(header: String, expected: ByteRange) {
        #expect(ByteRange(header: header, length: 100) == expected)
    }

    @Test("An empty body satisfies no range")
    func emptyBody() {
        #expect(ByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-5", length: 0) == .unsatisfiable)
        #expect(ByteRange(header: nil, length: 0) == .whole)
    }

    @Test("The book cache keeps the books used last, up to its capacity")
    func bookCache() {
        let cache = BookCache(capacity: 2)
        var made = 0
        func get(_ index: Int) -> Data {
            cache.book(BookCache.Key(productIndex: index, sample: false)) {
                made += 1
                return Data([UInt8(index)])
            }
        }
        #expect(get(1) == Data([1]) && get(2) == Data([2]) && get(1) == Data([1]))
        #expect(made == 2)
        _ = get(3)  // drops 2, used longest ago
        #expect(cache.count == 2)
        _ = get(1)
        #expect(made == 3)
        _ = get(2)
        #expect(made == 4)
    }
}
