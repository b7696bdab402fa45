import Foundation

@testable import Reader

/// Builds small EPUB files in memory for tests, EPUB 3 with a nav or EPUB 2 with an NCX.
struct EPUBBuilder {
    struct Chapter {
        var href: String
        var title: String
        var body: String
        var linear = true
    }

    var version = "3.0"
    var title = "Test Book"
    var chapters: [Chapter] = []
    var withNav = true
    var withNCX = false
    var includeMimetype = true
    var includeContainer = true
    var opfPath = "OEBPS/content.opf"
    var extraMetadata = ""
    var extraManifest = ""
    var extraFiles: [(String, [UInt8])] = []
    var omitFiles: Set<String> = []
    var navExtra = ""
    /// The nav document's body as written, instead of the contents made from the chapters.
    var navBody: String?
    /// After the NCX's navMap (a pageList, say).
    var ncxExtra = ""
    /// Ids in every chapter that the nav and the NCX link to, nested under the chapter's entry
    /// (`ch3.xhtml#s2`), as real books' contents do; the chapters must carry the ids.
    var tocFragments: [String] = []
    /// The spine's itemrefs as written, instead of one per chapter.
    var spineOverride: String?
    /// Attributes added to `<spine>` (`page-progression-direction="rtl"`).
    var spineExtra = ""
    var language = "en"
    /// Attributes added to `<package>` and to the title's `<dc:title>` (`dir="rtl"`).
    var packageExtra = ""
    var titleExtra = ""

    init(version: String = "3.0", chapters: [Chapter] = []) {
        self.version = version
        self.chapters = chapters
        if version.hasPrefix("2") {
            withNav = false
            withNCX = true
        }
    }

    static func xhtml(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(title)</title><link rel="stylesheet" href="style.css" type="text/css"/></head>
        <body>\(body)</body>
        </html>
        """
    }

    func build() -> [UInt8] {
        var zip = ZipWriter()
        if includeMimetype { zip.add("mimetype", "application/epub+zip", deflate: false) }
        if includeContainer {
            zip.add(
                "META-INF/container.xml",
                """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                  <rootfiles><rootfile full-path="\(opfPath)" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """)
        }
        let dir = BookPath.directory(of: opfPath)
        func inDir(_ href: String) -> String { dir.isEmpty ? href : dir + "/" + href }
        var manifest = ""
        var spine = ""
        for (index, chapter) in chapters.enumerated() {
            manifest += "<item id=\"c\(index)\" href=\"\(chapter.href)\" media-type=\"application/xhtml+xml\"/>\n"
            spine += "<itemref idref=\"c\(index)\"\(chapter.linear ? "" : " linear=\"no\"")/>\n"
            if !omitFiles.contains(chapter.href) {
                zip.add(inDir(chapter.href), Self.xhtml(title: chapter.title, body: chapter.body))
            }
        }
        manifest += "<item id=\"css\" href=\"style.css\" media-type=\"text/css\"/>\n"
        zip.add(inDir("style.css"), "p { text-indent: 1em; margin: 0 }")
        if withNav {
            manifest +=
                "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n"
            let items = chapters.filter(\.linear).map { chapter in
                let nested =
                    tocFragments.isEmpty
                    ? ""
                    : "<ol>"
                        + tocFragments.map {
                            "<li><a href=\"\(chapter.href)#\($0)\">\(chapter.title) \($0)</a></li>"
                        }.joined() + "</ol>"
                return "<li><a href=\"\(chapter.href)\">\(chapter.title)</a>\(nested)</li>"
            }.joined()
            zip.add(
                inDir("nav.xhtml"),
                Self.xhtml(
                    title: "Contents",
                    body: navBody
                        ?? """
                        <nav epub:type="toc" id="toc"><h1>Contents</h1><ol>\(items)</ol></nav>\(navExtra)
                        """))
        }
        if withNCX {
            manifest += "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n"
            let points = chapters.enumerated().map { index, chapter in
                let nested = tocFragments.map {
                    """
                    <navPoint id=\"p\(index)-\($0)\"><navLabel><text>\(chapter.title) \
                    \($0)</text></navLabel><content src=\"\(chapter.href)#\($0)\"/></navPoint>
                    """
                }.joined()
                return
                    """
                    <navPoint id=\"p\(index)\" \
                    playOrder=\"\(index + 1)\"><navLabel><text>\(chapter.title)</text></navLabel><content \
                    src=\"\(chapter.href)\"/>\(nested)</navPoint>
                    """
            }.joined()
            zip.add(
                inDir("toc.ncx"),
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
                <head><meta name="dtb:uid" content="x"/></head><docTitle><text>\(title)</text></docTitle>
                <navMap>\(points)</navMap>\(ncxExtra)</ncx>
                """)
        }
        manifest += extraManifest
        let spineAttributes = (withNCX ? " toc=\"ncx\"" : "") + spineExtra
        zip.add(
            opfPath,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="\(version)" unique-identifier="uid"\(packageExtra)>
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
                <dc:identifier id="uid">urn:uuid:1234</dc:identifier>
                <dc:title\(titleExtra)>\(title)</dc:title>
                <dc:language>\(language)</dc:language>
                \(extraMetadata)
              </metadata>
              <manifest>
            \(manifest)  </manifest>
              <spine\(spineAttributes)>
            \(spineOverride ?? spine)  </spine>
            </package>
            """)
        for (name, bytes) in extraFiles { zip.add(name, bytes: bytes) }
        return zip.archive()
    }

    func open(limits: ReaderLimits = .standard) throws -> EPUBBook {
        try EPUBBook(bytes: build(), limits: limits)
    }

    /// A book of one chapter: a line of text, then the PNG `png` as `OEBPS/pic.png` with `alt`.
    static func onePicture(_ png: [UInt8], alt: String) throws -> EPUBBook {
        var builder = EPUBBuilder(chapters: [
            .init("c1.xhtml", "One", "<p>Text.</p><img src=\"pic.png\" alt=\"\(alt)\"/>")
        ])
        builder.extraManifest = "<item id=\"pic\" href=\"pic.png\" media-type=\"image/png\"/>"
        builder.extraFiles = [("OEBPS/pic.png", png)]
        return try builder.open()
    }
}

extension EPUBBuilder.Chapter {
    init(_ href: String, _ title: String, _ body: String, linear: Bool = true) {
        self.init(href: href, title: title, body: body, linear: linear)
    }
}
