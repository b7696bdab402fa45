import Testing

@testable import Reader

@Suite struct ZipArchiveTests {
    @Test func readsStoredAndDeflatedEntries() throws {
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip", deflate: false)
        zip.add("OEBPS/a.txt", String(repeating: "hello ", count: 1000))
        let archive = try ZipArchive(bytes: zip.archive())
        #expect(try archive.data(at: "mimetype") == Array("application/epub+zip".utf8))
        #expect(try archive.data(at: "OEBPS/a.txt").count == 6000)
        #expect(try archive.prefix(at: "OEBPS/a.txt", maxBytes: 10) == Array("hello hell".utf8))
    }

    @Test func unsafeNamesAreNeverIndexed() throws {
        var zip = ZipWriter()
        zip.add("../evil.xhtml", "evil")
        zip.add("/etc/passwd", "evil")
        zip.add("a/../../evil2", "evil")
        zip.add("ok/./b.txt", "fine")
        let archive = try ZipArchive(bytes: zip.archive())
        #expect(archive.unsafeNames.count == 3)
        #expect(archive.contains("ok/b.txt"))
        #expect(!archive.contains("evil.xhtml"))
        #expect(!archive.contains("evil2"))
    }

    @Test(
        arguments: [
            ("a/b/c.xhtml", "../d.css", "a/d.css"),
            ("a/c.xhtml", "d%20e.xhtml#x", "a/d e.xhtml"),
            // EPUB 3.3: climbing above the container's root stops at the root; a leading / is the root.
            ("c.xhtml", "../../x", "x"),
            ("OEBPS/text/c.xhtml", "../../../OEBPS/images/a.png", "OEBPS/images/a.png"),
            ("OEBPS/text/c.xhtml", "/OEBPS/images/a.png", "OEBPS/images/a.png"),
            ("OEBPS/text/c.xhtml", "//example.org/a.png", nil),
            ("OPS/c.xhtml", "#n1", "OPS/c.xhtml"),
        ] as [(String, String, String?)])
    func resolvesHrefs(base: String, href: String, expected: String?) {
        #expect(BookPath.resolve(href, relativeTo: base)?.path == expected)
    }

    @Test func externalLinksDoNotResolve() {
        #expect(BookPath.resolve("https://example.org/x", relativeTo: "a.xhtml") == nil)
        #expect(BookPath.resolve("mailto:a@b", relativeTo: "a.xhtml") == nil)
        #expect(BookPath.resolve(" HTTP://example.org/x ", relativeTo: "a.xhtml") == nil)
        #expect(BookPath.resolve("x-my.app+1:go", relativeTo: "a.xhtml") == nil)
    }

    @Test(
        "Names that only look like a scheme are paths in the book",
        arguments: [
            ("text/c.xhtml", "ch1.xhtml#a:b", "text/ch1.xhtml", "a:b"),
            ("text/c.xhtml", "notes/n.xhtml?x=1:2#n", "text/notes/n.xhtml", "n"),
            ("c.xhtml", "1st:draft.xhtml", "1st:draft.xhtml", nil),
            ("c.xhtml", "Kapitel%20ö.xhtml#s", "Kapitel ö.xhtml", "s"),
            ("c.xhtml", "  ch2.xhtml\n", "ch2.xhtml", nil),
        ] as [(String, String, String?, String?)])
    func pathsThatLookLikeSchemes(base: String, href: String, path: String?, fragment: String?) {
        let resolved = BookPath.resolve(href, relativeTo: base)
        #expect(resolved?.path == path)
        #expect(resolved?.fragment == fragment)
    }

    @Test func trimmingKeepsWhatIsBetweenTheSpaces() {
        #expect("  \t é \r\n".trimmed == "é")
        #expect(" \n ".trimmed == "")
        #expect("a\u{301} b".trimmed == "a\u{301} b")
        #expect(Substring("x  y  ").trimmed == "x  y")
    }
}
