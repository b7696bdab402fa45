import Foundation
import Testing

@testable import Reader

/// The broken-file family: each either fails with a message that says what to do, or opens with
/// what it can.
@Suite struct BrokenBookTests {
    static let chapters: [EPUBBuilder.Chapter] = [.init("ch1.xhtml", "One", "<p>Hello reader.</p>")]

    enum Broken: String, CaseIterable, CustomTestStringConvertible {
        case emptyFile, textFile, pngFile, truncated, missingContainer, containerPointsNowhere,
            packageWithoutManifest, allChaptersMissing, drm, zipBomb, lyingZipBomb, deflate64, unknownMethod
        var testDescription: String { rawValue }
    }

    static func bytes(_ broken: Broken) -> [UInt8] {
        switch broken {
        case .emptyFile: return []
        case .textFile: return Array("Just some notes, not a book.\n".utf8)
        case .pngFile: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        case .truncated:
            let full = EPUBBuilder(chapters: chapters).build()
            return Array(full.prefix(full.count * 2 / 3))
        case .missingContainer:
            var builder = EPUBBuilder(chapters: chapters)
            builder.includeContainer = false
            return builder.build()
        case .containerPointsNowhere:
            var zip = ZipWriter()
            zip.add("mimetype", "application/epub+zip", deflate: false)
            zip.add(
                "META-INF/container.xml",
                "<container><rootfiles><rootfile full-path=\"OEBPS/book.opf\"/></rootfiles></container>")
            return zip.archive()
        case .packageWithoutManifest:
            var zip = ZipWriter()
            zip.add(
                "META-INF/container.xml",
                "<container><rootfiles><rootfile full-path=\"a.opf\"/></rootfiles></container>")
            zip.add("a.opf", "this is not xml at all")
            return zip.archive()
        case .allChaptersMissing:
            var builder = EPUBBuilder(chapters: chapters)
            builder.omitFiles = ["ch1.xhtml"]
            return builder.build()
        case .drm:
            var builder = EPUBBuilder(chapters: chapters)
            builder.extraFiles = [
                (
                    "META-INF/encryption.xml",
                    Array(
                        """
                        <encryption xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>
                        <enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
                        <enc:CipherData><enc:CipherReference \
                        URI="OEBPS/ch1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>
                        """.utf8)
                )
            ]
            return builder.build()
        case .zipBomb:
            var builder = EPUBBuilder(chapters: chapters)
            builder.extraFiles = [("OEBPS/zeros.bin", [UInt8](repeating: 0, count: 4 << 20))]
            return builder.build()
        case .lyingZipBomb:
            // Declares 100 bytes but inflates to 4 MB.
            var zip = ZipWriter()
            zip.add("mimetype", "application/epub+zip", deflate: false)
            zip.add("META-INF/container.xml", bytes: [UInt8](repeating: 0x20, count: 4 << 20), declaredSize: 100)
            return zip.archive()
        case .deflate64, .unknownMethod:
            // As 7-Zip packs a large file when asked for its best compression; and a method no tool names.
            var zip = ZipWriter()
            zip.add("mimetype", "application/epub+zip", deflate: false)
            zip.add(
                "META-INF/container.xml", bytes: Array("<container/>".utf8), method: broken == .deflate64 ? 9 : 77)
            return zip.archive()
        }
    }

    // What a patron sees: what is wrong and what to do, without the zip's machinery (that is in `detail`).
    static let expected: [Broken: (ReaderError.Kind, String)] = [
        .emptyFile: (.emptyFile, "The book file is empty; download it again."),
        .textFile: (.notEPUB, "This file is not an EPUB book; open an .epub file."),
        .pngFile: (.notEPUB, "This file is a PNG image, not an EPUB book; open an .epub file."),
        .truncated: (.truncated, "The book file is incomplete; download it again."),
        .missingContainer: (
            .missingContainer, "bok cannot find this book's contents; the file is damaged or not an EPUB book."
        ),
        .containerPointsNowhere: (
            .missingPackage, "This book's file is damaged, so bok cannot find its contents; download it again."
        ),
        .packageWithoutManifest: (
            .unreadablePackage, "This book's file is damaged, so bok cannot find its contents; download it again."
        ),
        .allChaptersMissing: (
            .noContent, "None of the book's chapters is in its file; the book is damaged, download it again."
        ),
        .drm: (.drm, "This book is protected by DRM; bok cannot open protected books."),
        .zipBomb: (
            .tooLarge,
            "This book's file is damaged or unsafe (it unpacks to far more than a book needs), so bok will not open it."
        ),
        .lyingZipBomb: (
            .tooLarge,
            "This book's file is damaged or unsafe (it unpacks to far more than a book needs), so bok will not open it."
        ),
        .deflate64: (
            .unsupportedCompression,
            "This book's file is compressed with Deflate64, which bok cannot unpack; open it in calibre, save it as "
                + "EPUB again, and open that copy."
        ),
        .unknownMethod: (
            .unsupportedCompression,
            "This book's file is compressed in a way bok cannot unpack (zip method 77); open it in calibre, save it "
                + "as EPUB again, and open that copy."
        ),
    ]

    @Test(arguments: Broken.allCases)
    func brokenFileFailsWithClearMessage(_ broken: Broken) throws {
        let limits = ReaderLimits(maxTotalBytes: 1 << 20, maxEntryBytes: 1 << 20)
        let error = try #require(throws: ReaderError.self) { try EPUBBook(bytes: Self.bytes(broken), limits: limits) }
        let (kind, message) = try #require(Self.expected[broken])
        #expect(error.kind == kind)
        #expect(error.message == message)
        #expect(error.detail != nil || broken == .emptyFile || broken == .textFile || broken == .pngFile)
    }

    @Test func missingMimetypeIsOnlyAWarning() throws {
        var builder = EPUBBuilder(chapters: Self.chapters)
        builder.includeMimetype = false
        let book = try builder.open()
        #expect(book.warnings == ["The book has no mimetype file; opened it anyway."])
        #expect(book.document(at: 0).plainText == "Hello reader.\n")
    }

    @Test func malformedXHTMLAndUndefinedEntitiesStillOpen() throws {
        let book = try EPUBBuilder(chapters: [
            .init("ch1.xhtml", "One", "<p>Unclosed <b>bold <i>and &bogus; entity &amp; more<p>Next & last</div>")
        ]).open()
        let text = book.document(at: 0).plainText
        #expect(text.contains("Unclosed bold and &bogus; entity & more"))
        #expect(text.contains("Next & last"))
    }

    @Test func externalEntityNeverReadsTheFile() throws {
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? "root:x:0:0"
        let firstLine = String(passwd.split(separator: "\n").first ?? "root:x:0:0")
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip", deflate: false)
        zip.add(
            "META-INF/container.xml", "<container><rootfiles><rootfile full-path=\"a.opf\"/></rootfiles></container>")
        zip.add(
            "a.opf",
            """
            <?xml version="1.0"?>
            <!DOCTYPE package [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
            <package version="3.0"><metadata><dc:title>&x;</dc:title></metadata>
            <manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="a"/></spine></package>
            """)
        zip.add(
            "a.xhtml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE html [ <!ENTITY x SYSTEM "file:///etc/passwd"> <!ENTITY % p SYSTEM "file:///etc/passwd"> %p; ]>
            <html><body><p>Before &x; after</p></body></html>
            """)
        let book = try EPUBBook(bytes: zip.archive())
        let text = book.document(at: 0).plainText
        #expect(text == "Before &x; after\n")
        #expect(!text.contains(firstLine))
        #expect(!book.metadata.title.contains(firstLine))
        #expect(book.metadata.title == "&x;")
    }

    @Test func zipEntryClimbingOutIsNeverRead() throws {
        var zip = ZipWriter()
        zip.add("mimetype", "application/epub+zip", deflate: false)
        zip.add(
            "META-INF/container.xml", "<container><rootfiles><rootfile full-path=\"a.opf\"/></rootfiles></container>")
        zip.add(
            "a.opf",
            """
            <package version="3.0"><metadata><dc:title>T</dc:title></metadata>
            <manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>
            <item id="e" href="../evil.xhtml" media-type="application/xhtml+xml"/></manifest>
            <spine><itemref idref="a"/><itemref idref="e"/></spine></package>
            """)
        zip.add("a.xhtml", "<p>Good</p>")
        zip.add("../evil.xhtml", "<p>EVIL CONTENT</p>")
        let book = try EPUBBook(bytes: zip.archive())
        #expect(
            book.warnings.contains("Ignored the file \"../evil.xhtml\" in the book: its name points outside the book."))
        #expect(book.spine[1].isMissing)
        let all = book.spine.indices.map { book.document(at: $0).plainText }.joined()
        #expect(!all.contains("EVIL"))
        #expect(all.contains("Good"))
    }

    @Test func unreadableFileOnDisk() {
        let error = #expect(throws: ReaderError.self) { try EPUBBook.open(path: "/nonexistent/book.epub") }
        #expect(error?.kind == .unreadableFile)
    }
}
