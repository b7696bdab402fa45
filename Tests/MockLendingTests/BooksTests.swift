import Catalog
import Foundation
import Reader
import TestSupport
import Testing

@testable import MockLending

@Suite("Generated books")
struct BooksTests {
    typealias F = BookFixtures

    @Test("The same product and seed give the same bytes; another seed gives other words")
    func determinism() {
        for product in [F.swedishNovel, F.childrensBook, F.factsBook] {
            let a = F.epub(product)
            #expect(a == F.epub(product))
            #expect(F.epub(product, sample: true) == F.epub(product, sample: true))
            #expect(a != MockBooks.epub(for: product, seed: 2, sample: false))
        }
        #expect(F.epub(F.swedishNovel) != F.epub(F.englishNovel))
    }

    @Test("The zip starts with an uncompressed mimetype without extra field, and unzip finds no error")
    func zipLayout() throws {
        let epub = F.epub(F.swedishNovel)
        let bytes = [UInt8](epub)
        #expect(F.le32(bytes, 0) == 0x0403_4B50)
        #expect(F.le16(bytes, 8) == 0, "mimetype must be stored")
        #expect(F.le16(bytes, 28) == 0, "mimetype must have no extra field")
        #expect(String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")
        let names = F.entryNames(epub)
        #expect(names.first == "mimetype")
        #expect(names.contains("META-INF/container.xml") && names.contains("EPUB/package.opf"))
        #expect(
            names.contains("EPUB/nav.xhtml") && names.contains("EPUB/toc.ncx")
                && names.contains("EPUB/images/cover.png"))

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bok-zip-\(UUID().uuidString).epub")
        try epub.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try runProgram("/usr/bin/unzip", ["-t", file.path])
        #expect(status == 0, "unzip -t: \(output)")
        #expect(output.contains("No errors detected"))
    }

    @Test(
        "The package document says what the catalogue says",
        arguments: [F.swedishNovel, F.englishNovel, F.translatedNovel, F.childrensBook])
    func packageMetadata(_ product: Product) throws {
        let epub = F.epub(product)
        let opf = try F.text(epub, "EPUB/package.opf")
        #expect(opf.contains("<dc:identifier id=\"pub-id\">urn:isbn:\(product.isbns[0])</dc:identifier>"))
        #expect(opf.contains("<dc:language>\(product.language ?? "")</dc:language>"))
        #expect(opf.contains("<meta property=\"dcterms:modified\">"))
        for category in product.categories { #expect(opf.contains("<dc:subject>\(category)</dc:subject>")) }

        let book = try EPUBBook(bytes: [UInt8](epub))
        #expect(book.version == "3.0")
        #expect(book.metadata.title == product.title)
        #expect(book.metadata.language == product.language)
        #expect(book.metadata.identifiers.first?.value.hasSuffix(product.isbns[0]) == true)
        #expect(book.metadata.publisher == product.publisher)
        #expect(book.metadata.description == product.description)
        let authors = book.metadata.creators.filter { $0.role == "aut" }.map(\.name)
        let translators = book.metadata.creators.filter { $0.role == "trl" }.map(\.name)
        #expect(authors == product.authors.map(\.fullName))
        #expect(translators == product.translators.map(\.fullName))
        #expect(book.coverImagePath == "EPUB/images/cover.png")
        if let series = product.series {
            #expect(
                opf.contains("<meta property=\"belongs-to-collection\" id=\"series\">\(XML.escape(series.name))</meta>")
            )
        }
    }

    @Test("A translation's colophon names the translator and the original title, and says the text is generated")
    func colophon() throws {
        let product = F.translatedNovel
        let colophon = try F.text(F.epub(product), "EPUB/text/colophon.xhtml")
        #expect(colophon.contains(XML.escape(product.translators[0].fullName)))
        #expect(colophon.contains(XML.escape(product.originalTitle ?? "?")))
        #expect(colophon.contains("bok mock library"))
        let title = try F.text(F.epub(product), "EPUB/text/title.xhtml")
        #expect(title.contains(XML.escape(product.title)) && title.contains(XML.escape(product.authors[0].fullName)))
    }

    @Test(
        "The nav document and the NCX list every chapter, in reading order",
        arguments: [F.swedishNovel, F.poetryBook, F.biography, F.factsBook])
    func navigation(_ product: Product) throws {
        let epub = F.epub(product)
        let chapters = F.entryNames(epub).filter { $0.hasPrefix("EPUB/text/chapter-") }.map { String($0.dropFirst(5)) }
        #expect(chapters.count == BookPlan(product: product).chapterCount)
        let navDocument = try F.text(epub, "EPUB/nav.xhtml")
        // The table of contents only: the landmarks after it point at the first chapter again.
        let nav = String(
            navDocument[..<(navDocument.range(of: "epub:type=\"landmarks\"")?.lowerBound ?? navDocument.endIndex)])
        let ncx = try F.text(epub, "EPUB/toc.ncx")
        #expect(F.captures("href=\"(text/chapter-[0-9]+\\.xhtml)\"", in: nav) == chapters)
        #expect(F.captures("src=\"(text/chapter-[0-9]+\\.xhtml)\"", in: ncx) == chapters)
        #expect(nav.contains("epub:type=\"toc\"") && navDocument.contains("epub:type=\"landmarks\""))
        let book = try EPUBBook(bytes: [UInt8](epub))
        #expect(book.hasOwnTableOfContents)
        #expect(book.tableOfContents.count == chapters.count)
    }

    @Test("Chapters follow the page count: 5–25 chapters and a few hundred kB of text for ordinary books")
    func lengths() {
        for product in F.products.prefix(120) where F.ordinary(product) {
            let plan = BookPlan(product: product)
            #expect((5...25).contains(plan.chapterCount))
            #expect(plan.totalText <= BookPlan.ordinaryCap)
            #expect(plan.totalText >= min(BookPlan.ordinaryCap, (product.pages ?? 0) * 1_000))
        }
    }

    @Test("The default catalogue has novel-length books of about 3.5 MB of text in about 60 chapters")
    func novelLength() throws {
        #expect(F.novelLength.count >= 3)
        let product = try #require(F.novelLength.first)
        let epub = F.epub(product)
        let book = try EPUBBook(bytes: [UInt8](epub))
        let chapters = F.entryNames(epub).filter { $0.hasPrefix("EPUB/text/chapter-") }
        #expect(chapters.count == 60)
        var text = 0
        for chapter in chapters {
            text += F.plainText(String(decoding: try book.resource(at: chapter), as: UTF8.self)).utf8.count
        }
        #expect((3_200_000...3_900_000).contains(text), "\(text) bytes of text")
    }

    @Test(
        "Children's and non-fiction books carry valid PNG illustrations with alt text",
        arguments: [F.childrensBook, F.factsBook])
    func illustrations(_ product: Product) throws {
        let epub = F.epub(product)
        let book = try EPUBBook(bytes: [UInt8](epub))
        let pictures = F.entryNames(epub).filter { $0.hasPrefix("EPUB/images/figure-") }
        #expect((1...3).contains(pictures.count))
        for path in pictures + ["EPUB/images/cover.png"] {
            try checkPNG(try book.resource(at: path), path)
        }
        var altTexts: [String] = []
        for chapter in F.entryNames(epub) where chapter.hasPrefix("EPUB/text/chapter-") {
            let xhtml = String(decoding: try book.resource(at: chapter), as: UTF8.self)
            altTexts += F.captures("<img src=\"../images/figure-[0-9]+\\.png\" alt=\"([^\"]+)\"", in: xhtml)
        }
        #expect(altTexts.count == pictures.count)
        #expect(altTexts.allSatisfy { $0.count > 20 })
    }

    /// Signature, IHDR first (8-bit RGB), IEND last, every chunk's CRC right.
    func checkPNG(_ png: [UInt8], _ path: String) throws {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(path): signature")
        var offset = 8
        var types: [String] = []
        while offset + 12 <= png.count {
            let length = Int(F.be32(png, offset))
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            try #require(offset + 12 + length <= png.count, "\(path): chunk \(type) runs past the end")
            let crc = F.be32(png, offset + 8 + length)
            #expect(crc == F.crc32(png[(offset + 4)..<(offset + 8 + length)]), "\(path): CRC of \(type)")
            if type == "IHDR" {
                #expect(F.be32(png, offset + 8) > 0 && F.be32(png, offset + 12) > 0)
                #expect(png[offset + 16] == 8 && png[offset + 17] == 2, "\(path): 8-bit truecolour")
            }
            types.append(type)
            offset += 12 + length
        }
        #expect(offset == png.count)
        #expect(types.first == "IHDR" && types.last == "IEND" && types.contains("IDAT"), "\(path): \(types)")
    }

    @Test(
        "A sample has the front matter, the first chapter (or two) and a closing note, and nothing more",
        arguments: [F.swedishNovel, F.englishNovel, F.childrensBook, F.poetryBook])
    func samples(_ product: Product) throws {
        let full = F.epub(product)
        let sample = F.epub(product, sample: true)
        let chapters = F.entryNames(sample).filter { $0.hasPrefix("EPUB/text/chapter-") }
        #expect((1...2).contains(chapters.count))
        let first = try F.text(sample, "EPUB/text/chapter-001.xhtml")
        #expect(first == (try F.text(full, "EPUB/text/chapter-001.xhtml")), "a sample is the book's own beginning")
        if chapters.count == 2 {
            #expect(F.plainText(first).utf8.count < MockBooks.shortChapter + 2_000)
        }
        let end = try F.text(sample, "EPUB/text/sample-end.xhtml")
        #expect(product.language == "en" ? end.contains("sample") : end.contains("smakprov"))
        #expect(try F.text(sample, "EPUB/nav.xhtml").contains("sample-end.xhtml"))
        #expect(!F.entryNames(full).contains("EPUB/text/sample-end.xhtml"))
        #expect(sample.count < full.count)
    }

    @Test("The Reader opens a generated book: title, chapters, text")
    func readerOpensIt() throws {
        let product = F.swedishNovel
        let book = try EPUBBook(bytes: [UInt8](F.epub(product)))
        #expect(book.warnings.isEmpty, "\(book.warnings)")
        #expect(book.metadata.title == product.title)
        let plan = BookPlan(product: product)
        // Cover, title page, colophon, contents, then the chapters.
        #expect(book.readingOrder.count == 4 + plan.chapterCount)
        #expect(book.tableOfContents.count == plan.chapterCount)
        #expect(book.tableOfContents.first?.title.hasPrefix("1. ") == true)
    }

    @Test("Prose is in the book's language, with its heroine and place from the blurb, and Swedish quotes or dashes")
    func prose() throws {
        let swedish = try F.text(F.epub(F.swedishNovel), "EPUB/text/chapter-001.xhtml")
        #expect(swedish.contains(" och ") && swedish.contains("xml:lang=\"sv\""))
        #expect(swedish.contains("<p>”") || swedish.contains("<p>– "))
        #expect(!swedish.contains("“"))
        let english = try F.text(F.epub(F.englishNovel), "EPUB/text/chapter-001.xhtml")
        #expect(english.contains(" and ") && english.contains("xml:lang=\"en\"") && english.contains("“"))

        // The other-language book: its file says its language, its text says it is Swedish.
        let other = F.otherLanguageBook
        let chapter = try F.text(F.epub(other), "EPUB/text/chapter-001.xhtml")
        #expect(
            chapter.contains(
                """
                <html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\" \
                xml:lang=\"\(other.language!)\"
                """
            ))
        #expect(chapter.contains("epub:type=\"chapter\" id=\"chapter-001\" xml:lang=\"sv\" lang=\"sv\""))

        // A blurb that names a place and a heroine gets a book set there, about her.
        for product in F.products.prefix(80) where F.kind(product) == .crime && F.ordinary(product) {
            let blurb = product.description ?? ""
            guard let place = Cast.place(in: blurb),
                let heroine = Cast.firstName(in: blurb, from: Vocabulary.swedishHeroines + Vocabulary.englishHeroines)
            else { continue }
            let text =
                try F.text(F.epub(product), "EPUB/text/chapter-001.xhtml")
                + (try F.text(F.epub(product), "EPUB/text/chapter-002.xhtml"))
            #expect(text.contains(heroine.name), "\(product.id): \(heroine.name) from “\(blurb)”")
            #expect(text.contains(place.name), "\(product.id): \(place.name) from “\(blurb)”")
        }
    }

    @Test("Footnotes are EPUB 3 note references and asides, and links point at chapters that exist")
    func notesAndLinks() throws {
        let epub = F.epub(F.factsBook)
        let names = Set(F.entryNames(epub))
        var notes = 0
        var links = 0
        for name in names.sorted() where name.hasPrefix("EPUB/text/chapter-") {
            let xhtml = try F.text(epub, name)
            let refs = F.captures("epub:type=\"noteref\" href=\"#(note-[0-9]+)\"", in: xhtml)
            let asides = F.captures("<aside class=\"footnote\" epub:type=\"footnote\" id=\"(note-[0-9]+)\"", in: xhtml)
            #expect(refs == asides)
            notes += refs.count
            for target in F.captures("<a href=\"(chapter-[0-9]+\\.xhtml)", in: xhtml) {
                links += 1
                #expect(names.contains("EPUB/text/" + target))
            }
        }
        #expect(notes >= 1)
        #expect(links >= 1)
        #expect(try F.text(epub, "EPUB/text/chapter-001.xhtml").contains("<table id=\"table-1\">"))
        #expect(try F.text(epub, "EPUB/text/chapter-001.xhtml").contains("<ul>"))
    }

}
