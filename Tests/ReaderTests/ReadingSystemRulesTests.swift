import Testing

@testable import Reader

/// EPUB Reading Systems 3.3 rules that apply to a text reader, each checked on a small book or
/// document made for the rule: what a reader sees, not how bok gets there.
@Suite struct ReadingSystemContentTests {
    private func convert(_ body: String, head: String = "", htmlAttributes: String = "") -> ChapterDocument {
        let html = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(htmlAttributes)>
            <head><title>t</title>\(head)</head>
            <body>\(body)</body></html>
            """
        return ContentConverter.convert(Array(html.utf8), path: "OEBPS/c.xhtml")
    }

    @Test(arguments: [
        #"<p hidden="">secret</p><p>shown</p>"#,
        #"<p hidden="hidden">secret</p><p>shown</p>"#,
        #"<p style="display: none">secret</p><p>shown</p>"#,
        #"<p style="DISPLAY:NONE !important">secret</p><p>shown</p>"#,
    ])
    func hiddenContentIsNotShown(body: String) {
        #expect(convert(body).plainText == "shown\n")
    }

    @Test func aStyleElementInTheDocumentHidesWhatItSaysToHide() {
        let doc = convert(
            #"<p class="answer">42</p><p id="spoiler">The butler.</p><p class="ink">Read on.</p>"#,
            head: """
                <style type="text/css">/*<![CDATA[*/ .answer { display: none } #spoiler{display:none} /*]]>*/</style>
                <style media="print">.ink { display: none }</style>
                """)
        #expect(doc.plainText == "Read on.\n")
        // A style element in the body applies from where it stands, and is not text.
        let later = convert(#"<p class="x">shown</p><style>.x { display: none }</style><p class="x">hidden</p>"#)
        #expect(later.plainText == "shown\n")
        #expect(later.isWellFormed)
    }

    @Test func cssThatChangesWhatLettersAreSeenIsHonoured() {
        let doc = convert(
            """
            <p>Chapter <span class="caps">one</span>, <span style="text-transform: uppercase">two</span>\
            <span class="ghost"> and a ghost</span><span style="visibility:hidden"> and another</span>.</p>
            """,
            head: "<style>.caps { -epub-text-transform: uppercase } .ghost { visibility: hidden }</style>")
        #expect(doc.plainText == "Chapter ONE, TWO.\n")
    }

    @Test func rubyShowsTheReadingInParenthesesAfterItsBase() {
        #expect(convert("<p><ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>です</p>").plainText == "漢(kan)字(ji)です\n")
        // The book's own fallback parentheses are not doubled.
        #expect(
            convert("<p><ruby>東京<rp>(</rp><rt>とうきょう</rt><rp>)</rp></ruby>へ</p>").plainText == "東京(とうきょう)へ\n")
        #expect(convert("<p><ruby><rb>明</rb><rt>めい</rt></ruby></p>").plainText == "明(めい)\n")
    }

    @Test func bdoSetsEveryLetterInItsDirection() {
        let doc = convert(#"<p>abc <bdo dir="rtl">xyz 12</bdo> end</p><p dir="rtl"><bdo dir="ltr">אבג</bdo> ד</p>"#)
        // The text stays in logical order for search and positions; only the drawing is reordered.
        #expect(doc.plainText == "abc xyz 12 end\nאבג ד\n")
        let layout = ChapterLayout.make(
            doc, spineIndex: 0, settings: LayoutSettings(width: 40, rows: 100, margin: 0))
        #expect(layout.lines.map(\.rendered) == ["abc 21 zyx end", "", String(repeating: " ", count: 35) + "ד אבג"])
    }

    @Test func bdiKeepsANameOfTheOtherDirectionFromTakingTheTextAfterIt() {
        // HTML's own example: without the isolate, the count after an Arabic name is drawn before it.
        let doc = convert("<p>User <bdi>إيان</bdi>: 3 posts</p>")
        let layout = ChapterLayout.make(doc, spineIndex: 0, settings: LayoutSettings(width: 40, rows: 100, margin: 0))
        // ﻥﺎﻳﺇ: the name right to left, its letters joined (noon alone, alef final, yeh initial, alef-hamza alone).
        #expect(layout.lines.map(\.rendered) == ["User \u{FEE5}\u{FE8E}\u{FEF3}\u{FE87}: 3 posts"])
    }

    @Test(arguments: [
        (#"<ol reversed=""><li>a</li><li>b</li><li>c</li></ol>"#, ["3.", "2.", "1."]),
        (#"<ol reversed="reversed" start="10"><li>a</li><li>b</li></ol>"#, ["10.", "9."]),
        (#"<ol start="4" type="a"><li>a</li><li>b</li></ol>"#, ["d.", "e."]),
        (#"<ol type="I"><li>a</li><li value="9">b</li><li>c</li></ol>"#, ["I.", "IX.", "X."]),
        (#"<ol reversed=""><li>a<ol><li>x</li><li>y</li></ol></li><li>b</li></ol>"#, ["2.", "1.", "2.", "1."]),
    ])
    func orderedListsAreNumberedAsTheyAsk(body: String, markers: [String]) {
        #expect(convert(body).blocks.compactMap(\.listMarker) == markers)
    }

    @Test func epubSwitchShowsItsDefaultOnly() {
        let doc = convert(
            """
            <p>Before.</p><epub:switch id="s1"><epub:case required-namespace="http://example.org/chem">\
            <chem>H2O</chem></epub:case><epub:default><p>Water, H₂O.</p></epub:default></epub:switch><p>After.</p>
            """)
        #expect(doc.plainText == "Before.\nWater, H₂O.\nAfter.\n")
    }

    @Test func embeddedMediaShowTheirFallbackText() {
        let doc = convert(
            """
            <video src="film.mp4" controls=""><source src="film.webm" type="video/webm"/><track kind="captions" \
            src="c.vtt"/><p>A film of the harbour.</p></video>\
            <audio src="a.mp3"><p>The ferry's horn.</p></audio>\
            <object data="movie.swf" type="application/x-shockwave-flash"><p>The crossing, in words.</p></object>
            """)
        #expect(doc.plainText == "A film of the harbour.\nThe ferry's horn.\nThe crossing, in words.\n")
    }

    @Test func anObjectThatIsAPictureIsShownAsOneDescribedByItsFallback() {
        let doc = convert(
            """
            <object data="img/map.png" type="image/png"><p>Map of the <em>harbour</em>.</p></object>\
            <object data="chart.svg"></object><img src="p.png"/>
            """)
        #expect(
            doc.blocks.map(\.kind) == [
                .image(ImageReference(path: "OEBPS/img/map.png", alt: "Map of the harbour.")),
                .image(ImageReference(path: "OEBPS/chart.svg", alt: "")),
                .image(ImageReference(path: "OEBPS/p.png", alt: "")),
            ])
        #expect(ImageReference(path: "OEBPS/p.png", alt: "").placeholder == "[image]")
    }

    @Test func anIframeOfAnExternalPageIsALinkToIt() {
        let doc = convert(
            #"<p>See:</p><iframe src="https://example.org/map" title="The harbour map"></iframe><p>After.</p>"#)
        let link = doc.blocks.flatMap(\.runs).first { $0.link != nil }
        #expect(link?.link == .external("https://example.org/map"))
        #expect(link?.text == "The harbour map")
        #expect(doc.plainText == "See:\nThe harbour map\nAfter.\n")
        let inline = convert(#"<p>a</p><iframe src="data:text/html,&lt;p&gt;x&lt;/p&gt;"></iframe><p>b</p>"#)
        #expect(inline.plainText == "a\nb\n")
    }

    @Test func entitiesAndCDATAAreText() {
        let html = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE html [ <!ENTITY ferry "the ferry Ölandsfärjan"> ]>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head>
            <body><p>On &ferry;&nbsp;&amp; caf&eacute; &#x263A;</p><p><![CDATA[if a < b && c]]></p></body></html>
            """
        let doc = ContentConverter.convert(Array(html.utf8), path: "c.xhtml")
        #expect(doc.plainText == "On the ferry Ölandsfärjan\u{A0}& café ☺\nif a < b && c\n")
    }

    @Test func xmlLangWinsOverLangForQuotationMarks() {
        let doc = convert(#"<p xml:lang="sv" lang="en">Hon sa <q>hej</q>.</p>"#)
        #expect(doc.plainText == "Hon sa ”hej”.\n")
    }

    @Test func inlineSVGIsDrawnAndLabelledByItsTitleOrText() {
        let doc = convert(#"<svg xmlns="http://www.w3.org/2000/svg"><text x="0" y="10">North pier</text></svg>"#)
        guard case .image(let picture) = doc.blocks.first?.kind else {
            Issue.record("no picture: \(doc.blocks)")
            return
        }
        #expect(picture.alt == "North pier" && picture.path?.hasPrefix("data:image/svg+xml;base64,") == true)
        // A drawing with nothing inside it is its label only.
        let empty = convert(#"<svg xmlns="http://www.w3.org/2000/svg"><title>Nothing</title></svg>"#)
        #expect(empty.blocks.first?.kind == .image(ImageReference(path: nil, alt: "Nothing")))
    }
}

@Suite struct ReadingSystemPackageTests {
    private func firstText(_ book: EPUBBook, _ index: Int = 0) -> String {
        book.document(at: index).plainText
    }

    @Test func theFirstRootfileIsThePackageRead() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>First rendition.</p>")])
        builder.includeContainer = false
        builder.extraFiles = [
            (
                "META-INF/container.xml",
                Array(
                    """
                    <?xml version="1.0"?>
                    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
                    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
                    <rootfile full-path="other/content.opf" media-type="application/oebps-package+xml"/>
                    </rootfiles></container>
                    """.utf8)
            )
        ]
        let book = try builder.open()
        #expect(book.packagePath == "OEBPS/content.opf")
        #expect(firstText(book) == "First rendition.\n")
    }

    @Test(arguments: [
        ("chapter%20one.xhtml", "OEBPS/chapter one.xhtml"),
        ("kapitel-%C3%A5.xhtml", "OEBPS/kapitel-å.xhtml"),
        ("kapitel-å.xhtml", "OEBPS/kapitel-å.xhtml"),
        ("日本語.xhtml", "OEBPS/日本語.xhtml"),
    ])
    func percentEncodedAndNonASCIINamesAreFound(href: String, stored: String) throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraManifest = "<item id=\"x\" href=\"\(href)\" media-type=\"application/xhtml+xml\"/>\n"
        builder.spineOverride = "<itemref idref=\"x\"/>"
        builder.extraFiles = [(stored, Array(EPUBBuilder.xhtml(title: "x", body: "<p>Found it.</p>").utf8))]
        let book = try builder.open()
        #expect(book.warnings.isEmpty)
        #expect(firstText(book) == "Found it.\n")
    }

    @Test func namesDifferingOnlyInCaseAreDifferentFiles() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>lower</p>")])
        builder.extraManifest = "<item id=\"big\" href=\"CH1.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
        builder.spineOverride = "<itemref idref=\"c0\"/><itemref idref=\"big\"/>"
        builder.extraFiles = [("OEBPS/CH1.xhtml", Array(EPUBBuilder.xhtml(title: "x", body: "<p>UPPER</p>").utf8))]
        let book = try builder.open()
        #expect(firstText(book, 0) == "lower\n")
        #expect(firstText(book, 1) == "UPPER\n")
    }

    /// Debian's live manual lists each chapter's sections as manifest items of their own
    /// (`the-basics.xhtml#o163`) and puts them all in the spine: read straight through, the
    /// chapter came round again at each section, and progress counted it each time.
    @Test func sectionsOfAChapterTheSpineListsAfterItAreNotReadAgain() throws {
        var builder = EPUBBuilder(chapters: [
            .init("ch1.xhtml", "One", "<h1>One</h1>" + String(repeating: "<p>The first chapter.</p>", count: 30)),
            .init("ch2.xhtml", "Two", "<h1>Two</h1><p>The second chapter.</p>"),
        ])
        builder.extraManifest = """
            <item id="c0-s2" href="ch1.xhtml#s2" media-type="application/xhtml+xml"/>
            <item id="c0-s3" href="ch1.xhtml#s3" media-type="application/xhtml+xml"/>

            """
        builder.spineOverride = """
            <itemref idref="c0"/><itemref idref="c0-s2"/><itemref idref="c0-s3"/><itemref idref="c1"/>
            """
        let book = try builder.open()
        #expect(book.spine.map(\.path) == ["OEBPS/ch1.xhtml", "OEBPS/ch2.xhtml"])
        #expect(book.warnings.contains { $0.contains("sections of 2 chapters") })
        // Paging from the first chapter's last page goes on to the second chapter, and the
        // book's progress there is past the first chapter's share, not a quarter of the way.
        var session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 40, rows: 10)
        while session.position.spineIndex == 0 { session.nextPage() }
        #expect(session.visiblePages()[0].contains { $0.line.text.contains("The second chapter.") })
        #expect(session.fractionRead == 1)
    }

    @Test func anSVGDocumentInTheSpineIsDrawnAndLabelled() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraManifest = "<item id=\"map\" href=\"map.svg\" media-type=\"image/svg+xml\"/>\n"
        builder.spineOverride = "<itemref idref=\"map\"/><itemref idref=\"c0\"/>"
        builder.extraFiles = [
            (
                "OEBPS/map.svg",
                Array(
                    """
                    <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\
                    <title>Map of the islands</title><circle r="4"/></svg>
                    """.utf8)
            )
        ]
        let book = try builder.open()
        let blocks = book.document(at: 0).blocks
        #expect(blocks.count == 1)
        #expect(blocks.first?.kind == .image(ImageReference(path: "OEBPS/map.svg", alt: "Map of the islands")))
    }

    @Test(arguments: [
        // A spine item bok cannot show, with a fallback it cannot show either: the reader is told.
        (
            #"<item id="x" href="app.dmg" media-type="application/x-apple-diskimage" fallback="y"/>"#
                + #"<item id="y" href="art.psd" media-type="image/vnd.adobe.photoshop"/>"#,
            "[bok cannot show this part of the book (a file of type image/vnd.adobe.photoshop).]\n"
        ),
        // A picture bok cannot draw falls back to one it can, then to a page.
        (
            #"<item id="x" href="art.psd" media-type="image/vnd.adobe.photoshop" fallback="y"/>"#
                + #"<item id="y" href="page.xhtml" media-type="application/xhtml+xml"/>"#,
            "The page instead.\n"
        ),
        // A JSON document with no fallback is not shown as its text.
        (
            #"<item id="x" href="data.json" media-type="application/json"/>"#,
            "[bok cannot show this part of the book (a file of type application/json).]\n"
        ),
    ])
    func aSpineItemNothingOfWhichCanBeShownSaysSo(manifest: String, shown: String) throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraManifest = manifest
        builder.spineOverride = #"<itemref idref="x"/><itemref idref="c0"/>"#
        builder.extraFiles = [
            ("OEBPS/app.dmg", Array(repeating: 0x78, count: 64)), ("OEBPS/art.psd", Array("8BPS".utf8)),
            ("OEBPS/data.json", Array(#"{"a": 1}"#.utf8)),
            ("OEBPS/page.xhtml", Array(EPUBBuilder.xhtml(title: "p", body: "<p>The page instead.</p>").utf8)),
        ]
        let book = try builder.open()
        #expect(book.document(at: 0).plainText == shown)
        #expect(book.document(at: 1).plainText == "One.\n")
    }

    @Test func theFirstTitleIsTheMainTitleAndWhitespaceCollapses() throws {
        // EPUB RS 3.3: the first `dc:title` in document order is the main title, even when a
        // later one is refined as `main`; titles and creators are stripped and collapsed.
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.title = "  \t Package   Whitespace \n  "
        builder.extraMetadata = """
            <dc:title id="main">This title must not display first</dc:title>
            <meta refines="#main" property="title-type">main</meta>
            <dc:creator>\n\t Dave   Cramer </dc:creator>
            """
        let book = try builder.open()
        #expect(book.metadata.title == "Package Whitespace")
        #expect(book.metadata.creators.map(\.name) == ["Dave Cramer"])
    }

    private static func onix(title: String?, authors: [String], shortTags: Bool = false) -> [UInt8] {
        let titleXML =
            title.map {
                shortTags
                    ? "<titledetail><b202>01</b202><titleelement><x409>01</x409><b203>\($0)</b203>"
                        + "</titleelement></titledetail>"
                    : """
                    <TitleDetail><TitleType>01</TitleType><TitleElement><TitleElementLevel>01</TitleElementLevel>\
                    <TitleText>\($0)</TitleText></TitleElement></TitleDetail>
                    """
            } ?? ""
        let contributors = authors.enumerated().map { index, name in
            shortTags
                ? "<contributor><b034>\(authors.count - index)</b034><b035>A01</b035><b036>\(name)</b036></contributor>"
                : """
                <Contributor><SequenceNumber>\(index + 1)</SequenceNumber><ContributorRole>A01</ContributorRole>\
                <PersonName>\(name)</PersonName></Contributor>
                """
        }.joined()
        let illustrator =
            "<Contributor><ContributorRole>A12</ContributorRole><PersonName>Not An Author</PersonName></Contributor>"
        return Array(
            """
            <?xml version="1.0"?><ONIXMessage release="3.0"><Product><DescriptiveDetail>\
            \(titleXML)\(contributors)\(illustrator)</DescriptiveDetail></Product></ONIXMessage>
            """.utf8)
    }

    @Test func aLinkedONIXRecordGivesTheTitleAndAuthorsTheFirstRecordFirst() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraMetadata = """
            <dc:creator>Package Author</dc:creator>
            <link rel="record" href="meta/empty.xml" media-type="application/xml" properties="onix"/>
            <link rel="record" href="meta/first.xml" media-type="application/xml" properties="onix"/>
            <link rel="record" href="meta/second.xml" media-type="application/xml" properties="onix"/>
            <link rel="record" href="https://example.org/onix.xml" media-type="application/xml" properties="onix"/>
            """
        builder.extraFiles = [
            ("OEBPS/meta/empty.xml", Self.onix(title: nil, authors: [])),
            ("OEBPS/meta/first.xml", Self.onix(title: "The Linked Title", authors: ["Ann Ek", "Bo Ek"])),
            ("OEBPS/meta/second.xml", Self.onix(title: "Not This", authors: ["Nor This"], shortTags: true)),
        ]
        let book = try builder.open()
        #expect(book.metadata.title == "The Linked Title")
        #expect(book.metadata.creators.map(\.name) == ["Ann Ek", "Bo Ek"])
        // A record without a title or authors leaves the package's; short tags are read too.
        builder.extraMetadata = """
            <dc:creator>Package Author</dc:creator>
            <link rel="record" href="meta/empty.xml" media-type="application/xml" properties="onix"/>
            <link rel="record" href="meta/second.xml" media-type="application/xml" properties="onix"/>
            """
        let other = try builder.open()
        #expect(other.metadata.title == "Not This")
        #expect(other.metadata.creators.map(\.name) == ["Nor This"])
        builder.extraMetadata =
            #"<dc:creator>Package Author</dc:creator><link rel="record" href="meta/empty.xml" properties="onix"/>"#
        let plain = try builder.open()
        #expect(plain.metadata.title == "Test Book")
        #expect(plain.metadata.creators.map(\.name) == ["Package Author"])
        // The book keeps the identity (and so the saved place) it had before records were read.
        #expect(BookID(book: book) == BookID(book: plain))
    }

    @Test func aBookKeepsItsIdentityWhenItsMainTitleIsNoLongerTheOneRefinedAsMain() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraMetadata = """
            <dc:title id="main">Refined Main</dc:title><meta refines="#main" property="title-type">main</meta>
            """
        let book = try builder.open()
        #expect(book.metadata.title == "Test Book")
        var before = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        before.title = "Refined Main"
        #expect(BookID(book: book) == BookID(book: try before.open()))
    }

    @Test func creatorsKeepTheirDocumentOrder() throws {
        // EPUB RS 3.3: the first `dc:creator` is the primary creator; `display-seq` does not reorder.
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.extraMetadata = """
            <dc:creator id="c1">First Author</dc:creator><dc:creator id="c2">Second Author</dc:creator>
            <dc:creator id="c3">Third Author</dc:creator>
            <meta refines="#c1" property="display-seq">2</meta><meta refines="#c2" property="display-seq">1</meta>
            <meta refines="#c2" property="file-as">Author, Second</meta>
            """
        let book = try builder.open()
        #expect(book.metadata.creators.map(\.name) == ["First Author", "Second Author", "Third Author"])
        #expect(book.metadata.creators[1].fileAs == "Author, Second")
    }

    @Test(arguments: [
        (" dir=\"rtl\"", " dir=\"auto\"", TextDirection?.none),
        (" dir=\"rtl\"", "", TextDirection.rightToLeft),
        (" dir=\"ltr\"", " dir=\"rtl\"", TextDirection.rightToLeft),
        ("", "", TextDirection?.none),
    ])
    func theTitleReadsInTheDirectionItOrThePackageSets(
        package: String, title: String, expected: TextDirection?
    )
        throws
    {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")])
        builder.title = "CSS: הרפתקה חדשה!"
        builder.packageExtra = package
        builder.titleExtra = title
        builder.extraMetadata = "<dc:creator\(title)>מחבר</dc:creator>"
        let book = try builder.open()
        #expect(book.metadata.titleDirection == expected)
        #expect(book.metadata.creators.first?.direction == expected)
    }

    @Test func aDocumentTheSpineNamesTwiceIsShownTwiceAndLinksGoToItsFirstLinearPlace() throws {
        var builder = EPUBBuilder(
            chapters: [
                .init("ch1.xhtml", "One", #"<p>One, see <a href="ch2.xhtml">two</a>.</p>"#),
                .init("ch2.xhtml", "Two", "<p>Two.</p>"),
            ])
        builder.spineOverride = """
            <itemref idref="c1" linear="no"/><itemref idref="c0"/><itemref idref="c1"/><itemref idref="c0"/>
            """
        let book = try builder.open()
        #expect(book.readingOrder == [1, 2, 3])
        #expect(
            book.readingOrder.map { book.document(at: $0).plainText } == [
                "One, see two.\n", "Two.\n", "One, see two.\n",
            ])
        #expect(book.locator(for: LinkTarget(path: "OEBPS/ch2.xhtml"))?.spineIndex == 2)
    }

    @Test func aChapterDoesNotTakeItsLanguageOrDirectionFromThePackage() throws {
        // EPUB RS 3.3: without `lang`/`dir` of its own, a chapter is not assumed to be in the
        // book's `dc:language`, nor to run in the package's direction.
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>2024 (1)</p><p>He said <q>yes</q>.</p>")])
        builder.language = "he"
        builder.packageExtra = " xml:lang=\"he\" dir=\"rtl\""
        let book = try builder.open()
        let document = book.document(at: 0)
        #expect(document.plainText == "2024 (1)\nHe said “yes”.\n")
        let layout = ChapterLayout.make(
            document, spineIndex: 0,
            settings: LayoutSettings(width: 40, rows: 100, margin: 0, language: book.metadata.language))
        #expect(layout.lines.first?.rendered == "2024 (1)")
    }

    @Test func entriesOfANavTheBookHidesStayInTheContents() throws {
        // `hidden` keeps a nav out of the page, not out of the reader's own contents list.
        var builder = EPUBBuilder(
            chapters: [.init("ch1.xhtml", "One", "<p>One.</p>"), .init("ch2.xhtml", "Two", "<p>Two.</p>")])
        builder.navBody = """
            <nav epub:type="toc"><ol><li><a href="ch1.xhtml">One</a><ol hidden=""><li>\
            <a href="ch2.xhtml">Two</a></li></ol></li></ol></nav>
            <nav epub:type="landmarks" hidden=""><ol><li><a epub:type="bodymatter" \
            href="ch1.xhtml">Start</a></li></ol></nav>
            """
        let book = try builder.open()
        #expect(book.tableOfContents.flatMap { $0.flattened() }.map(\.entry.title) == ["One", "Two"])
    }

    @Test func navHeadingsWithoutLinksKeepTheirEntries() throws {
        var builder = EPUBBuilder(
            chapters: [.init("ch1.xhtml", "One", "<p>One.</p>"), .init("ch2.xhtml", "Two", "<p>Two.</p>")])
        builder.navBody = """
            <nav epub:type="toc"><ol><li><span>Part One</span><ol><li><a href="ch1.xhtml">One</a>\
            </li><li><a href="ch2.xhtml">Two</a></li></ol></li></ol></nav>
            """
        let contents = try builder.open().tableOfContents
        #expect(contents.map(\.title) == ["Part One"])
        #expect(contents.first?.target == nil)
        #expect(contents.first?.children.map(\.title) == ["One", "Two"])
        #expect(contents.first?.children.map(\.spineIndex) == [0, 1])
    }

    @Test func unknownVersionsPropertiesAndMetaDoNotStopTheBook() throws {
        var builder = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>Opens.</p>")])
        builder.version = "0"
        builder.extraMetadata = #"<meta property="foo:bar">x</meta><meta property="unknown">y</meta>"#
        builder.extraManifest =
            #"<item id="odd" href="ch1.xhtml" media-type="application/xhtml+xml" properties="made-up other"/>"#
        builder.spineOverride = #"<itemref idref="c0" properties="page-spread-nowhere made-up"/>"#
        let book = try builder.open()
        #expect(book.document(at: 0).plainText == "Opens.\n")
        #expect(book.metadata.title == "Test Book")
    }

    @Test func anIframeShowsTheBooksDocumentInPlaceOnlyWhenTheManifestListsIt() throws {
        var builder = EPUBBuilder(
            chapters: [
                .init(
                    "ch1.xhtml", "One",
                    """
                    <p>Before.</p><iframe src="map.xhtml" title="Map"><p>Your browser has no frames.</p></iframe>\
                    <iframe src="unlisted.xhtml"></iframe><p>After.</p>
                    """)
            ])
        builder.extraManifest = "<item id=\"map\" href=\"map.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
        builder.extraFiles = [
            (
                "OEBPS/map.xhtml",
                Array(
                    EPUBBuilder.xhtml(
                        title: "Map",
                        body: #"<p id="pier" style="font-style: italic">North pier</p><iframe src="ch1.xhtml"/>"#
                    ).utf8)
            ),
            ("OEBPS/unlisted.xhtml", Array(EPUBBuilder.xhtml(title: "x", body: "<p>Not listed.</p>").utf8)),
        ]
        let document = try builder.open().document(at: 0)
        #expect(document.plainText == "Before.\nNorth pier\nAfter.\n")
        #expect(document.blocks[1].runs.first?.style.contains(.emphasis) == true)
        #expect(document.anchors["pier"] == 8)
        #expect(document.title == "One")
    }

    @Test func framesOfOneLargeDocumentAreShownOnlyUpToACap() throws {
        // A hostile chapter of many frames of one large page must not convert it again and again.
        let paragraph = "<p>" + String(repeating: "ferry ", count: 160) + "</p>"
        var builder = EPUBBuilder(
            chapters: [.init("ch1.xhtml", "One", String(repeating: #"<iframe src="big.xhtml"/>"#, count: 12))])
        builder.extraManifest = "<item id=\"big\" href=\"big.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
        builder.extraFiles = [
            (
                "OEBPS/big.xhtml",
                Array(EPUBBuilder.xhtml(title: "Big", body: String(repeating: paragraph, count: 2_000)).utf8)
            )
        ]
        let document = try builder.open().document(at: 0)
        let copy = 2_000 * 160 * 6  // one embedded page's text, about 1.9 MB
        #expect(document.length >= 4 * copy)
        #expect(document.length < 5 * copy)
    }

    @Test func onePartOfASplitZipIsRefusedAsDamaged() throws {
        var bytes = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>One.</p>")]).build()
        let endRecord = bytes.count - 22  // no archive comment
        #expect(bytes[endRecord..<endRecord + 4] == [0x50, 0x4B, 0x05, 0x06])
        bytes[endRecord + 4] = 2  // "this is disk 2"
        #expect(throws: ReaderError.self) { try EPUBBook(bytes: bytes) }
    }

    @Test func aChapterCompressedOtherwiseThanDeflateIsAnErrorNotGarbage() throws {
        let built = EPUBBuilder(
            chapters: [.init("ch1.xhtml", "One", "<p>One.</p>"), .init("ch2.xhtml", "Two", "<p>Two.</p>")]
        ).build()
        // Give OEBPS/ch2.xhtml's central directory entry method 12 (bzip2).
        var bytes = built
        let name = Array("OEBPS/ch2.xhtml".utf8)
        var patched = false
        for index in 0..<(bytes.count - 46) where bytes[index..<index + 4] == [0x50, 0x4B, 0x01, 0x02] {
            let length = Int(bytes[index + 28]) | Int(bytes[index + 29]) << 8
            if Array(bytes[(index + 46)..<(index + 46 + length)]) == name {
                bytes[index + 10] = 12
                patched = true
            }
        }
        #expect(patched)
        let book = try EPUBBook(bytes: bytes)
        #expect(book.document(at: 0).plainText == "One.\n")
        #expect(book.document(at: 1).plainText.hasPrefix("[This chapter could not be read"))
    }

    @Test(arguments: [(true, false), (false, true), (true, true)])
    func aZipWrittenByStreamingOrZIP64ToolsOpens(dataDescriptors: Bool, zip64: Bool) throws {
        var zip = ZipWriter()
        zip.useDataDescriptors = dataDescriptors
        zip.useZip64 = zip64
        let built = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>Streamed zip.</p>")]).build()
        let archive = try ZipArchive(bytes: built)
        for entry in archive.entries where !entry.isDirectory {
            zip.add(entry.rawName, bytes: try archive.data(at: entry.rawName), deflate: entry.rawName != "mimetype")
        }
        let book = try EPUBBook(bytes: zip.archive())
        #expect(book.document(at: 0).plainText == "Streamed zip.\n")
        #expect(book.metadata.title == "Test Book")
    }
}
