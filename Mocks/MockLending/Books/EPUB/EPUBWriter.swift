import Catalog

/// Turns a manuscript and its facts into the files of an EPUB 3 book (with an EPUB 2 NCX for
/// older readers) and zips them.
///
/// Layout of the archive: `mimetype`, `META-INF/container.xml`, and under `EPUB/` the package
/// document, the navigation document, the NCX, one stylesheet, the images and one XHTML file
/// per page (cover, title page, colophon, chapters and, in a sample, the closing note).
struct EPUBWriter {
    let facts: BookFacts
    let manuscript: Manuscript
    let cover: [UInt8]
    /// Whether this is a sample: it then ends with a page that says so.
    let isSample: Bool

    private var labels: Labels { Labels.of(facts.textLanguage) }

    /// One page of the book: its manifest id, file name under `EPUB/text/`, title and body.
    private struct Page {
        let id: String
        let file: String
        let title: String
        let body: String
        let bodyType: String
    }

    /// The finished EPUB file.
    func archive() -> [UInt8] {
        let chapterPages = manuscript.chapters.enumerated().map { chapterPage($1, number: $0 + 1) }
        let sampleEnd = isSample ? sampleEndPage() : nil
        var textPages = [coverPage(), titlePage(), colophonPage()] + chapterPages
        if let sampleEnd { textPages.append(sampleEnd) }

        var zip = ZipWriter(expectedSize: manuscript.chapters.reduce(64_000) { $0 + $1.textBytes / 3 })
        zip.add("mimetype", Array("application/epub+zip".utf8), method: .stored)
        zip.add("META-INF/container.xml", Array(container.utf8))
        zip.add("EPUB/package.opf", Array(packageDocument(textPages: textPages, chapters: chapterPages).utf8))
        zip.add("EPUB/nav.xhtml", Array(navigationDocument(chapters: chapterPages, sampleEnd: sampleEnd).utf8))
        zip.add("EPUB/toc.ncx", Array(ncx(chapters: chapterPages, sampleEnd: sampleEnd).utf8))
        zip.add("EPUB/css/book.css", Array(Self.stylesheet.utf8))
        // PNGs are deflated already; storing them saves time and loses nothing.
        zip.add("EPUB/images/cover.png", cover, method: .stored)
        for (index, picture) in manuscript.illustrations.enumerated() {
            zip.add("EPUB/images/figure-\(index + 1).png", picture.png, method: .stored)
        }
        for page in textPages {
            // The big text of a novel-length book deflates at level 4 in half the time of 6, for a few percent.
            zip.add("EPUB/text/\(page.file)", Array(xhtml(page).utf8), level: page.body.utf8.count > 200_000 ? 4 : 6)
        }
        return zip.finish()
    }

    // MARK: - Package

    private let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>

        """

    /// `dcterms:modified`: fixed, so the same book is the same bytes; the catalogue's reference day.
    private var modified: String { "\(CatalogGenerator.defaultReferenceDay)T12:00:00Z" }

    private func packageDocument(textPages: [Page], chapters: [Page]) -> String {
        var opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" \
            xml:lang="\(facts.language)">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="pub-id">\(facts.identifier)</dc:identifier>
                <dc:title id="title">\(XML.escape(facts.title))</dc:title>
                <meta refines="#title" property="title-type">main</meta>

            """
        var creatorNumber = 0
        func person(_ element: String, _ contributor: Contributor, role: String) {
            creatorNumber += 1
            let id = "\(element)-\(creatorNumber)"
            opf += "    <dc:\(element) id=\"\(id)\">\(XML.escape(contributor.fullName))</dc:\(element)>\n"
            opf += "    <meta refines=\"#\(id)\" property=\"role\" scheme=\"marc:relators\">\(role)</meta>\n"
            opf += "    <meta refines=\"#\(id)\" property=\"file-as\">\(XML.escape(contributor.invertedName))</meta>\n"
        }
        for author in facts.authors { person("creator", author, role: "aut") }
        for translator in facts.translators { person("creator", translator, role: "trl") }
        for illustrator in facts.illustrators { person("contributor", illustrator, role: "ill") }
        opf += "    <dc:language>\(facts.language)</dc:language>\n"
        if let publisher = facts.publisher { opf += "    <dc:publisher>\(XML.escape(publisher))</dc:publisher>\n" }
        if let published = facts.published { opf += "    <dc:date>\(published)</dc:date>\n" }
        opf += "    <meta property=\"dcterms:modified\">\(modified)</meta>\n"
        if let description = facts.description {
            opf += "    <dc:description>\(XML.escape(description))</dc:description>\n"
        }
        for category in facts.categories { opf += "    <dc:subject>\(XML.escape(category))</dc:subject>\n" }
        if let series = facts.series {
            opf += "    <meta property=\"belongs-to-collection\" id=\"series\">\(XML.escape(series.name))</meta>\n"
            opf += "    <meta refines=\"#series\" property=\"collection-type\">series</meta>\n"
            if let order = series.order {
                opf += "    <meta refines=\"#series\" property=\"group-position\">\(order)</meta>\n"
            }
        }
        // For EPUB 2 readers, which look for the cover this way.
        opf += "    <meta name=\"cover\" content=\"cover-image\"/>\n"
        opf += "  </metadata>\n  <manifest>\n"
        opf += "    <item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n"
        opf += "    <item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n"
        opf += "    <item id=\"css\" href=\"css/book.css\" media-type=\"text/css\"/>\n"
        opf +=
            """
                <item id=\"cover-image\" href=\"images/cover.png\" media-type=\"image/png\" \
            properties=\"cover-image\"/>\n
            """
        for index in manuscript.illustrations.indices {
            opf +=
                """
                    <item id=\"figure-\(index + 1)\" href=\"images/figure-\(index + 1).png\" \
                media-type=\"image/png\"/>\n
                """
        }
        for page in textPages {
            opf += "    <item id=\"\(page.id)\" href=\"text/\(page.file)\" media-type=\"application/xhtml+xml\"/>\n"
        }
        opf += "  </manifest>\n  <spine toc=\"ncx\">\n"
        // The contents page comes after the colophon, as in a printed book.
        for page in textPages {
            opf += "    <itemref idref=\"\(page.id)\"/>\n"
            if page.id == "colophon" { opf += "    <itemref idref=\"nav\"/>\n" }
        }
        opf += "  </spine>\n</package>\n"
        return opf
    }

    // MARK: - Navigation

    private func navigationDocument(chapters: [Page], sampleEnd: Page?) -> String {
        let lang = facts.textLanguageTag
        var nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(lang)" \
            lang="\(lang)">
            <head>
              <title>\(labels.contents)</title>
              <link rel="stylesheet" type="text/css" href="css/book.css"/>
            </head>
            <body epub:type="frontmatter">
              <nav epub:type="toc" id="toc">
                <h1>\(labels.contents)</h1>
                <ol>

            """
        for page in chapters + (sampleEnd.map { [$0] } ?? []) {
            nav += "      <li><a href=\"text/\(page.file)\">\(XML.escape(page.title))</a></li>\n"
        }
        nav += """
                </ol>
              </nav>
              <nav epub:type="landmarks" id="landmarks" hidden="hidden">
                <h2>\(labels.landmarks)</h2>
                <ol>
                  <li><a epub:type="cover" href="text/cover.xhtml">\(labels.cover)</a></li>
                  <li><a epub:type="titlepage" href="text/title.xhtml">\(labels.titlePage)</a></li>
                  <li><a epub:type="copyright-page" href="text/colophon.xhtml">\(labels.colophon)</a></li>
                  <li><a epub:type="toc" href="nav.xhtml#toc">\(labels.contents)</a></li>
                  <li><a epub:type="bodymatter" \
            href="text/\(chapters.first?.file ?? "title.xhtml")">\
            \(XML.escape(chapters.first?.title ?? labels.titlePage))</a></li>
                </ol>
              </nav>
            </body>
            </html>

            """
        return nav
    }

    private func ncx(chapters: [Page], sampleEnd: Page?) -> String {
        var ncx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="\(facts.textLanguageTag)">
              <head>
                <meta name="dtb:uid" content="\(facts.identifier)"/>
                <meta name="dtb:depth" content="1"/>
                <meta name="dtb:totalPageCount" content="0"/>
                <meta name="dtb:maxPageNumber" content="0"/>
              </head>
              <docTitle><text>\(XML.escape(facts.title))</text></docTitle>
              <navMap>

            """
        let entries =
            [(labels.titlePage, "title.xhtml"), (labels.colophon, "colophon.xhtml")]
            + chapters.map { ($0.title, $0.file) } + (sampleEnd.map { [($0.title, $0.file)] } ?? [])
        for (index, entry) in entries.enumerated() {
            ncx += """
                    <navPoint id="navpoint-\(index + 1)" playOrder="\(index + 1)">
                      <navLabel><text>\(XML.escape(entry.0))</text></navLabel>
                      <content src="text/\(entry.1)"/>
                    </navPoint>

                """
        }
        ncx += "  </navMap>\n</ncx>\n"
        return ncx
    }

    // MARK: - Pages

    private func xhtml(_ page: Page) -> String {
        // A chapter is in the book's language; prose in another language says so on its section.
        // Front matter is in the language of its labels.
        let lang = page.id.hasPrefix("chapter") ? facts.language : facts.textLanguageTag
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(lang)" \
            lang="\(lang)">
            <head>
              <title>\(XML.escape(page.title))</title>
              <link rel="stylesheet" type="text/css" href="../css/book.css"/>
            </head>
            <body epub:type="\(page.bodyType)">

            """
        out.reserveCapacity(out.utf8.count + page.body.utf8.count + 40)
        out += page.body
        out += "</body>\n</html>\n"
        return out
    }

    private func coverPage() -> Page {
        let alt =
            facts.textLanguage == .english
            ? "Cover of \(facts.title)" + (facts.authors.isEmpty ? "" : " by \(facts.authorLine)")
            : "Omslaget till \(facts.title)" + (facts.authors.isEmpty ? "" : " av \(facts.authorLine)")
        let body = """
            <section class="cover" epub:type="cover">
              <img src="../images/cover.png" alt="\(XML.escape(alt))"/>
            </section>

            """
        return Page(id: "cover", file: "cover.xhtml", title: labels.cover, body: body, bodyType: "frontmatter")
    }

    private func titlePage() -> Page {
        let english = facts.textLanguage == .english
        var body = "<section class=\"titlepage\" epub:type=\"titlepage\">\n"
        if !facts.authors.isEmpty { body += "  <p class=\"author\">\(XML.escape(facts.authorLine))</p>\n" }
        body += "  <h1 class=\"title\">\(XML.escape(facts.title))</h1>\n"
        if let series = facts.series {
            let order = series.order.map { english ? "Book \($0) in " : "Del \($0) i " } ?? ""
            body += "  <p class=\"series\">\(XML.escape(order + series.name))</p>\n"
        }
        if !facts.translators.isEmpty {
            let names = BookFacts.joined(facts.translators.map(\.fullName), facts.textLanguage)
            body +=
                "  <p class=\"translator\">\(english ? "Translated by" : "Översättning av") \(XML.escape(names))</p>\n"
        }
        if !facts.illustrators.isEmpty {
            let names = BookFacts.joined(facts.illustrators.map(\.fullName), facts.textLanguage)
            body +=
                "  <p class=\"translator\">\(english ? "Illustrated by" : "Illustrerad av") \(XML.escape(names))</p>\n"
        }
        if let publisher = facts.publisher { body += "  <p class=\"publisher\">\(XML.escape(publisher))</p>\n" }
        body += "</section>\n"
        return Page(id: "titlepage", file: "title.xhtml", title: labels.titlePage, body: body, bodyType: "frontmatter")
    }

    private func colophonPage() -> Page {
        let english = facts.textLanguage == .english
        let year = facts.published.map { String($0.year) }
        var lines: [String] = []
        lines.append("<em>\(XML.escape(facts.title))</em>")
        if !facts.authors.isEmpty {
            lines.append("© \(year.map { "\($0) " } ?? "")\(XML.escape(facts.authorLine))")
        }
        if !facts.translators.isEmpty {
            lines.append(
                """
                \(labels.translatedBy): \
                \(XML.escape(BookFacts.joined(facts.translators.map(\.fullName), facts.textLanguage)))
                """
            )
        }
        if let original = facts.originalTitle {
            lines.append("\(labels.originalTitle): <span class=\"original-title\">\(XML.escape(original))</span>")
        }
        if !facts.illustrators.isEmpty {
            lines.append(
                """
                \(labels.illustratedBy): \
                \(XML.escape(BookFacts.joined(facts.illustrators.map(\.fullName), facts.textLanguage)))
                """
            )
        }
        if let publisher = facts.publisher {
            lines.append("\(labels.publishedBy) \(XML.escape(publisher))\(year.map { " \($0)" } ?? "")")
        }
        if let isbn = facts.isbn { lines.append("ISBN \(isbn)") }
        if let series = facts.series {
            let order =
                series.order.map { english ? "Book \($0) in the series " : "Del \($0) i serien " }
                ?? (english ? "In the series " : "Ur serien ")
            lines.append(XML.escape(order + series.name))
        }
        var body = "<section class=\"colophon\" epub:type=\"copyright-page\">\n"
        body += "  <p class=\"first\">\(lines.joined(separator: "<br/>\n    "))</p>\n"
        if english {
            body +=
                """
                  <p class=\"note\">This is a generated text of the bok mock library: its story, its people and \
                its words were made by a program for testing the bok reader, and any likeness to real people or \
                books is chance. (Book \(facts.productID), seed \(facts.seed).)</p>\n
                """
        } else {
            body +=
                """
                  <p class=\"note\">Det här är en genererad text från bok-projektets låtsasbibliotek (the bok \
                mock library): handlingen, personerna och orden är skapade av ett program för att testa \
                läsprogrammet bok, och varje likhet med verkliga personer eller böcker är en slump. (Bok \
                \(facts.productID), frö \(facts.seed).)</p>\n
                """
        }
        if facts.language != "sv", facts.language != "en" {
            let name = Labels.languageName(facts.language, in: facts.textLanguage)
            body +=
                english
                ? """
                  <p class=\"note\">The catalogue lists this edition as \(name); the mock library writes only \
                Swedish and English, so its text is Swedish.</p>\n
                """
                : """
                  <p class=\"note\">Katalogen anger att den här utgåvan är på \(name), men låtsasbiblioteket \
                skriver bara svenska och engelska, så texten är på svenska.</p>\n
                """
        }
        body += "</section>\n"
        return Page(id: "colophon", file: "colophon.xhtml", title: labels.colophon, body: body, bodyType: "frontmatter")
    }

    private func sampleEndPage() -> Page {
        let english = facts.textLanguage == .english
        let by = facts.authors.isEmpty ? "" : (english ? " by " : " av ") + facts.authorLine
        var body = "<section class=\"sample-end\" epub:type=\"backmatter\" id=\"sample-end\">\n"
        body += "  <h1>\(labels.sampleEnd)</h1>\n"
        if english {
            body +=
                """
                  <p class=\"first\">This was a sample of <em>\(XML.escape(facts.title))</em>\(XML.escape(by)): \
                the beginning of the book only.</p>\n
                """
            body +=
                "  <p>The whole book can be borrowed from your library. Borrow it in bok and read on from here.</p>\n"
        } else {
            body +=
                """
                  <p class=\"first\">Det här var ett smakprov ur \
                <em>\(XML.escape(facts.title))</em>\(XML.escape(by)): bara bokens början.</p>\n
                """
            body += "  <p>Hela boken kan du låna på biblioteket. Låna den i bok och läs vidare härifrån.</p>\n"
        }
        body += "</section>\n"
        return Page(
            id: "sample-end", file: "sample-end.xhtml", title: labels.sampleEnd, body: body, bodyType: "backmatter")
    }

    private func chapterPage(_ chapter: Chapter, number: Int) -> Page {
        let id = "chapter-" + Self.threeDigits(number)
        var body = ""
        body.reserveCapacity(chapter.textBytes + chapter.textBytes / 8 + 256)
        body += "<section class=\"chapter\" epub:type=\"chapter\" id=\"\(id)\""
        if manuscript.textLanguage != facts.language {
            // A Danish title's text is Swedish here: mark the text as what it is.
            body += " xml:lang=\"\(manuscript.textLanguage)\" lang=\"\(manuscript.textLanguage)\""
        }
        body += ">\n<h1>\(XML.escape(chapter.title))</h1>\n"
        for block in chapter.blocks { Self.render(block, illustrations: manuscript.illustrations, into: &body) }
        if !chapter.notes.isEmpty {
            body += "<section class=\"footnotes\" epub:type=\"footnotes\">\n"
            for note in chapter.notes {
                body += "<aside class=\"footnote\" epub:type=\"footnote\" id=\"note-\(note.number)\">"
                body +=
                    """
                    <p class=\"first\"><a href=\"#noteref-\(note.number)\" \
                    title=\"\(labels.back)\">\(note.number).</a> \(note.text)</p></aside>\n
                    """
            }
            body += "</section>\n"
        }
        body += "</section>\n"
        return Page(id: id, file: id + ".xhtml", title: chapter.title, body: body, bodyType: "bodymatter")
    }

    static func threeDigits(_ n: Int) -> String {
        n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)"
    }

    static func render(_ block: Block, illustrations: [Illustration], into out: inout String) {
        switch block {
        case .paragraph(let text, let first):
            out += first ? "<p class=\"first\">" : "<p>"
            out += text
            out += "</p>\n"
        case .heading(let text, let id):
            out += "<h2 id=\"\(id)\">\(text)</h2>\n"
        case .list(let items):
            out += "<ul>\n"
            for item in items { out += "<li>\(item)</li>\n" }
            out += "</ul>\n"
        case .table(let caption, let header, let rows, let id):
            out += "<table id=\"\(id)\">\n<caption>\(caption)</caption>\n<thead><tr>"
            for cell in header { out += "<th>\(cell)</th>" }
            out += "</tr></thead>\n<tbody>\n"
            for row in rows {
                out += "<tr>"
                for (index, cell) in row.enumerated() {
                    out += index == 0 ? "<th scope=\"row\">\(cell)</th>" : "<td>\(cell)</td>"
                }
                out += "</tr>\n"
            }
            out += "</tbody>\n</table>\n"
        case .poem(let title, let id, let stanzas):
            out += "<div class=\"poem\" id=\"\(id)\">\n<h2>\(title)</h2>\n"
            for stanza in stanzas {
                out += "<p class=\"stanza\">"
                out += stanza.joined(separator: "<br/>\n")
                out += "</p>\n"
            }
            out += "</div>\n"
        case .figure(let index, let caption):
            let alt = illustrations[index].alt
            out += "<figure class=\"illustration\" id=\"figure-\(index + 1)\">\n"
            out += "<img src=\"../images/figure-\(index + 1).png\" alt=\"\(XML.escape(alt))\"/>\n"
            out += "<figcaption>\(caption)</figcaption>\n</figure>\n"
        case .sceneBreak:
            out += "<hr class=\"scene\"/>\n"
        case .dateline(let text):
            out += "<p class=\"dateline\">\(text)</p>\n"
        }
    }

    /// A small stylesheet: first-line indents, no drop caps, quiet headings.
    static let stylesheet = """
        body { margin: 0 1em; line-height: 1.45; font-family: serif; }
        h1 { font-size: 1.5em; font-weight: normal; text-align: center; margin: 2em 0 1.5em; }
        h2 { font-size: 1.15em; font-weight: bold; margin: 1.5em 0 0.5em; }
        p { margin: 0; text-indent: 1.2em; text-align: justify; }
        p.first, p.dateline, p.note, p.stanza { text-indent: 0; }
        p.dateline { font-variant: small-caps; margin-top: 1.2em; }
        p.note { margin-top: 1em; font-size: 0.9em; }
        hr.scene { border: 0; border-top: 1px solid #999; width: 25%; margin: 1.2em auto; }
        ul { margin: 0.8em 0 0.8em 1.5em; padding: 0; }
        table { border-collapse: collapse; margin: 1em auto; }
        caption { font-style: italic; margin-bottom: 0.3em; }
        th, td { border: 1px solid #888; padding: 0.2em 0.6em; text-align: left; }
        figure { margin: 1.2em 0; text-align: center; }
        figure img { max-width: 100%; }
        figcaption { font-size: 0.9em; font-style: italic; }
        .poem { margin: 1.5em 0 2.5em; }
        .poem p.stanza { margin: 0 0 1em 1.5em; text-align: left; }
        .footnotes { margin-top: 2em; border-top: 1px solid #bbb; font-size: 0.85em; }
        .titlepage { text-align: center; margin-top: 20%; }
        .titlepage p { text-indent: 0; text-align: center; }
        .titlepage .author { font-size: 1.2em; }
        .titlepage .publisher { margin-top: 4em; font-variant: small-caps; }
        .colophon p { text-align: left; }
        .cover { text-align: center; }
        .cover img { max-width: 100%; max-height: 100%; }
        nav ol { list-style: none; padding: 0; }

        """
}
