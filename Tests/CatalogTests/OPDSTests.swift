import Catalog
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// OPDS feeds as servers write them: a JSON (OPDS 2) catalogue, broken ones, and calibre's real
/// content server.
struct OPDSParserTests {
    static let base = URL(string: "http://127.0.0.1:8000/catalog/root.json")!

    @Test func anOPDS2FeedHasItsNavigationPublicationsFacetsAndPages() throws {
        let json = #"""
            {"metadata": {"title": "Bibliotek"},
             "links": [{"rel": "self", "href": "root.json"}, {"rel": "next", "href": "page2.json", "type": \#
            "application/opds+json"},
                       {"rel": "search", "href": "search{?query}", "type": "application/opds+json", "templated": true}],
             "facets": [{"metadata": {"title": "Språk"}, "links": [{"href": "sv.json", "title": "Svenska", "type": \#
            "application/opds+json"}]}],
             "navigation": [{"href": "new.json", "title": "Nytt", "type": "application/opds+json"}],
             "publications": [{"metadata": {"title": "Vintern 1953", "author": [{"name": "Anna Åberg"}, "Eva Öst"],
                 "language": "sv", "publisher": {"name": "Förlaget"}, "description": "Om vintern.", "identifier": \#
            "urn:isbn:9789100000001",
                 "subject": [{"name": "Deckare"}], "belongsTo": {"series": {"name": "Serien", "position": 2}}},
               "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "/books/1.epub", "type": \#
            "application/epub+zip"}]}]}
            """#
        let feed = try OPDSParser.feed(Data(json.utf8), base: Self.base)
        #expect(feed.title == "Bibliotek")
        #expect(feed.link("next")?.href.absoluteString == "http://127.0.0.1:8000/catalog/page2.json")
        #expect(feed.facets.first?.title == "Svenska" && feed.facets.first?.facetGroup == "Språk")
        let navigation = try #require(feed.entries.first)
        #expect(
            navigation.title == "Nytt"
                && navigation.navigation?.href.absoluteString == "http://127.0.0.1:8000/catalog/new.json")
        let book = try #require(feed.entries.last)
        #expect(
            book.authors == ["Anna Åberg", "Eva Öst"] && book.publisher == "Förlaget" && book.series == "Serien, 2")
        #expect(book.subjects == ["Deckare"] && book.language == "sv")
        #expect(book.epub?.href.absoluteString == "http://127.0.0.1:8000/books/1.epub")
        #expect(book.navigation == nil && book.formats == ["EPUB"])
    }

    @Test func anAtomFeedsFacetsKeepTheirGroupAndTheOneInForce() throws {
        // As calibre and the mock's OPDS face write them: with the opds: prefix.
        let atom = """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" \
            xmlns:opds="http://opds-spec.org/2010/catalog"><title>T</title>
            <link rel="http://opds-spec.org/facet" href="?sort=title" title="Title" opds:facetGroup="Sort by" \
            opds:activeFacet="true"/>
            <link rel="http://opds-spec.org/facet" href="?sort=date" title="Date" opds:facetGroup="Sort by"/>
            </feed>
            """
        let feed = try OPDSParser.feed(Data(atom.utf8), base: Self.base)
        #expect(feed.facets.map(\.facetGroup) == ["Sort by", "Sort by"])
        #expect(feed.facets.map(\.isActiveFacet) == [true, false])
    }

    @Test func whatIsNotACatalogueSaysSoInOneLine() {
        // An HTML login page, JSON that is not OPDS, plain text, a cut-off feed, and ESC (which XML 1.0 forbids).
        for body in [
            "<!DOCTYPE html><html><body>Logga in</body></html>", "{\"hello\": 1}", "Internal error", "<feed",
            "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>&#x1B;]0;x</title></feed>",
        ] {
            #expect(throws: OPDSParser.Failure.self) { try OPDSParser.feed(Data(body.utf8), base: Self.base) }
        }
    }

    @Test func aHostileFeedsWordsAreSafeAndItsLinksStayHTTP() throws {
        let atom = """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><title>Evil\u{9B}2J\u{202E}x</title><author><name>A\u{85}B</name></author><id>1</id>
            <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="file:///etc/passwd"/>
            <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" \
            href="../../../../b.epub"/></entry></feed>
            """
        let feed = try OPDSParser.feed(Data(atom.utf8), base: Self.base)
        let entry = try #require(feed.entries.first)
        #expect(entry.title == "\u{2068}Evil\u{FFFD}2J\u{202E}x\u{202C}\u{2069}" && entry.authors == ["A\u{FFFD}B"])
        // file: is dropped; a path that climbs stops at the host's root, on the same host.
        #expect(entry.acquisitions.map(\.href.absoluteString) == ["http://127.0.0.1:8000/b.epub"])
    }
}

/// OPDS 2 feeds are read by bok's own JSON reader: it must take every JSON document
/// JSONDecoder took, refuse what is not JSON, and resolve links as Foundation does.
struct OPDS2ReadingTests {
    static let base = URL(string: "http://u:p@127.0.0.1:8000/catalog/root.json?page=2#top")!

    static func feed(_ publication: String) throws -> OPDSFeed {
        try OPDSParser.feed(Data(#"{"metadata": {"title": "T"}, "publications": [\#(publication)]}"#.utf8), base: base)
    }

    @Test func escapesNumbersAndOddValuesReadAsJSONSays() throws {
        let feed = try Self.feed(
            #"""
            {"metadata": {"title": "R\u00e4v \ud83e\udd8a \"Sm\u00e5\"\n\t\/",
              "author": [{"name": {"sv": "Åsa", "en": "Asa"}}, 7, "Bo"],
              "belongsTo": {"series": [{"name": "Serien", "position": 2.0}]}, "language": ["sv", 3],
              "publisher": null, "description": 12},
             "links": [{"href": "/b.epub", "rel": ["http://opds-spec.org/acquisition"], "type": "application/epub+zip",
              "properties": {"size": 1.2e3, "indirectAcquisition": [1, {"type": "a", "child": [{"type": "b"}]}]}}]}
            """#)
        let book = try #require(feed.entries.first)
        // A line break and a tab are each a space in a title.
        #expect(book.title == "Räv 🦊 \"Små\"  /")
        #expect(book.authors == ["Åsa", "Bo"] && book.series == "Serien, 2" && book.language == "sv")
        #expect(book.publisher == nil && book.summary == nil)
        let link = try #require(book.links.first)
        #expect(link.length == 1200 && link.indirectTypes == ["a", "b"])
    }

    @Test func whatIsNotJSONIsNoFeed() {
        for body in [
            #"{"publications": [],}"#, #"{"publications": [] "links": []}"#, "{\"title\": \"a\u{01}b\", \"links\": []}",
            #"{"links": [], "title": "\ud800"}"#, #"{"links": [01]}"#, #"{"links": [] } x"#, #"{"links": [1.]}"#,
            #"{'links': []}"#, #"{"links": [tru]}"#, String(repeating: "[", count: 600) + "{",
        ] {
            #expect(throws: OPDSParser.Failure.self, "\(body.prefix(40))") {
                try OPDSParser.feed(Data(body.utf8), base: Self.base)
            }
        }
        // Bytes that are not UTF-8 inside a string.
        #expect(throws: OPDSParser.Failure.self) {
            try OPDSParser.feed(
                Data(#"{"links": [], "x": ""#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8), base: Self.base)
        }
    }

    @Test func linksResolveAsFoundationResolvesThem() throws {
        let hrefs = [
            "/get/epub/12", "/a/b?c=d&e=f%20g", "b.epub", "../b.epub", "/a/./b", "/a/../b", "//other.example/x",
            "http://example.org/x", "https://example.org/x?y", "HTTP://Example.org/X", "/a b", "/ä", "?q=1", "#f",
            "/a%zz", "/.well-known/x", "  /padded  ", "mailto:a@b", "/a:b@c",
        ]
        let links = hrefs.map { #"{"href": "\#($0)", "rel": "http://opds-spec.org/acquisition", "type": "a/b"}"# }
        let book = try #require(
            try Self.feed(#"{"metadata": {"title": "T"}, "links": [\#(links.joined(separator: ","))]}"#).entries.first)
        let expected = hrefs.compactMap { href -> String? in
            guard let url = URL(string: href.trimmingCharacters(in: .whitespaces), relativeTo: Self.base)?.absoluteURL,
                ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else { return nil }
            return url.absoluteString
        }
        #expect(book.links.map(\.href.absoluteString) == expected)
    }
}

/// Atom feeds as XML Namespaces reads them, whatever prefixes a server picks, and feeds in other
/// encodings than UTF-8.
struct OPDSNamespaceTests {
    static let base = URL(string: "http://127.0.0.1:8000/catalog/root.xml")!

    @Test func aFeedThatPrefixesAtomAndDeclaresOPDSOnTheEntryReadsAsAnyOther() throws {
        let atom = """
            <?xml version="1.0"?><a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>Nytt</a:title>
            <a:entry xmlns:lending="http://opds-spec.org/2010/catalog"><a:title>Vintern</a:title><a:id>urn:1</a:id>
            <a:author><a:name>Anna Åberg</a:name></a:author>
            <a:link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/1" \
            type="application/atom+xml;type=entry;profile=opds-catalog">\
            <lending:indirectAcquisition type="application/epub+zip"/>\
            <lending:availability status="unavailable"/><lending:holds total="4"/></a:link></a:entry></a:feed>
            """
        let feed = try OPDSParser.feed(Data(atom.utf8), base: Self.base)
        #expect(feed.title == "Nytt")
        let entry = try #require(feed.entries.first)
        #expect(entry.title == "Vintern" && entry.authors == ["Anna Åberg"])
        #expect(entry.lending?.state == .unavailable && entry.lending?.holds == 4)
        #expect(entry.borrowLink?.indirectTypes == ["application/epub+zip"])
    }

    @Test func namesFromOtherVocabulariesAreNotTakenForAtomsOwn() throws {
        // A Dublin Core title beside Atom's, an author in another namespace, and a prefix that
        // means OPDS on the feed but something else on one link.
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:o="http://opds-spec.org/2010/catalog"><title>T</title>
            <entry><title>Sjön</title><dc:title>Sjön: en roman (inbunden)</dc:title><id>urn:1</id>
            <author><name>Eva Öst</name></author><x:author xmlns:x="urn:other"><x:name>Nobody</x:name></x:author>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b/1"><o:availability status="ready"/></link>
            <link rel="http://opds-spec.org/acquisition/borrow" href="/b/2" xmlns:o="urn:not-opds">\
            <o:availability status="ready"/></link></entry></feed>
            """
        let entry = try #require(try OPDSParser.feed(Data(atom.utf8), base: Self.base).entries.first)
        #expect(entry.title == "Sjön" && entry.authors == ["Eva Öst"])
        #expect(entry.links.map { $0.lending?.state } == [.ready, nil])
    }

    @Test func aLatin1FeedReadsWithItsLetters() throws {
        let head = #"<?xml version="1.0" encoding="ISO-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom">"#
        // "Bibliotekets böcker", an entry "Åsa – €" by "Öst": Latin-1 bytes, with 0x96 and 0x80 as
        // Windows-1252 writes them.
        let bytes: [UInt8] =
            Array((head + "<title>Bibliotekets b").utf8) + [0xF6] + Array("cker</title><entry><title>".utf8)
            + [0xC5] + Array("sa ".utf8) + [0x96, 0x20, 0x80] + Array("</title><author><name>".utf8) + [0xD6]
            + Array("st</name></author><id>urn:1</id></entry></feed>".utf8)
        let feed = try OPDSParser.feed(Data(bytes), base: Self.base)
        #expect(feed.title == "Bibliotekets böcker")
        #expect(feed.entries.first?.title == "Åsa – €" && feed.entries.first?.authors == ["Öst"])
    }

    @Test func aDoctypeDeclaresWordsButNeverReadsAFile() throws {
        let atom = """
            <?xml version="1.0"?><!DOCTYPE feed [<!ENTITY lib "Stadsbiblioteket">
            <!ENTITY secret SYSTEM "file:///etc/passwd">]><feed xmlns="http://www.w3.org/2005/Atom">\
            <title>&lib;s e-böcker</title><entry><title>[&secret;]</title><id>1</id></entry></feed>
            """
        let feed = try OPDSParser.feed(Data(atom.utf8), base: Self.base)
        #expect(feed.title == "Stadsbibliotekets e-böcker")
        #expect(feed.entries.first?.title == "[]")
    }

    @Test func theTotalIsReadInOpenSearch1Point0And1Point1ButNotInAnotherNamespace() throws {
        func total(_ namespace: String) throws -> Int? {
            let atom = """
                <feed xmlns="http://www.w3.org/2005/Atom" xmlns:os="\(namespace)"><title>T</title>\
                <os:totalResults>1234</os:totalResults></feed>
                """
            return try OPDSParser.feed(Data(atom.utf8), base: Self.base).totalResults
        }
        #expect(try total("http://a9.com/-/spec/opensearch/1.1/") == 1234)
        #expect(try total("http://a9.com/-/spec/opensearchrss/1.0/") == 1234)
        #expect(try total("urn:something-else") == nil)
    }

    @Test func theOpenSearchTemplateIsFoundByItsNamespace() throws {
        let description = """
            <?xml version="1.0"?><os:OpenSearchDescription xmlns:os="http://a9.com/-/spec/opensearch/1.1/">\
            <os:Url type="text/html" template="/html?q={searchTerms}"/>\
            <os:Url type="application/atom+xml" template="/search?q={searchTerms}"/></os:OpenSearchDescription>
            """
        #expect(
            OPDSParser.openSearchTemplate(Data(description.utf8), base: Self.base)
                == "http://127.0.0.1:8000/search?q={searchTerms}")
    }
}

/// The same client against calibre's content server, a real OPDS server nobody here wrote.
@Suite(.serialized, .enabled(if: CalibreServer.isInstalled, "needs calibre (Debian package calibre)"))
struct CalibreOPDSTests {
    static let books = [
        CalibreServer.Book(title: "Vintern 1953", author: "Anna Åberg", language: "sv"),
        CalibreServer.Book(title: "The Lake", author: "John Smith", language: "en"),
        CalibreServer.Book(title: "Sjön", author: "Eva Öst", language: "sv"),
    ]

    @Test func browseSearchAndDownloadFromCalibre() async throws {
        let server = try await CalibreServer.start(books: Self.books)
        defer { server.stop() }
        let client = OPDSClient(root: server.root)
        let root = try await client.feed()
        let byTitle = try #require(
            root.entries.first { $0.title == "By Title" }?.navigation, "\(root.entries.map(\.title))")
        let titles = try await client.feed(byTitle.href)
        #expect(Set(titles.entries.map(\.title)) == Set(Self.books.map(\.title)))
        #expect(titles.entries.allSatisfy { $0.epub != nil }, "every book can be had as EPUB")

        let found = try await client.search("Vintern", from: root)
        #expect(found.entries.map(\.title) == ["Vintern 1953"])
        #expect(found.entries.first?.authors == ["Anna Åberg"])
        // A word with a Swedish letter, percent-encoded on the way.
        let sjon = try await client.search("Sjön", from: root)
        #expect(sjon.entries.map(\.title) == ["Sjön"])
        // calibre answers a search without hits with 404: no books, not a page that has moved.
        let none = try await client.search("Zyxwvutsrq", from: root)
        #expect(none.entries.isEmpty)

        let epub = try #require(found.entries.first?.epub)
        let (data, _) = try await URLSession.shared.data(from: epub.href)
        #expect(data.prefix(2) == Data("PK".utf8), "an EPUB (zip) file")
    }

    @Test func aPasswordProtectedCalibreAsksAndRefusesAWrongPassword() async throws {
        let server = try await CalibreServer.start(books: Array(Self.books.prefix(1)), user: ("elsa", "hemligt"))
        defer { server.stop() }
        do {
            _ = try await OPDSClient(root: server.root).feed()
            Issue.record("no password, yet the catalogue answered")
        } catch let error as LendingError {
            #expect(
                error.kind == .unauthorized && error.message.contains("asks for a user name and password"),
                "\(error.message)")
        }
        do {
            _ = try await OPDSClient(root: server.root, user: "elsa", password: "fel").feed()
            Issue.record("a wrong password was accepted")
        } catch let error as LendingError {
            #expect(error.kind == .unauthorized && error.message.contains("did not accept"), "\(error.message)")
            #expect(!error.message.contains("fel"), "the password is never in a message")
        }
        let feed = try await OPDSClient(root: server.root, user: "elsa", password: "hemligt").feed()
        #expect(!feed.entries.isEmpty)
    }
}
