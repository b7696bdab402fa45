import Foundation
import Testing

@testable import MockLending

#if canImport(Glibc)
import Glibc
#endif

/// A static OPDS 2 catalogue: JSON files in a folder, served by Python's `http.server` on
/// 127.0.0.1, as anyone can publish one (issue 14). Browse, facets as sort choices, pages with
/// more and back, and a download.
@Suite("A static OPDS 2 catalogue (http.server)", .serialized)
struct StaticCatalogueTests {
    /// Writes the catalogue's files: the root, the newest books in two pages, the same by title, one EPUB.
    static func writeCatalogue(in folder: URL) throws {
        func publication(_ title: String, _ author: String, file: String) -> String {
            #"{"metadata": {"title": "\#(title)", "author": "\#(author)", "language": "sv"}, "#
                + #"""
                "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "type": "application/epub+zip", \#
                "href": "books/\#(file)"}]}
                """#
        }
        let facets =
            #"""
            "facets": [{"metadata": {"title": "Sort by"}, "links": [{"href": "new.json", "title": "Newest", \#
            "type": "application/opds+json"}, {"href": "by-title.json", "title": "Title", "type": \#
            "application/opds+json"}]}]
            """#
        let files = [
            "root.json":
                #"""
            {"metadata": {"title": "Bokbytet"}, "links": [{"rel": "self", "href": "root.json", "type": \#
            "application/opds+json"}], "navigation": [{"href": "new.json", "title": "Newest", "type": \#
            "application/opds+json"}]}
            """#,
            "new.json":
                #"""
            {"metadata": {"title": "Newest"}, "links": [{"rel": "next", "href": "new-2.json", "type": \#
            "application/opds+json"}], 
            """#
                + facets + #", "publications": ["#
                + [
                    publication("Ödemarken", "Åsa Berg", file: "a.epub"),
                    publication("Bäcken", "Eva Öst", file: "a.epub"),
                    publication("Cirkeln", "Bo Ek", file: "a.epub"),
                ].joined(separator: ", ") + "]}",
            "new-2.json":
                #"""
            {"metadata": {"title": "Newest, page 2"}, "links": [{"rel": "previous", "href": "new.json", \#
            "type": "application/opds+json"}], "publications": [
            """#
                + [publication("Dimman", "Ann Lund", file: "a.epub"), publication("Ängen", "Per Ås", file: "a.epub")]
                .joined(separator: ", ") + "]}",
            "by-title.json": #"{"metadata": {"title": "By title"}, "# + facets + #", "publications": ["#
                + [publication("Bäcken", "Eva Öst", file: "a.epub"), publication("Cirkeln", "Bo Ek", file: "a.epub")]
                .joined(separator: ", ") + "]}",
        ]
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let books = folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        let product = CatalogGenerator(seed: 1, size: 50).generate().products[0]
        try Data(MockBooks.archive(for: product, seed: 1, sample: true)).write(
            to: books.appendingPathComponent("a.epub"))
    }

    /// A free port on 127.0.0.1 (bound and released; http.server takes it next).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts a connection on 127.0.0.1:`port`.
    static func answers(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @Test("browse, facets as sort choices, more and back through pages, and get downloads the EPUB")
    func browseFacetsPagesAndGet() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writeCatalogue(in: folder)
        let port = try Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", folder.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: the child inherits the test thread's blocked signals, so SIGTERM would wait for ever.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        // Wait until it answers on 127.0.0.1 (and nowhere else: --bind says so).
        let root = URL(string: "http://127.0.0.1:\(port)/root.json")!
        var ready = false
        for _ in 0..<50 where !ready {
            if Self.answers(port: port) { ready = true } else { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(ready, "http.server did not start")

        let result = try await OneShotProcessTests().bok(
            ["--library", root.absoluteString, "--kind", "opds"],
            stdin: "browse\nbrowse 1\nmore\nback\nsort title\nget 1\nquit\n")
        let out = result.stdout
        #expect(out.contains("▸ Newest"), "\(out)\n\(result.stderr)")
        #expect(
            out.contains("Ödemarken") && out.contains("Sort by: ") && out.contains("more for the next page"), "\(out)")
        #expect(out.contains("Newest, page 2") && out.contains("Ängen"), "\(out)")
        #expect(out.contains("By title"), "the Title facet was not followed: \(out)")
        #expect(
            out.range(of: #"Downloaded to .*\.epub: read 1 opens it\."#, options: .regularExpression) != nil,
            "\(out)\n\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
