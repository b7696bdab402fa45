import Testing

@testable import Reader

@Suite struct ContentConverterTests {
    private func convert(_ body: String, head: String = "", path: String = "OEBPS/ch1.xhtml") -> ChapterDocument {
        let html = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
            <head><title>Doc title</title>\(head)<style>p { color: red }</style></head>
            <body>\(body)</body></html>
            """
        return ContentConverter.convert(Array(html.utf8), path: path)
    }

    @Test func collapsesWhiteSpaceAndSkipsHead() {
        let doc = convert("<p>  Hello \n\t  <em>big</em>   world  </p><script>var x = 1;</script>")
        #expect(doc.plainText == "Hello big world\n")
        #expect(doc.blocks.count == 1)
        #expect(doc.blocks[0].runs.map(\.text) == ["Hello ", "big", " world"])
        #expect(doc.blocks[0].runs[1].style == .emphasis)
        #expect(doc.title == "Doc title")
    }

    @Test func headingsBecomeTitleAndBlocks() {
        let doc = convert("<h2>Chapter <b>One</b></h2><p>Text.</p>")
        #expect(doc.title == "Chapter One")
        #expect(doc.blocks[0].kind == .heading(level: 2))
        #expect(doc.plainText == "Chapter One\nText.\n")
    }

    @Test func preformattedKeepsSpaces() {
        let doc = convert("<pre>\nline  one\n  line two</pre><p>after</p>")
        #expect(doc.blocks[0].kind == .preformatted)
        #expect(doc.blocks[0].text == "line  one\n  line two")
    }

    @Test func listsAreNumberedAndNested() {
        let doc = convert(
            "<ol start=\"3\"><li>three</li><li>four<ul><li>inner</li></ul></li></ol><ul><li><p>bullet</p></li></ul>")
        let items = doc.blocks.map { ($0.listMarker ?? "", $0.listDepth, $0.text) }
        #expect(items.map(\.0) == ["3.", "4.", "◦", "•"])
        #expect(items.map(\.1) == [1, 1, 2, 1])
        #expect(items.map(\.2) == ["three", "four", "inner", "bullet"])
    }

    @Test func smallCapsAreUpperCasedAndSoftHyphensRemembered() {
        let doc = convert("<p><span class=\"smallcaps\">Lord</span> won&shy;der&shy;ful</p>")
        #expect(doc.plainText == "LORD wonderful\n")
        #expect(doc.blocks[0].softHyphens == [8, 11])
    }

    @Test func footnotesLinksAndAnchors() {
        let doc = convert(
            """
            <p id="start">See<a epub:type="noteref" href="#n1">1</a> and <a href="ch2.xhtml#x">there</a> or <a \
            href="https://example.org">web</a>.</p>
            <aside epub:type="footnote" id="n1"><p>The note.</p></aside>
            """)
        let runs = doc.blocks[0].runs
        let noteRef = runs.first { $0.text == "1" }
        #expect(noteRef?.style.contains(.noteReference) == true)
        #expect(noteRef?.link == .internal(LinkTarget(path: "OEBPS/ch1.xhtml", fragment: "n1")))
        #expect(
            runs.first { $0.text == "there" }?.link == .internal(LinkTarget(path: "OEBPS/ch2.xhtml", fragment: "x")))
        #expect(runs.first { $0.text == "web" }?.link == .external("https://example.org"))
        #expect(doc.blocks[1].isNote)
        #expect(doc.anchors["start"] == 0)
        let noteOffset = doc.anchors["n1"] ?? -1
        #expect(doc.snippet(at: noteOffset).hasPrefix("The note."))
    }

    @Test func rightToLeftRunsAreMarkedInLogicalOrder() {
        let doc = convert("<p>Hello <span dir=\"rtl\">שלום עולם</span> end</p><p dir=\"rtl\">مرحبا</p>")
        #expect(doc.blocks[0].runs[1].text == "שלום עולם")
        #expect(doc.blocks[0].runs[1].style.contains(.rightToLeft))
        #expect(doc.blocks[1].isRightToLeft)
    }

    @Test(arguments: [
        ("<div dir=\"rtl\"><p>א</p></div><p>b</p>", [TextDirection.rightToLeft, nil]),
        ("<p dir=\"rtl\">א</p><p dir=\"ltr\">b</p><p>c</p>", [.rightToLeft, .leftToRight, nil]),
        // `dir` on an inline element starting a paragraph is that passage's, not the paragraph's.
        ("<p><span dir=\"rtl\">א</span> b</p>", [nil]),
        ("<section dir=\"rtl\"><p dir=\"ltr\">a</p>ב</section>", [.leftToRight, .rightToLeft]),
    ])
    func aBlockTakesTheDirectionOfItsBlockElement(body: String, directions: [TextDirection?]) {
        #expect(convert(body).blocks.map(\.declaredDirection) == directions)
    }

    @Test func leftToRightInsideRightToLeftIsMarked() {
        let doc = convert("<p dir=\"rtl\">שלום <span dir=\"ltr\">C++</span> עולם</p>")
        #expect(doc.blocks[0].runs.map(\.style.declaredDirection) == [.rightToLeft, .leftToRight, .rightToLeft])
    }

    @Test func imagesRulesAndTables() {
        let doc = convert(
            "<p>a</p><img src=\"../img/p.png\" alt=\"A map\"/><hr/><table><tr><th>k</th><td><p>v</p></td></tr></table>")
        #expect(doc.blocks[1].kind == .image(ImageReference(path: "img/p.png", alt: "A map")))
        #expect(doc.blocks[2].kind == .horizontalRule)
        #expect(doc.blocks[3].kind == .tableRow)
        #expect(doc.blocks[3].text == "k | v")
    }

    @Test func malformedHTMLStillConverts() {
        let html = "<html><body><p>One <b>bold<p>Two &undefined; <i>it</body>"
        let doc = ContentConverter.convert(Array(html.utf8), path: "x.html")
        #expect(doc.plainText.contains("One bold"))
        #expect(doc.plainText.contains("Two &undefined; it"))
    }

    @Test func brIsForcedBreak() {
        let doc = convert("<p>Roses are red,<br/>violets blue.</p>")
        #expect(doc.blocks[0].text == "Roses are red,\nviolets blue.")
    }

    @Test func cssClassesAreHonoured() {
        var styles = BookStyles()
        styles.add(
            css:
                """
                /* c */ p { text-indent: 1.5em } .it { font-style: italic } span.sc { font-variant: small-caps } \
                .gone{display:none}
                """
        )
        let html = "<p><span class=\"it\">a</span> <span class=\"sc\">b</span><span class=\"gone\">hidden</span></p>"
        let doc = ContentConverter.convert(Array(html.utf8), path: "x.xhtml", styles: styles)
        #expect(doc.plainText == "a B\n")
        #expect(doc.prefersIndentedParagraphs == true)
        #expect(doc.blocks[0].runs[0].style == .emphasis)
    }
}

/// Passages in another language than the chapter (`xml:lang`, `lang`), so that reading aloud can
/// speak each in its own voice.
@Suite struct LanguagePassageTests {
    private func convert(_ body: String, lang: String = "sv") -> ChapterDocument {
        let html = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" \
            xml:lang="\(lang)"><head><title>t</title></head><body>\(body)</body></html>
            """
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml")
    }

    private func spoken(_ document: ChapterDocument, from offset: Int = 0) -> [String] {
        document.passages(from: offset).map { "\($0.language ?? "-"):\(document.text(in: $0.range))" }
    }

    @Test func aQuotationInAnotherLanguageIsItsOwnPassage() {
        let doc = convert(#"<p>Hon sa <q xml:lang="fr">Bonjour, mon ami</q> och gick.</p><p>Sedan regnade det.</p>"#)
        #expect(doc.language == "sv")
        // The quotation marks are French too (<q> is drawn with its language's marks).
        #expect(
            spoken(doc) == ["-:Hon sa «\u{A0}", "fr:Bonjour, mon ami", "-:\u{A0}» och gick.\nSedan regnade det.\n"])
    }

    @Test func nestedPassagesTakeTheInnermostLanguage() {
        let doc = convert(
            #"""
            <div lang="en-GB"><p>An English page with <i lang="sv">ett svenskt ord</i> \#
            inside.</p></div><p>Svenska.</p>
            """#
        )
        #expect(
            spoken(doc) == ["en-GB:An English page with ", "sv:ett svenskt ord", "en-GB: inside.\n", "-:Svenska.\n"])
    }

    @Test func theChaptersOwnLanguageMarkedAgainIsNoPassage() {
        let doc = convert(#"<p lang="SV">Bara svenska här.</p>"#)
        #expect(doc.languageSpans.isEmpty)
        #expect(spoken(doc) == ["-:Bara svenska här.\n"])
    }

    @Test func passagesStartWhereReadingStarts() {
        let doc = convert(#"<p>Först <span xml:lang="de">Guten Tag</span> sedan.</p>"#)
        let start = doc.plainText.utf16.count - "tag sedan.\n".utf16.count
        #expect(spoken(doc, from: start) == ["de:Tag", "-: sedan.\n"])
        #expect(doc.passages(from: doc.length).isEmpty)
    }

    @Test func anUnclosedPassageEndsWithTheChapter() {
        let doc = convert(#"<p>Svenska <span lang="en">and English to the end"#)
        #expect(
            spoken(doc) == ["-:Svenska ", "en:and English to the end\n"],
            "the line break after it is no passage of its own")
    }
}

/// `<q>` is drawn with the quotation marks of its language, as HTML renders it.
@Suite struct QuotationMarkTests {
    private func text(_ body: String, lang: String) -> String {
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"\(lang)\"><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml").plainText
    }

    @Test(arguments: [
        ("sv", "Hon sa ”hej” och gick.\n"),
        ("en-GB", "Hon sa “hej” och gick.\n"),
        ("de", "Hon sa „hej“ och gick.\n"),
        ("fr", "Hon sa «\u{A0}hej\u{A0}» och gick.\n"),
    ])
    func marksFollowTheLanguage(lang: String, expected: String) {
        #expect(text("<p>Hon sa <q>hej</q> och gick.</p>", lang: lang) == expected)
    }

    @Test func nestedQuotationsAndAQuotationsOwnLanguage() {
        #expect(text("<p><q>She wrote <q>no</q> twice </q>.</p>", lang: "en") == "“She wrote ‘no’ twice”.\n")
        #expect(text(#"<p>Han citerade <q lang="en">to be</q>.</p>"#, lang: "sv") == "Han citerade “to be”.\n")
    }
}

/// Numbers that a list and its items would both show appear once.
@Suite struct ListNumberTests {
    private func markers(_ body: String) -> [String] {
        let html =
            """
            <html xmlns=\"http://www.w3.org/1999/xhtml\" \
            xmlns:epub=\"http://www.idpf.org/2007/ops\"><body>\(body)</body></html>
            """
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml").blocks.map {
            ($0.listMarker ?? "") + "|" + $0.text
        }
    }

    @Test func aNavigationDocumentsListsAreNotNumbered() {
        #expect(
            markers(
                #"""
                <nav epub:type="toc"><ol><li><a href="a.xhtml">1. Fish</a></li><li><a \#
                href="b.xhtml">Birds</a></li></ol></nav>
                """#
            )
                == ["|1. Fish", "|Birds"])
    }

    @Test func anItemThatCarriesItsNumberIsNotNumberedAgain() {
        #expect(
            markers("<ol><li>1. Fish</li><li>2 Birds</li><li>Cats</li><li>10. Dogs</li></ol>")
                == ["|1. Fish", "|2 Birds", "3.|Cats", "4.|10. Dogs"])
    }
}

/// XHTML is XML: a chapter that is not well-formed is read as far as it can be, and marked.
@Suite struct WellFormednessTests {
    private func document(_ body: String) -> ChapterDocument {
        let html =
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml")
    }

    @Test func wellFormedChaptersAreNotMarked() {
        #expect(document("<p>One<br/>two<br></br><img src=\"a.png\"/></p><div><p>three</p></div>").isWellFormed)
        // Qualified names and every character XML allows in a name are fine.
        #expect(
            document(
                #"<p xml:lang="en" epub:type="x" data-a_b.c="1">One<o:p>two</o:p><h-1.x_2>three</h-1.x_2></p>"#
            ).isWellFormed)
    }

    @Test(arguments: [
        "<p>One</div><p>two</p>", "<p>One <em>two</p>", "<div><p>unclosed",
        // Names XML with namespaces does not allow (W3C's pub-xml-names).
        "<p::p>One</p::p>", "<p>One <:b>two</:b></p>", "<p>One <b:>two</b:></p>", "<p>One <b@x>two</b@x></p>",
        #"<p xml::lang="en">One</p>"#,
    ])
    func malformedChaptersAreReadAndMarked(body: String) {
        let document = document(body)
        #expect(!document.isWellFormed)
        #expect(document.plainText.contains("One") || document.plainText.contains("unclosed"), "the text is still read")
    }
}

extension WellFormednessTests {
    @Test func theReaderSaysOnceWhenAChapterIsNotWellFormed() throws {
        let book = try EPUBBuilder(chapters: [
            .init("one.xhtml", "One", "<p>Fine.</p>"),
            .init("two.xhtml", "Two", "<p>Broken <em>markup</p><p>More.</p>"),
        ]).open()
        var session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 20)
        #expect(session.message == nil)
        _ = session.nextPage()
        #expect(
            session.message == "This chapter is partly damaged; bok shows its text as far as it could be read.")
        session.message = nil
        _ = session.previousPage()
        _ = session.nextPage()
        #expect(session.message == nil, "said once")
    }

    @Test func aMalformedNameIsDamageTheReaderSaysSo() throws {
        let book = try EPUBBuilder(chapters: [
            .init("one.xhtml", "One", "<p::p>A paragraph with a name XML does not allow.</p::p>")
        ]).open()
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 20)
        #expect(
            session.message == "This chapter is partly damaged; bok shows its text as far as it could be read.")
        #expect(session.visiblePages()[0].contains { $0.line.text.contains("A paragraph with a name") })
    }
}

/// MathML in a terminal: a linear form that keeps sub- and superscripts, fractions and table rows
/// (flattening gave "x 1 + 2 x 2 = 4"); the author's words for it only when it cannot be drawn.
@Suite struct MathTests {
    private func text(_ body: String) -> String {
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml").plainText
    }

    @Test(arguments: [
        (
            #"""
            <p>So <math alttext="E equals m c \#
            squared"><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>.</p>
            """#,
            "So E = mc².\n"
        ),
        (
            #"""
            <p><math><semantics><mfrac><mi>a</mi><mi>b</mi></mfrac><annotation \#
            encoding="application/x-tex">\frac{a}{b}</annotation></semantics></math></p>
            """#,
            "a/b\n"
        ),
        (
            """
            <p><math><msub><mi>x</mi><mn>1</mn></msub><mo>+</mo><mn>2</mn><msub><mi>x</mi><mn>2</mn></msub><mo>\
            =</mo><mn>4</mn></math></p>
            """,
            "x₁ + 2x₂ = 4\n"
        ),
        (
            """
            <p><math><msup><mrow><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo></mrow><mn>2</mn></msup></math>\
            </p>
            """,
            "(a + b)²\n"
        ),
        (
            """
            <p><math><msub><mi>x</mi><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></msub><mo>,</mo><msub><mi>a</mi>\
            <mrow><mi>b</mi><mi>c</mi></mrow></msub></math></p>
            """,
            "xₙ₊₁, a_(bc)\n"
        ),
        ("<p><math><msub><mi>x</mi><mrow><mi>n</mi><mo>+</mo><mi>b</mi></mrow></msub></math></p>", "x_(n+b)\n"),
        ("<p><math><mfrac><mi>a</mi><mrow><mi>b</mi><mo>+</mo><mn>1</mn></mrow></mfrac></math></p>", "a/(b + 1)\n"),
        ("<p><math><msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt></math></p>", "√(x + 1)\n"),
    ])
    func mathIsShownAsText(body: String, expected: String) {
        #expect(text(body) == expected)
    }

    @Test(arguments: [
        "Alternative text not available", "alternative text not available.", "Alt text unavailable", "equation",
        "No alt text", "",
    ])
    func aPlaceholderAltTextDoesNotHideTheEquation(alt: String) {
        let body =
            """
            <p><math alttext="\(alt)"><msub><mi>x</mi><mn>1</mn></msub><mo>+</mo><mn>2</mn><msub><mi>x</mi>\
            <mn>2</mn></msub></math> and <math alttext="\(alt)"><msup><mi>y</mi><mn>2</mn></msup></math></p>
            """
        #expect(text(body) == "x₁ + 2x₂ and y²\n")
    }

    @Test func multiscriptsAndActionsAreDrawn() {
        let isotope =
            """
            <math alttext="carbon fourteen"><mmultiscripts><mi>C</mi><mprescripts/><mn>6</mn><mn>14</mn>\
            </mmultiscripts></math>
            """
        #expect(text("<p>\(isotope)</p>") == "₆¹⁴C\n")
        let action =
            "<math><maction selection=\"2\"><mi>a</mi><mi>b</mi></maction><mphantom><mi>z</mi></mphantom></math>"
        #expect(text("<p>\(action)</p>") == "b\n")
    }

    @Test(arguments: [
        // Content MathML: the linear form cannot draw it, the author's words can.
        (
            #"<math alttext="x plus y"><apply><plus/><ci>x</ci><ci>y</ci></apply></math>"#,
            "x plus y\n"
        ),
        // A placeholder is never the answer: the TeX annotation is.
        (
            """
            <math alttext="Alternative text not available"><semantics><apply><plus/><ci>x</ci><ci>y</ci></apply>\
            <annotation encoding="application/x-tex">x+y</annotation></semantics></math>
            """,
            "x+y\n"
        ),
        // An element the linear form does not know.
        (#"<math alttext="a long division"><mlongdiv><mn>3</mn><mn>12</mn></mlongdiv></math>"#, "a long division\n"),
    ])
    func mathThatCannotBeDrawnIsShownByItsAltText(math: String, expected: String) {
        #expect(text("<p>\(math)</p>") == expected)
    }

    @Test func deeplyNestedMathIsBoundedNotACrash() {
        let depth = 50_000
        let body =
            "<p><math>" + String(repeating: "<mrow>", count: depth) + "<mi>x</mi>"
            + String(repeating: "</mrow>", count: depth) + "</math></p>"
        #expect(text(body) == "x\n")
    }

    @Test func aDisplayedMatrixIsARowALine() {
        let matrix =
            """
            <mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn>\
            </mtd></mtr></mtable>
            """
        #expect(
            text("<p>Before</p><math display=\"block\">\(matrix)</math><p>After</p>")
                == "Before\n1\u{2003}\u{2003}0\n0\u{2003}\u{2003}1\nAfter\n")
    }
}

/// Numbers floated to the margin (a verse's line numbers) are not glued to the text.
@Suite struct MarginNumberTests {
    private func text(_ body: String, css: String = "") -> String {
        var styles = BookStyles()
        styles.add(css: css)
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml", styles: styles).plainText
    }

    @Test func floatedLineNumbersAreDropped() {
        let css = ".linenum { float: right; font-size: 0.8em }"
        #expect(
            text("<p>Of all the city directors;<span class=\"linenum\">180</span><br/>and so on</p>", css: css)
                == "Of all the city directors;\nand so on\n")
        #expect(
            text(#"<p>Sing, goddess<span style="position: absolute; right: 0">xii</span> the wrath</p>"#)
                == "Sing, goddess the wrath\n")
    }

    @Test func aDropCapOrFloatedWordsStay() {
        let css = ".dropcap { float: left; font-size: 3em } .aside { float: right }"
        #expect(text("<p><span class=\"dropcap\">O</span>nce upon a time</p>", css: css) == "Once upon a time\n")
        #expect(
            text("<p>Text <span class=\"aside\">a floated remark</span> more</p>", css: css)
                == "Text a floated remark more\n")
    }
}

/// SVG in a chapter: the picture it wraps, or what its title says it is.
@Suite struct SVGTests {
    private func images(_ body: String) -> [ImageReference] {
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "OEBPS/text/c.xhtml").blocks.compactMap { block in
            if case .image(let image) = block.kind { return image }
            return nil
        }
    }

    @Test func aCoverWrappedInSVGIsItsPicture() {
        let found = images(
            #"""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 600 \#
            800"><title>Vintern 1953</title><image width="600" height="800" xlink:href="../images/cover.jpg"/></svg>
            """#
        )
        #expect(found == [ImageReference(path: "OEBPS/images/cover.jpg", alt: "Vintern 1953")])
    }

    @Test func aDrawingShowsItsTitleRatherThanImage() {
        let found = images(
            #"""
            <p>Before</p><svg xmlns="http://www.w3.org/2000/svg"><title>Map of the harbour</title><path d="M0 \#
            0L10 10"/><text x="1" y="2">Pier</text></svg><p>After</p>
            """#
        )
        #expect(found.map(\.placeholder) == ["[image: Map of the harbour]"])
        #expect(images(#"<svg><text>Pier 4</text></svg>"#).map(\.placeholder) == ["[image: Pier 4]"])
    }
}
