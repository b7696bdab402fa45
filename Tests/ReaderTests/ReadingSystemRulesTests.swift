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

    @Test func aZipWithDataDescriptorsOpens() throws {
        var zip = ZipWriter()
        zip.useDataDescriptors = true
        let built = EPUBBuilder(chapters: [.init("ch1.xhtml", "One", "<p>Streamed zip.</p>")]).build()
        for entry in try ZipArchive(bytes: built).entries where !entry.isDirectory {
            let archive = try ZipArchive(bytes: built)
            zip.add(entry.rawName, bytes: try archive.data(at: entry.rawName), deflate: entry.rawName != "mimetype")
        }
        let book = try EPUBBook(bytes: zip.archive())
        #expect(book.document(at: 0).plainText == "Streamed zip.\n")
    }
}
