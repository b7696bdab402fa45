import Foundation

/// Writes a novel-length EPUB of readable, varied prose from a seed: chapters of narration
/// and dialogue about a handful of characters and places, a contents page, a footnote now
/// and then, and a drawn PNG cover. The same seed gives the same book.
struct NovelGenerator {
    var chapters = 60
    /// About how many bytes of text the whole book holds.
    var textBytes = 3_500_000
    var seed: UInt64 = 0x5EED_B00C
    /// Nested contents: each chapter's entry holds entries for its sections, all linking with
    /// `#fragment`s (nav and NCX), as most published books' contents do.
    var nestedContents = false
    /// Bytes of text in the first chapter when it is to be one huge file (the rest share what is left).
    var hugeFirstChapter: Int?
    /// Pictures in most chapters (three of every four).
    var imagesInChapters = false
    /// The cover as the first spine item (an XHTML page showing it), not only as `cover-image`.
    var coverPage = false
    /// A picture book (`rendition:layout pre-paginated`): each chapter a page, a 600×800 picture
    /// and a sentence of words set beside it.
    var pictureBook = false
    /// The package's metadata: a library of books (`generate-library`) gives each its own.
    var title = "The Ferry at Dawn"
    var authors = ["Bok Benchmark"]
    var language = "en"
    /// `dc:subject`s (calibre's tags) and a `dc:description` (calibre's comments), none by default.
    var subjects: [String] = []
    var summary: String?
    var coverSize = (width: 240, height: 360)

    /// The shapes real books have, for `reader-bench generate --shape NAME`.
    static let shapes: [String: NovelGenerator] = [
        "novel": NovelGenerator(),
        "nested-toc": NovelGenerator(nestedContents: true, imagesInChapters: false),
        "many-small": NovelGenerator(chapters: 500, textBytes: 1_000_000),
        "huge-chapter": NovelGenerator(chapters: 10, textBytes: 3_500_000, hugeFirstChapter: 2_000_000),
        "images": NovelGenerator(imagesInChapters: true),
        "cover-page": NovelGenerator(coverPage: true),
        "picture-book": NovelGenerator(chapters: 24, textBytes: 24 * 200, pictureBook: true),
    ]

    private static let names = [
        "Anna", "Jonas", "Mira", "Old Henrik", "the ferryman", "Elsa", "Tomas", "the doctor", "Karin", "little Per",
    ]
    private static let places = [
        "the harbour", "the lighthouse", "the birch wood", "the station", "the bakery on Strand Street",
        "the north shore", "the chapel", "the market square", "the island", "the empty school",
    ]
    private static let times = [
        "At dawn", "By noon", "Late that evening", "The next morning", "When the rain stopped",
        "Before the ferry left", "In the grey hour after supper", "On the first warm day", "That winter",
        "Some weeks later",
    ]
    private static let verbs = [
        "walked to", "waited at", "remembered", "wrote about", "came back to", "could not forget",
        "dreamed of", "painted", "searched", "left a letter at",
    ]
    private static let details = [
        "the gulls followed the boats as if they expected news",
        "the wind carried the smell of tar and salt",
        "someone had left a lamp burning in the window",
        "the clock in the square had stopped at a quarter past four",
        "the snow lay blue in the ruts of the road",
        "the water was so still that the houses stood upside down in it",
        "the bread was still warm under its cloth",
        "a dog barked twice and then thought better of it",
        "the birches had just begun to turn yellow",
        "the letters in the drawer smelled faintly of lavender",
        "nobody had swept the steps for a week",
        "the radio played a song nobody could name",
    ]
    private static let feelings = [
        "with a small, stubborn hope", "without quite knowing why", "as if nothing had happened",
        "more slowly than usual", "with the letter folded in a pocket", "pretending not to listen",
        "for the last time, or so it seemed", "laughing at something nobody else had heard",
    ]
    private static let sayings = [
        "You always come back when the weather turns",
        "I kept the key, if that is what you are asking",
        "There is nothing on the island that was not there before",
        "Tell me again how the story ends",
        "We should have taken the early ferry",
        "Nobody reads letters any more, not properly",
        "The lighthouse has not been lit since the war",
        "If you wait long enough, everyone passes through the station",
    ]
    private static let replies = ["said", "asked", "whispered", "answered", "muttered", "called out"]
    private static let chapterWords = [
        "Harbour", "Letters", "Winter", "The Ferry", "Lamps", "Birches", "The Station", "Salt",
        "Rain", "The Island", "Keys", "The Market", "Lighthouse", "Snow", "Bread", "The Chapel",
    ]

    private var state: UInt64 = 0

    private mutating func next() -> UInt64 {
        // SplitMix64: small, fast, and the same everywhere.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func pick<T>(_ list: [T]) -> T { list[Int(next() % UInt64(list.count))] }

    private mutating func sentence() -> String {
        switch next() % 6 {
        case 0:
            return
                """
                \(pick(Self.times)), \(pick(Self.names)) \(pick(Self.verbs)) \(pick(Self.places)) \
                \(pick(Self.feelings)).
                """
        case 1:
            let name = pick(Self.names)
            return "“\(pick(Self.sayings)),” \(name) \(pick(Self.replies)), and for a moment \(pick(Self.details))."
        case 2:
            return
                """
                At \(pick(Self.places)) \(pick(Self.details)), and \(pick(Self.names)) stood there \
                \(pick(Self.feelings)).
                """
        case 3:
            return "It was the kind of day when \(pick(Self.details)); \(pick(Self.names)) noticed it only later."
        case 4:
            let name = pick(Self.names)
            return
                """
                \(name.prefix(1).uppercased() + name.dropFirst()) \(pick(Self.verbs)) \(pick(Self.places)), \
                <em>\(pick(Self.feelings))</em>.
                """
        default:
            return
                "Years afterwards \(pick(Self.names)) would say that \(pick(Self.details)), though nobody believed it."
        }
    }

    private mutating func paragraph() -> String {
        let count = 3 + Int(next() % 5)
        return (0..<count).map { _ in sentence() }.joined(separator: " ")
    }

    /// Creators, subjects and the description as lines of the package's metadata.
    private var metadataLines: String {
        var lines = authors.map { "    <dc:creator>\(Self.escaped($0))</dc:creator>\n" }
        lines += subjects.map { "    <dc:subject>\(Self.escaped($0))</dc:subject>\n" }
        if let summary { lines.append("    <dc:description>\(Self.escaped(summary))</dc:description>\n") }
        if pictureBook { lines.append("    <meta property=\"rendition:layout\">pre-paginated</meta>\n") }
        return lines.joined()
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// The book's files: `(path, bytes, compress)`.
    mutating func files() -> [(String, [UInt8], Bool)] {
        state = seed
        var files: [(String, [UInt8], Bool)] = [("mimetype", Array("application/epub+zip".utf8), false)]
        files.append(
            (
                "META-INF/container.xml",
                Array(
                    """
                    <?xml version="1.0"?>
                    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                      <rootfiles><rootfile full-path="OEBPS/content.opf" \
                    media-type="application/oebps-package+xml"/></rootfiles>
                    </container>
                    """.utf8), true
            ))
        let perChapter = textBytes / max(1, chapters)
        let restPerChapter = hugeFirstChapter.map { (textBytes - $0) / max(1, chapters - 1) } ?? perChapter
        var manifest = ""
        var spine = ""
        var navItems = ""
        var ncxPoints = ""
        var playOrder = 0
        var titles: [String] = []
        if coverPage {
            files.append(
                (
                    "OEBPS/cover.xhtml",
                    Array(
                        Self.xhtml(
                            title: "Cover",
                            body:
                                "<div class=\"cover\"><img src=\"cover.png\" alt=\"The Ferry at Dawn\"/></div>"
                        ).utf8), true
                ))
            manifest += "<item id=\"coverpage\" href=\"cover.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
            spine += "<itemref idref=\"coverpage\"/>\n"
        }
        for number in 1...chapters {
            if pictureBook {
                let image = "images/page\(number).png"
                files.append(
                    ("OEBPS/\(image)", CoverPainter.png(width: 600, height: 800, seed: seed &+ UInt64(number)), false))
                manifest += "<item id=\"page\(number)\" href=\"\(image)\" media-type=\"image/png\"/>\n"
                let title = "Page \(number)"
                let body = "<img src=\"\(image)\" alt=\"\"/><div class=\"words\"><p>\(sentence())</p></div>"
                files.append(("OEBPS/ch\(number).xhtml", Array(Self.xhtml(title: title, body: body).utf8), true))
                manifest +=
                    "<item id=\"ch\(number)\" href=\"ch\(number).xhtml\" media-type=\"application/xhtml+xml\"/>\n"
                spine += "<itemref idref=\"ch\(number)\"/>\n"
                navItems += "<li><a href=\"ch\(number).xhtml\">\(title)</a></li>\n"
                continue
            }
            let chapterBytes = number == 1 ? (hugeFirstChapter ?? perChapter) : restPerChapter
            let first = pick(Self.chapterWords)
            var second = pick(Self.chapterWords)
            while second == first { second = pick(Self.chapterWords) }
            let title = "\(first) and \(second.lowercased())"
            titles.append(title)
            var body = "<h1 id=\"c\(number)\">\(number). \(title)</h1>\n"
            var written = 0
            var paragraphCount = 0
            var sections: [String] = []
            while written < chapterBytes {
                var text = paragraph()
                paragraphCount += 1
                if paragraphCount == 4, number % 3 == 0 {
                    text +=
                        """
                         The ferry timetable<a epub:type=\"noteref\" \
                        href=\"notes.xhtml#n\(number)\">\(number / 3)</a> had changed again.
                        """
                }
                if nestedContents, paragraphCount % 12 == 1 {
                    let section = "\(sections.count + 1). \(pick(Self.chapterWords))"
                    sections.append(section)
                    body += "<h2 id=\"c\(number)-s\(sections.count)\">\(section)</h2>\n"
                }
                written += text.utf8.count
                body += "<p>\(text)</p>\n"
                if paragraphCount == 5, imagesInChapters, number % 4 != 0 {
                    let image = "images/figure\(number).png"
                    files.append(
                        (
                            "OEBPS/\(image)", CoverPainter.png(width: 320, height: 200, seed: seed &+ UInt64(number)),
                            false
                        ))
                    manifest += "<item id=\"fig\(number)\" href=\"\(image)\" media-type=\"image/png\"/>\n"
                    body +=
                        """
                        <figure><img src=\"\(image)\" alt=\"Figure \(number)\"/><figcaption>Figure \
                        \(number)</figcaption></figure>\n
                        """
                }
                if paragraphCount % 40 == 0 { body += "<hr/>\n" }
            }
            files.append(("OEBPS/ch\(number).xhtml", Array(Self.xhtml(title: title, body: body).utf8), true))
            manifest += "<item id=\"ch\(number)\" href=\"ch\(number).xhtml\" media-type=\"application/xhtml+xml\"/>\n"
            spine += "<itemref idref=\"ch\(number)\"/>\n"
            if nestedContents {
                let nested = sections.enumerated().map { index, section in
                    "<li><a href=\"ch\(number).xhtml#c\(number)-s\(index + 1)\">\(section)</a></li>"
                }.joined()
                navItems +=
                    "<li><a href=\"ch\(number).xhtml#c\(number)\">\(number). \(title)</a><ol>\(nested)</ol></li>\n"
                playOrder += 1
                ncxPoints +=
                    """
                    <navPoint id=\"p\(number)\" playOrder=\"\(playOrder)\"><navLabel><text>\(number). \
                    \(title)</text></navLabel>
                    """
                    + "<content src=\"ch\(number).xhtml#c\(number)\"/>"
                for (index, section) in sections.enumerated() {
                    playOrder += 1
                    ncxPoints +=
                        """
                        <navPoint id=\"p\(number)-\(index + 1)\" \
                        playOrder=\"\(playOrder)\"><navLabel><text>\(section)</text></navLabel>
                        """
                        + "<content src=\"ch\(number).xhtml#c\(number)-s\(index + 1)\"/></navPoint>"
                }
                ncxPoints += "</navPoint>\n"
            } else {
                navItems += "<li><a href=\"ch\(number).xhtml\">\(number). \(title)</a></li>\n"
            }
        }
        if nestedContents {
            files.append(
                (
                    "OEBPS/toc.ncx",
                    Array(
                        """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
                        <head><meta name="dtb:uid" content="urn:uuid:\(Self.uuid(seed))"/></head><docTitle><text>The \
                        Ferry at Dawn</text></docTitle>
                        <navMap>\(ncxPoints)</navMap></ncx>
                        """.utf8), true
                ))
            manifest += "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n"
        }
        var notes = ""
        for number in stride(from: 3, through: chapters, by: 3) {
            notes +=
                """
                <aside epub:type=\"footnote\" id=\"n\(number)\"><p>\(number / 3). The timetable of chapter \
                \(number): \(sentence())</p></aside>\n
                """
        }
        files.append(("OEBPS/notes.xhtml", Array(Self.xhtml(title: "Notes", body: notes).utf8), true))
        files.append(
            (
                "OEBPS/nav.xhtml",
                Array(
                    Self.xhtml(
                        title: "Contents", body: "<nav epub:type=\"toc\"><h1>Contents</h1><ol>\(navItems)</ol></nav>"
                    ).utf8), true
            ))
        files.append(
            ("OEBPS/cover.png", CoverPainter.png(width: coverSize.width, height: coverSize.height, seed: seed), false))
        files.append(
            (
                "OEBPS/content.opf",
                Array(
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
                      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                        <dc:identifier id="uid">urn:uuid:\(Self.uuid(seed))</dc:identifier>
                        <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
                        <dc:title>\(Self.escaped(title))</dc:title>
                    \(metadataLines)    <dc:language>\(language)</dc:language>
                        <meta name="cover" content="cover"/>
                      </metadata>
                      <manifest>
                        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                        <item id="cover" href="cover.png" media-type="image/png" properties="cover-image"/>
                        <item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/>
                    \(manifest)  </manifest>
                      <spine\(nestedContents ? " toc=\"ncx\"" : "")>
                    \(spine)    <itemref idref="notes" linear="no"/>
                      </spine>
                    </package>
                    """.utf8), true
            ))
        return files
    }

    /// A well-formed UUID made from the seed, so one seed always names the same book.
    private static func uuid(_ seed: UInt64) -> String {
        let hex = String(repeating: "0", count: 16 - String(seed, radix: 16).count) + String(seed, radix: 16)
        let digits = Array("b0cb0cb0cb0cb0cb" + hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    private static func xhtml(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>\(title)</title></head>
        <body>
        \(body)</body>
        </html>
        """
    }
}
