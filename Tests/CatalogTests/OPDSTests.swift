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
        // Bytes that are not UTF-8 inside a string: a broken pair, a cut emoji (as long as the
        // U+FFFD that would stand for it), a byte that never starts a character.
        for bytes: [UInt8] in [[0xC3, 0x28], [0xF0, 0x9F, 0x98], [0xFF], [0xED, 0xA0, 0x80]] {
            #expect(throws: OPDSParser.Failure.self) {
                try OPDSParser.feed(
                    Data(#"{"links": [], "x": ""#.utf8) + Data(bytes) + Data(#""}"#.utf8), base: Self.base)
            }
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

/// One feed written in the ways XML allows — prefixes or a default namespace, declared at the root
/// or on an entry, references or the characters themselves, CDATA, attributes in any order and
/// either quote, empty elements closed at once or not, white space between elements — reads as the
/// same records.
struct OPDSEquivalentFeedTests {
    static let base = URL(string: "http://127.0.0.1:8000/catalog/root.xml")!

    static let plain = """
        <?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" \
        xmlns:dc="http://purl.org/dc/terms/" xmlns:opds="http://opds-spec.org/2010/catalog" \
        xmlns:os="http://a9.com/-/spec/opensearch/1.1/"><title>Böcker &amp; ljud</title>\
        <os:totalResults>42</os:totalResults>\
        <link rel="next" href="/feed?page=2" type="application/atom+xml;profile=opds-catalog"/>\
        <link rel="http://opds-spec.org/facet" href="/feed?sort=new" title="Nya" opds:facetGroup="Ordning" \
        opds:activeFacet="true"/>\
        <entry><title>Sjön &lt;del 1&gt;</title><id>urn:1</id><author><name>Eva Öst</name></author>\
        <dc:language>sv</dc:language><dc:publisher>Norrsken</dc:publisher><dc:issued>2024</dc:issued>\
        <dc:identifier>urn:isbn:9789100000001</dc:identifier><summary>En "roman" om 'vatten'.</summary>\
        <category term="fiction" label="Skönlitteratur"/><category term="Deckare"/>\
        <link rel="http://opds-spec.org/acquisition/borrow" href="/borrow/1" \
        type="application/atom+xml;type=entry;profile=opds-catalog">\
        <opds:indirectAcquisition type="application/epub+zip"/>\
        <opds:availability status="unavailable" until="2026-12-01"/><opds:holds total="3" position="2"/>\
        <opds:copies total="2" available="0"/></link>\
        <link rel="http://opds-spec.org/image http://opds-spec.org/image/thumbnail" \
        href="http://covers.example/1.png" type="image/png" length="1234"/></entry>\
        <entry><title>Två</title><link rel="http://opds-spec.org/acquisition" href="../get/2.epub" \
        type="application/epub+zip"/></entry></feed>
        """

    /// Prefixes everywhere (OPDS's declared on each entry), references for characters, CDATA,
    /// attributes reversed in single quotes, empty elements written open and closed, white space.
    static let prefixed = """
        <?xml version='1.0'?>
        <a:feed xmlns:a='http://www.w3.org/2005/Atom' xmlns:d="http://purl.org/dc/terms/"
            xmlns:s="http://a9.com/-/spec/opensearch/1.1/">
          <a:title>B&#xF6;cker <![CDATA[&]]> ljud</a:title>
          <s:totalResults>42</s:totalResults>
          <a:link type='application/atom+xml;profile=opds-catalog' href='/feed?page=2' rel='next'></a:link>
          <a:link xmlns:f="http://opds-spec.org/2010/catalog" f:activeFacet='true' f:facetGroup='Ordning'
              title='Nya' href='/feed?sort=new' rel='http://opds-spec.org/facet' />
          <a:entry xmlns:l="http://opds-spec.org/2010/catalog">
            <a:id>urn:1</a:id>
            <a:title><![CDATA[Sjön <del 1>]]></a:title>
            <a:author>
              <a:name>Eva &#214;st</a:name>
            </a:author>
            <d:identifier>urn:isbn:9789100000001</d:identifier>
            <d:issued>2024</d:issued>
            <d:publisher>Norr&#x73;ken</d:publisher>
            <d:language>sv</d:language>
            <a:summary><![CDATA[En "roman" om ]]>&apos;vatten&#39;.</a:summary>
            <a:category label='Sk&#246;nlitteratur' term='fiction'></a:category>
            <a:category term="Deckare" />
            <a:link type="application/atom+xml;type=entry;profile=opds-catalog" href="/borrow/1"
                rel="http://opds-spec.org/acquisition/borrow">
              <l:indirectAcquisition type="application/epub+zip"></l:indirectAcquisition>
              <l:copies available="0" total="2"/>
              <l:holds position="2" total="3"/>
              <l:availability until="2026-12-01" status="unavailable"/>
            </a:link>
            <a:link length="1234" type="image/png" href="http://covers.example/1.png"
                rel="http://opds-spec.org/image http://opds-spec.org/image/thumbnail"/>
          </a:entry>
          <a:entry xmlns:l="http://opds-spec.org/2010/catalog"><a:title>Tv&#xE5;</a:title>
            <a:link type="application/epub+zip" href="../get/2.epub" rel="http://opds-spec.org/acquisition"/>
          </a:entry>
        </a:feed>
        """

    /// A default namespace with entities a DOCTYPE declares, and the Dublin Core of 1.1.
    static let declared = """
        <?xml version="1.0"?><!DOCTYPE feed [<!ENTITY pub "Norrsken"><!ENTITY amp2 "&amp;">]>\
        <!-- a comment --><feed xmlns="http://www.w3.org/2005/Atom" \
        xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opds="http://opds-spec.org/2010/catalog" \
        xmlns:os="http://a9.com/-/spec/opensearch/1.1/"><title>Böcker &amp2; ljud</title>\
        <?pi ignored?><os:totalResults>42</os:totalResults>\
        <link href="/feed?page=2" rel="next" type="application/atom+xml;profile=opds-catalog"/>\
        <link opds:facetGroup="Ordning" href="/feed?sort=new" rel="http://opds-spec.org/facet" title="Nya" \
        opds:activeFacet="true"/>\
        <entry><id>urn:1</id><title>Sjön &#60;del 1&#62;</title><author><name>Eva Öst</name></author>\
        <dc:language>sv</dc:language><dc:publisher>&pub;</dc:publisher><dc:issued>2024</dc:issued>\
        <dc:identifier>urn:isbn:9789100000001</dc:identifier><summary>En &quot;roman&quot; om 'vatten'.</summary>\
        <category label="Skönlitteratur" term="fiction"/><category term="Deckare"/>\
        <link href="/borrow/1" type="application/atom+xml;type=entry;profile=opds-catalog" \
        rel="http://opds-spec.org/acquisition/borrow"><opds:holds position="2" total="3"/>\
        <opds:indirectAcquisition type="application/epub+zip"/><opds:copies available="0" total="2"/>\
        <opds:availability until="2026-12-01" status="unavailable"/></link>\
        <link href="http://covers.example/1.png" length="1234" \
        rel="http://opds-spec.org/image http://opds-spec.org/image/thumbnail" type="image/png"/></entry>\
        <entry><title>Två</title><link href="../get/2.epub" rel="http://opds-spec.org/acquisition" \
        type="application/epub+zip"></link></entry></feed>
        """

    @Test func theFeedReadsAsWritten() throws {
        let feed = try OPDSParser.feed(Data(Self.plain.utf8), base: Self.base)
        #expect(feed.title == "Böcker & ljud" && feed.totalResults == 42)
        #expect(feed.link("next")?.href.absoluteString == "http://127.0.0.1:8000/feed?page=2")
        let facet = try #require(feed.facets.first)
        #expect(facet.facetGroup == "Ordning" && facet.isActiveFacet && facet.title == "Nya")
        #expect(feed.entries.count == 2)
        let first = feed.entries[0]
        #expect(first.id == "urn:1" && first.title == "Sjön <del 1>" && first.authors == ["Eva Öst"])
        #expect(first.language == "sv" && first.publisher == "Norrsken" && first.issued == "2024")
        #expect(first.identifiers == ["urn:isbn:9789100000001"] && first.summary == "En \"roman\" om 'vatten'.")
        #expect(first.subjects == ["Skönlitteratur", "Deckare"])
        let borrow = try #require(first.borrowLink)
        #expect(borrow.href.absoluteString == "http://127.0.0.1:8000/borrow/1")
        #expect(borrow.indirectTypes == ["application/epub+zip"])
        #expect(borrow.lending?.state == .unavailable && borrow.lending?.until == DayDate(string: "2026-12-01"))
        #expect(borrow.lending?.holds == 3 && borrow.lending?.position == 2)
        #expect(borrow.lending?.copies == 2 && borrow.lending?.copiesAvailable == 0)
        let cover = first.links[1]
        #expect(cover.relations == ["http://opds-spec.org/image", "http://opds-spec.org/image/thumbnail"])
        #expect(cover.length == 1234 && cover.href.absoluteString == "http://covers.example/1.png")
        #expect(
            feed.entries[1].id == "Två"
                && feed.entries[1].epub?.href.absoluteString == "http://127.0.0.1:8000/get/2.epub")
    }

    @Test(arguments: [prefixed, declared])
    func theSameFeedWrittenOtherwiseReadsTheSame(_ written: String) throws {
        let plain = try OPDSParser.feed(Data(Self.plain.utf8), base: Self.base)
        let other = try OPDSParser.feed(Data(written.utf8), base: Self.base)
        #expect(other.title == plain.title && other.totalResults == plain.totalResults)
        #expect(other.links == plain.links)
        #expect(other.entries.count == plain.entries.count)
        for (mine, theirs) in zip(other.entries, plain.entries) { #expect(mine == theirs) }
        #expect(other == plain)
    }
}
