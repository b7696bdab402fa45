internal import CZlib
import Markup

/// Each parser of untrusted bytes on its own, as a fuzzer or a regression test calls it.
///
/// A book is read through several parsers in turn (the zip directory, inflation, the markup
/// tokenizer, the package and navigation documents, the content converter, the image decoders);
/// fuzzing the whole book only reaches the later ones through a valid zip. These entry points
/// let `bok-fuzz` (see `docs/security.md`) feed arbitrary bytes straight to each one. They return
/// nothing useful on purpose: what counts is that they neither crash, hang nor grow without bound.
public enum ReaderParsers {
    /// Reads a zip's directory and inflates every entry it lists (within the standard caps).
    public static func zip(_ bytes: [UInt8]) {
        guard let archive = try? ZipArchive(bytes: bytes) else { return }
        for path in archive.entries.compactMap(\.path) {
            _ = try? archive.data(at: path)
            _ = try? archive.prefix(at: path, maxBytes: 512)
        }
    }

    /// Tokenizes the bytes as XML and as HTML, builds their trees, and converts them as a chapter.
    public static func markup(_ bytes: [UInt8]) {
        _ = MarkupElement.parse(bytes)
        _ = MarkupElement.parse(bytes, html: true)
        let chapter = ContentConverter.convert(bytes, path: "OEBPS/chapter.xhtml")
        _ = chapter.plainText.count
    }

    /// Opens the bytes as a whole book, converts every spine item and resolves its table of contents.
    public static func book(_ bytes: [UInt8]) {
        guard let book = try? EPUBBook(bytes: bytes) else { return }
        for index in book.spine.indices { _ = book.document(at: index).plainText.count }
        for entry in book.tableOfContents.flatMap({ $0.flattened() }) { _ = entry.entry.title }
        _ = book.coverImage.map { RasterImage.decode($0) }
    }
}

extension ReaderParsers {
    /// Opens a book whose package document (OPF) is `bytes`, with a valid container, nav and chapter
    /// around it: mutations reach the package parser instead of dying in the zip directory.
    public static func packageDocument(_ bytes: [UInt8]) {
        book(StoredZip.book(opf: bytes, nav: Array(Fixture.nav.utf8), ncx: Array(Fixture.ncx.utf8)))
    }

    /// Opens a book whose navigation document and NCX are both `bytes`, around a valid package.
    public static func navigation(_ bytes: [UInt8]) {
        book(StoredZip.book(opf: Array(Fixture.opf.utf8), nav: bytes, ncx: bytes))
    }

    /// The valid documents the two entries above put around the fuzzed one; also seeds.
    public enum Fixture {
        /// A package with a nav, an NCX and one chapter.
        public static let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:uuid:00000000-0000-4000-8000-000000000000</dc:identifier>
                <dc:title>Fuzz</dc:title><dc:language>sv</dc:language><dc:creator>Anna Åberg</dc:creator>
                <meta property="dcterms:modified">2026-11-24T00:00:00Z</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
                <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
              </manifest>
              <spine toc="ncx"><itemref idref="c1"/></spine>
            </package>
            """
        /// A nested EPUB 3 nav with a fragment link and a page list.
        public static let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
            <nav epub:type="toc"><ol><li><a href="c1.xhtml">Ett</a><ol><li><a \
            href="c1.xhtml#s2">Två</a></li></ol></li></ol></nav>
            <nav epub:type="page-list"><ol><li><a href="c1.xhtml#p1">1</a></li></ol></nav>
            </body></html>
            """
        /// An EPUB 2 NCX with one nested point.
        public static let ncx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
            <navPoint id="n1" playOrder="1"><navLabel><text>Ett</text></navLabel><content src="c1.xhtml"/>
            <navPoint id="n2" playOrder="2"><navLabel><text>Två</text></navLabel><content src="c1.xhtml#s2"/></navPoint>
            </navPoint></navMap></ncx>
            """
        /// A chapter with the usual shapes: headings, a table, a list, a note, entities.
        public static let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="sv"><body>
            <h1 id="p1">Ett</h1><p>Första stycket&nbsp;med <em>kursiv</em>, <a href="#n1" epub:type="noteref">1</a> \
            och &#x2014; streck.</p>
            <h2 id="s2">Två</h2><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>
            <ul><li>ett</li><li>två</li></ul><pre>  förformaterat\n  text</pre>
            <aside epub:type="footnote" id="n1"><p>En not.</p></aside></body></html>
            """
    }
}

/// A zip of stored (uncompressed) entries, built in memory for the entries above.
///
/// Written here rather than borrowed: the Reader has only a zip reader, and the writers the mock
/// library and the tests have would pull a web server (or test code) into the fuzzing build.
enum StoredZip {
    static func book(opf: [UInt8], nav: [UInt8], ncx: [UInt8]) -> [UInt8] {
        let container = """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" \
            media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        return archive([
            ("mimetype", Array("application/epub+zip".utf8)), ("META-INF/container.xml", Array(container.utf8)),
            ("OEBPS/content.opf", opf), ("OEBPS/nav.xhtml", nav), ("OEBPS/toc.ncx", ncx),
            ("OEBPS/c1.xhtml", Array(ReaderParsers.Fixture.chapter.utf8)),
        ])
    }

    static func archive(_ files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for (name, bytes) in files {
            let offset = UInt32(out.count)
            let crc = bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
            let nameBytes = Array(name.utf8)
            let common =
                le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc)
                + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count)) + le16(UInt16(nameBytes.count)) + le16(0)
            out += le32(0x0403_4B50) + common + nameBytes + bytes
            directory +=
                le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let start = UInt32(out.count)
        out += directory
        out +=
            le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count))
            + le32(UInt32(directory.count)) + le32(start) + le16(0)
        return out
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
