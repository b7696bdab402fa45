import Markup
import Testing

/// The XML reader the catalogue's Atom feeds go through: namespaces as XML Namespaces resolves
/// them, XML's rules on references and well-formedness, and encodings other than UTF-8.
struct XMLReaderTests {
    /// Every event of a document, or the failure that stopped it.
    private func events(_ xml: String) -> Result<[XMLEvent], XMLReader.Failure> {
        events(Array(xml.utf8))
    }

    private func events(_ bytes: [UInt8]) -> Result<[XMLEvent], XMLReader.Failure> {
        var reader = XMLReader(bytes: bytes)
        var events: [XMLEvent] = []
        do {
            while let event = try reader.next() { events.append(event) }
        } catch {
            return .failure(error)
        }
        return .success(events)
    }

    /// The elements' names in document order.
    private func starts(_ xml: String) throws -> [XMLName] {
        try events(xml).get().compactMap { event in
            if case .start(let name, _) = event { return name }
            return nil
        }
    }

    private func text(_ xml: String) throws -> String {
        try events(xml).get().compactMap { event in
            if case .text(let text) = event { return text }
            return nil
        }.joined()
    }

    static let atom = "http://www.w3.org/2005/Atom"
    static let opds = "http://opds-spec.org/2010/catalog"

    @Test func theDefaultNamespaceReachesEveryDescendantButNotAttributes() throws {
        let events = try events(#"<feed xmlns="\#(Self.atom)"><entry><link href="a"/></entry></feed>"#).get()
        #expect(
            events == [
                .start(XMLName(namespace: Self.atom, local: "feed"), []),
                .start(XMLName(namespace: Self.atom, local: "entry"), []),
                .start(
                    XMLName(namespace: Self.atom, local: "link"),
                    [XMLAttribute(name: XMLName(namespace: nil, local: "href"), value: "a")]),
                .end(XMLName(namespace: Self.atom, local: "link")),
                .end(XMLName(namespace: Self.atom, local: "entry")),
                .end(XMLName(namespace: Self.atom, local: "feed")),
            ])
    }

    @Test func aPrefixDeclaredOnAnyAncestorResolvesAndTheNearestDeclarationWins() throws {
        let names = try starts(
            """
            <a:feed xmlns:a="\(Self.atom)" xmlns:o="\(Self.opds)"><a:entry>\
            <o:holds/><x xmlns:o="urn:other"><o:holds/></x><o:holds/></a:entry></a:feed>
            """)
        #expect(
            names == [
                XMLName(namespace: Self.atom, local: "feed"), XMLName(namespace: Self.atom, local: "entry"),
                XMLName(namespace: Self.opds, local: "holds"), XMLName(namespace: nil, local: "x"),
                XMLName(namespace: "urn:other", local: "holds"),
                // The redeclaration ends with the element that made it.
                XMLName(namespace: Self.opds, local: "holds"),
            ])
    }

    @Test func prefixedAttributesAndXmlnsEmptyAndUndeclaredPrefixes() throws {
        let events = try events(
            """
            <feed xmlns="\(Self.atom)" xmlns:opds="\(Self.opds)"><link opds:facetGroup="G" xml:lang="sv"/>\
            <inner xmlns=""><nope:thing/></inner></feed>
            """
        ).get()
        let link = events.first { if case .start(let name, _) = $0 { name.local == "link" } else { false } }
        guard case .start(_, let attributes) = link else {
            Issue.record("no link")
            return
        }
        #expect(
            attributes == [
                XMLAttribute(name: XMLName(namespace: Self.opds, local: "facetGroup"), value: "G"),
                XMLAttribute(
                    name: XMLName(namespace: "http://www.w3.org/XML/1998/namespace", local: "lang"), value: "sv"),
            ])
        // `xmlns=""` takes the default namespace away; a prefix nobody declared leaves a name in none.
        #expect(events.contains(.start(XMLName(namespace: nil, local: "inner"), [])))
        #expect(events.contains(.start(XMLName(namespace: nil, local: "thing"), [])))
    }

    @Test(arguments: [
        ("<t>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</t>", "a & b <c> \"d\" 'e'"),
        ("<t>&#233;&#xE9;&#x1F600;&#133;</t>", "éé😀\u{85}"),
        ("<t><![CDATA[<b>&amp;</b>]]></t>", "<b>&amp;</b>"),
        ("<t>x<!-- hidden <t> -->y<?php echo 1 ?>z<?x?></t>", "xyz"),
        ("<?xml version=\"1.0\"?><!DOCTYPE t [<!ENTITY who \"Åsa &amp; Bo\">]><t>&who;</t>", "Åsa & Bo"),
        // An external entity is declared, so the document is well-formed, and it is never read.
        ("<!DOCTYPE t [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><t>[&x;]</t>", "[]"),
    ])
    func referencesCDATACommentsAndProcessingInstructions(xml: String, expected: String) throws {
        #expect(try text(xml) == expected)
    }

    @Test(arguments: [
        "<feed", "<feed>", "<a><b></a></b>", "<a></b>", "<a/><b/>", "text<a/>", "<a/>text", "<a b='1' b='2'/>",
        "<a b=1/>", "<a b/>", "<a>&nbsp;</a>", "<a>&#x1B;</a>", "<a>&#0;</a>", "<a>&#X41;</a>", "<a>& b</a>",
        "<a>\u{1B}</a>", "<a>\u{FFFF}</a>", "<a><!-- open</a>", "<a><![CDATA[open</a>", "<a><?pi open</a>",
        "<a c='<'/>", "<a>x</a ", "<a><!ELEMENT x ANY></a>", "<a><?xml version='1.0'?></a>", "",
    ])
    func whatIsNotWellFormedFails(xml: String) {
        guard case .failure = events(xml) else {
            Issue.record("\(xml.debugDescription) was read as well-formed")
            return
        }
    }

    @Test func elementsNestNoDeeperThanTheCap() {
        let deep =
            String(repeating: "<a>", count: XMLReader.maxDepth + 1)
            + String(
                repeating: "</a>", count: XMLReader.maxDepth + 1)
        let fine =
            String(repeating: "<a>", count: XMLReader.maxDepth)
            + String(
                repeating: "</a>", count: XMLReader.maxDepth)
        #expect((try? events(deep).get()) == nil)
        #expect((try? events(fine).get()) != nil)
    }

    @Test func oneEntityReferredToOverAndOverAddsNoMoreThanTheCap() throws {
        let value = String(repeating: "x", count: 4000)
        let references = String(repeating: "&e;", count: 1000)  // 4 MB if every one were expanded
        let xml = "<!DOCTYPE t [<!ENTITY e \"\(value)\">]><t>\(references)</t>"
        #expect((try? events(xml).get()) == nil, "past the cap the document is refused")
        let few = "<!DOCTYPE t [<!ENTITY e \"\(value)\">]><t>\(String(repeating: "&e;", count: 10))</t>"
        #expect(try text(few).count == 40_000)
    }

    @Test func encodingsByByteOrderMarkAndDeclaration() throws {
        // ISO-8859-1 as it is sent: 0x80-0x9F are Windows-1252's marks (€, “, ”).
        let latin1: [UInt8] =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><t>"#.utf8) + [0xC5, 0x73, 0x61, 0x20, 0x80, 0x93, 0x94]
            + Array("</t>".utf8)
        #expect(try text(latin1) == "Åsa €“”")
        let cyrillic: [UInt8] =
            Array(#"<?xml version='1.0' encoding='windows-1251'?><t>"#.utf8) + [0xCA, 0xED, 0xE8, 0xE3, 0xE0]
            + Array("</t>".utf8)
        #expect(try text(cyrillic) == "Книга")
        let units: [UInt16] = Array("<t>Öst</t>".utf16)
        let utf16: [UInt8] =
            [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try text(utf16) == "Öst")
        // A declaration of UTF-16 in ASCII bytes is not true: read as UTF-8.
        #expect(try text(Array("<?xml version='1.0' encoding='UTF-16'?><t>Öst</t>".utf8)) == "Öst")
        // Not UTF-8 and no other encoding named: each bad byte reads as U+FFFD, as it did with XMLParser.
        #expect(try text(Array("<t>a".utf8) + [0xFF] + Array("b</t>".utf8)) == "a\u{FFFD}b")
    }

    private func text(_ bytes: [UInt8]) throws -> String {
        try events(bytes).get().compactMap { event in
            if case .text(let text) = event { return text }
            return nil
        }.joined()
    }
}
