import Foundation
import Testing

@testable import Reader

@Suite struct EPUBBookTests {
    static let threeChapters: [EPUBBuilder.Chapter] = [
        .init("text/ch1.xhtml", "Chapter One", "<h1>Chapter One</h1><p>It was a dark night.</p>"),
        .init(
            "text/ch2.xhtml", "Chapter Two",
            "<h1>Chapter Two</h1><p>The day came.<a epub:type=\"noteref\" href=\"notes.xhtml#n1\">1</a></p>"),
        .init(
            "text/notes.xhtml", "Notes", "<aside epub:type=\"footnote\" id=\"n1\"><p>A note.</p></aside>", linear: false
        ),
    ]

    @Test("An EPUB 3 book's page list may be in its NCX only, beside a nav that gives the contents")
    func pageListFromTheNCXBesideTheNav() throws {
        var builder = EPUBBuilder(version: "3.0", chapters: Self.threeChapters)
        builder.withNCX = true
        builder.ncxExtra = """
            <pageList><pageTarget value="12" type="normal"><navLabel><text>12</text></navLabel>\
            <content src="text/ch2.xhtml"/></pageTarget></pageList>
            """
        let book = try EPUBBook(bytes: builder.build())
        #expect(book.tableOfContents.map(\.title) == ["Chapter One", "Chapter Two"])
        #expect(book.pageList.map(\.label) == ["12"])
        #expect(book.pageList.first?.spineIndex == 1)
        builder.ncxExtra = ""
        #expect(try EPUBBook(bytes: builder.build()).pageList.isEmpty)
        #expect(Navigation.mentionsPageList(Array("<ncx><pagelist/>".utf8)))
        #expect(!Navigation.mentionsPageList(Array("<ncx><navMap/><page".utf8)))
    }

    @Test("Books opened at once from many tasks each get their own contents, read beside the opening")
    func contentsReadBesideTheOpening() async throws {
        // More books than the cooperative pool has threads: each task waits for its book's contents,
        // which are read on threads of their own, never on the pool.
        let titles = try await withThrowingTaskGroup(of: [String].self) { group in
            for number in 0..<32 {
                group.addTask {
                    let chapters: [EPUBBuilder.Chapter] = (1...3).map {
                        .init("c\($0).xhtml", "Book \(number) part \($0)", "<h1>Part \($0)</h1><p>Text.</p>")
                    }
                    let book = try EPUBBook(bytes: EPUBBuilder(version: "3.0", chapters: chapters).build())
                    return book.tableOfContents.map(\.title)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(titles.count == 32)
        #expect(Set(titles.map { $0.first ?? "" }).count == 32)
        #expect(titles.allSatisfy { $0.count == 3 && $0[2].hasSuffix("part 3") })
    }

    @Test func opensEPUB3WithNavAndMetadata() throws {
        var builder = EPUBBuilder(version: "3.0", chapters: Self.threeChapters)
        builder.extraMetadata = """
            <dc:creator id="a1">Selma Lagerlöf</dc:creator>
            <meta refines="#a1" property="role" scheme="marc:relators">aut</meta>
            <meta refines="#a1" property="file-as">Lagerlöf, Selma</meta>
            <dc:contributor id="t1">Jane Doe</dc:contributor>
            <meta refines="#t1" property="role" scheme="marc:relators">trl</meta>
            <dc:publisher>Bonniers</dc:publisher><dc:date>1891-01-01</dc:date>
            """
        builder.extraManifest =
            "<item id=\"cov\" href=\"images/cover.png\" media-type=\"image/png\" properties=\"cover-image\"/>\n"
        builder.extraFiles = [("OEBPS/images/cover.png", [0x89, 0x50, 0x4E, 0x47])]
        builder.navExtra =
            """
            <nav epub:type=\"page-list\"><ol><li><a href=\"text/ch1.xhtml\">1</a></li><li><a \
            href=\"text/ch2.xhtml\">2</a></li></ol></nav>
            """
        let book = try builder.open()
        #expect(book.version == "3.0")
        #expect(book.metadata.title == "Test Book")
        #expect(book.metadata.creators == [Contributor(name: "Selma Lagerlöf", role: "aut", fileAs: "Lagerlöf, Selma")])
        #expect(book.metadata.contributors.first?.roleName == "translator")
        #expect(book.metadata.language == "en")
        #expect(book.metadata.identifiers.first?.value == "urn:uuid:1234")
        #expect(book.metadata.identifiers.first?.isUnique == true)
        #expect(book.metadata.publisher == "Bonniers")
        #expect(book.metadata.date == "1891-01-01")
        #expect(book.hasOwnTableOfContents)
        #expect(book.tableOfContents.map(\.title) == ["Chapter One", "Chapter Two"])
        #expect(book.tableOfContents.map(\.spineIndex) == [0, 1])
        #expect(book.pageList.map(\.label) == ["1", "2"])
        #expect(book.coverImagePath == "OEBPS/images/cover.png")
        #expect(book.coverImage == [0x89, 0x50, 0x4E, 0x47])
        #expect(book.warnings.isEmpty)
    }

    @Test func linearNoIsOutOfReadingOrderButReachableByLinks() throws {
        let book = try EPUBBuilder(version: "3.0", chapters: Self.threeChapters).open()
        #expect(book.spine.count == 3)
        #expect(book.readingOrder == [0, 1])
        let chapter = book.document(at: 1)
        let noteLink = chapter.blocks.flatMap(\.runs).first { $0.style.contains(.noteReference) }?.link
        guard case .internal(let target)? = noteLink else {
            Issue.record("no note reference link")
            return
        }
        let locator = try #require(book.locator(for: target))
        #expect(locator.spineIndex == 2)
        #expect(locator.snippet?.hasPrefix("A note.") == true)
    }

    @Test func opensEPUB2WithNestedNCX() throws {
        var builder = EPUBBuilder(version: "2.0", chapters: Self.threeChapters)
        builder.extraMetadata = """
            <dc:creator opf:role="aut" opf:file-as="Strindberg, August">August Strindberg</dc:creator>
            <meta name="cover" content="cov"/>
            """
        builder.extraManifest = "<item id=\"cov\" href=\"cover.jpg\" media-type=\"image/jpeg\"/>\n"
        builder.extraFiles = [("OEBPS/cover.jpg", [0xFF, 0xD8, 0xFF])]
        let book = try builder.open()
        #expect(
            book.metadata.creators == [
                Contributor(name: "August Strindberg", role: "aut", fileAs: "Strindberg, August")
            ])
        #expect(book.tableOfContents.map(\.title) == ["Chapter One", "Chapter Two", "Notes"])
        #expect(book.coverImagePath == "OEBPS/cover.jpg")

        // Nested navPoints.
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip", deflate: false)
        zip.add(
            "META-INF/container.xml",
            "<container><rootfiles><rootfile full-path=\"content.opf\"/></rootfiles></container>")
        zip.add(
            "content.opf",
            """
            <package version="2.0"><metadata><dc:title>N</dc:title></metadata>
            <manifest><item id="a" href="a.html" media-type="application/xhtml+xml"/><item id="ncx" href="toc.ncx" \
            media-type="application/x-dtbncx+xml"/></manifest>
            <spine toc="ncx"><itemref idref="a"/></spine></package>
            """)
        zip.add("a.html", "<html><body><h1 id=s1>Part</h1><p>x</p><h2 id=s2>Sub</h2><p>y</p></body></html>")
        zip.add(
            "toc.ncx",
            """
            <ncx><navMap><navPoint><navLabel><text>Part</text></navLabel><content src="a.html#s1"/>
              <navPoint><navLabel><text>Sub</text></navLabel><content src="a.html#s2"/></navPoint>
            </navPoint></navMap>
            <pageList><pageTarget value="7" type="normal"><navLabel><text>7</text></navLabel><content \
            src="a.html#s2"/></pageTarget></pageList></ncx>
            """)
        let nested = try EPUBBook(bytes: zip.archive())
        #expect(nested.tableOfContents.count == 1)
        #expect(nested.tableOfContents[0].children.map(\.title) == ["Sub"])
        #expect(nested.tableOfContents[0].children[0].target == LinkTarget(path: "a.html", fragment: "s2"))
        #expect(nested.pageList.map(\.label) == ["7"])
        let sub = try #require(nested.locator(for: LinkTarget(path: "a.html", fragment: "s2")))
        #expect(sub.snippet?.hasPrefix("Sub") == true)
    }

    @Test func withoutTOCTheSpineGivesChapterTitles() throws {
        var builder = EPUBBuilder(
            version: "3.0",
            chapters: [
                .init("a.xhtml", "Title A", "<h2>First heading</h2><p>x</p>"),
                .init("b.xhtml", "Title B", "<p>no heading here</p>"),
            ])
        builder.withNav = false
        let book = try builder.open()
        #expect(!book.hasOwnTableOfContents)
        #expect(book.tableOfContents.map(\.title) == ["First heading", "Title B"])
    }

    @Test func fontObfuscationIsNotDRM() throws {
        var builder = EPUBBuilder(chapters: Self.threeChapters)
        builder.extraFiles = [
            (
                "META-INF/encryption.xml",
                Array(
                    """
                    <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" \
                    xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
                    <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
                    <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/a.otf"/></enc:CipherData></enc:EncryptedData>
                    <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://ns.adobe.com/pdf/enc#RC"/>
                    <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/b.otf"/></enc:CipherData></enc:EncryptedData>
                    </encryption>
                    """.utf8)
            )
        ]
        let book = try builder.open()
        #expect(book.document(at: 0).plainText.contains("dark night"))
    }

    @Test func partlyBrokenBookOpensWithPlaceholderAndWarning() throws {
        var builder = EPUBBuilder(chapters: Self.threeChapters)
        builder.omitFiles = ["text/ch2.xhtml"]
        let book = try builder.open()
        #expect(book.spine[1].isMissing)
        #expect(book.document(at: 1).plainText == "[This chapter is missing from the book's file.]\n")
        #expect(book.warnings.contains { $0.contains("OEBPS/text/ch2.xhtml") && $0.contains("missing") })
        #expect(book.document(at: 0).plainText.contains("dark night"))
    }
}

@Suite struct NavigationLabelTests {
    @Test func aContentsEntryWhoseLabelIsAPictureUsesItsAltText() throws {
        var builder = EPUBBuilder(chapters: [.init("one.xhtml", "One", "<p>Text.</p>")])
        builder.navBody = """
            <nav epub:type="toc"><ol><li><a href="one.xhtml"><img src="title.png" alt="Chapter the \
            First"/></a></li></ol></nav>
            """
        let book = try builder.open()
        #expect(book.tableOfContents.map(\.title) == ["Chapter the First"])
    }
}

/// What EPUB 3.3 asks of a reading system that cannot run scripts or that is told how to flow.
@Suite struct RenditionTests {
    @Test func aScriptedChapterWithAFallbackIsReplacedByIt() throws {
        var builder = EPUBBuilder()
        builder.extraManifest = """
            <item id="quiz" href="quiz.xhtml" media-type="application/xhtml+xml" properties="scripted" \
            fallback="plain"/>
            <item id="plain" href="plain.xhtml" media-type="application/xhtml+xml"/>\n
            """
        builder.extraFiles = [
            ("OEBPS/quiz.xhtml", Array(EPUBBuilder.xhtml(title: "Quiz", body: "<p>Needs JavaScript.</p>").utf8)),
            ("OEBPS/plain.xhtml", Array(EPUBBuilder.xhtml(title: "Plain", body: "<p>Without scripts.</p>").utf8)),
        ]
        builder.spineOverride = "<itemref idref=\"quiz\"/>"
        let book = try builder.open()
        #expect(book.document(at: 0).plainText == "Without scripts.\n")
    }

    @Test(
        arguments: [("scrolled-doc", ReaderPreferences.Flow.scroll), ("paginated", .paged), (nil, .paged)]
            as [(String?, ReaderPreferences.Flow)])
    func renditionFlowChoosesScrollingUntilTheReaderChooses(flow: String?, expected: ReaderPreferences.Flow) throws {
        var builder = EPUBBuilder(chapters: [.init("one.xhtml", "One", "<p>Text.</p>")])
        if let flow { builder.extraMetadata = "<meta property=\"rendition:flow\">\(flow)</meta>" }
        let book = try builder.open()
        let store = InMemoryPositionStore()
        var session = ReaderSession(book: book, store: store, columns: 60, rows: 20)
        #expect(session.preferences.flow == expected)
        _ = session.perform(.flow(.paged))
        #expect(
            ReaderSession(book: book, store: store, columns: 60, rows: 20).preferences.flow == .paged,
            "the reader's choice wins")
    }
}

/// Pictures as EPUB 3.3 asks: through the manifest's fallbacks, and only what the manifest lists.
@Suite struct ManifestPictureTests {
    @Test func aPictureTheReaderCannotDrawFallsBackAndAnUnlistedOneIsNotShown() throws {
        var builder = EPUBBuilder(chapters: [
            .init(
                "one.xhtml", "One",
                #"<p><img src="fig.tiff" alt="Figure"/></p><p><img src="loose.png" alt="Loose"/></p>"#)
        ])
        builder.extraManifest = """
            <item id="fig" href="fig.tiff" media-type="image/tiff" fallback="figpng"/>
            <item id="figpng" href="fig.png" media-type="image/png"/>\n
            """
        let png = PNGWriter.rgba(width: 2, height: 2) { _, _ in (10, 20, 30, 255) }
        builder.extraFiles = [
            ("OEBPS/fig.tiff", Array("II*\u{0}".utf8)), ("OEBPS/fig.png", png),
            ("OEBPS/loose.png", png),
        ]
        let book = try builder.open()
        let images = book.document(at: 0).blocks.compactMap { block -> ImageReference? in
            if case .image(let image) = block.kind { return image }
            return nil
        }
        #expect(
            images == [ImageReference(path: "OEBPS/fig.png", alt: "Figure"), ImageReference(path: nil, alt: "Loose")])
    }

    @Test("A data: URL picture is decoded from the page itself: its size and pixels reach the layout")
    func aDataURLPictureIsShown() throws {
        let png = PNGWriter.rgba(width: 4, height: 2) { _, _ in (200, 10, 10, 255) }
        let inline = "data:image/png;base64," + Data(png).base64EncodedString()
        var builder = EPUBBuilder(chapters: [
            .init(
                "one.xhtml", "One",
                "<p><img src=\"\(inline)\" alt=\"Red\"/></p><p><img src=\"data:image/png;base64,!!!\" alt=\"Bad\"/></p>"
            )
        ])
        builder.extraFiles = []
        let book = try builder.open()
        let images = book.document(at: 0).blocks.compactMap { block -> ImageReference? in
            if case .image(let image) = block.kind { return image }
            return nil
        }
        #expect(images.map(\.alt) == ["Red", "Bad"])
        #expect(images.first?.path == inline, "an inline picture keeps its data: URL, the manifest aside")
        #expect(try book.resource(at: inline) == png)
        #expect(BookContent(book: book).imageSize(at: inline)?.width == 4)
        #expect(throws: ReaderError.self) { try book.resource(at: "data:image/png;base64,!!!") }
        #expect(DataURL.decode("data:,Hello%2C%20World")?.bytes == Array("Hello, World".utf8))
        #expect(DataURL.decode("data:text/plain;base64,SGk=")?.mediaType == "text/plain")
    }
}
