import Foundation
import Testing

@testable import Reader

/// Hyphenation by the patterns of the text's language (libhyphen with Debian's hyphen-sv and
/// hyphen-en-us): words break only where the patterns allow, at least two letters from the start
/// and three from the end, and not at all in a language with no patterns.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_sv_SE.dic")
            && FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic"),
        "needs Debian's hyphen-sv and hyphen-en-us"))
struct HyphenationTests {
    /// The word with a hyphen at each break.
    private func marked(_ word: String, _ language: String) throws -> String {
        let hyphenator = try #require(Hyphenator.forLanguage(language))
        var result = ""
        var last = word.startIndex
        for offset in hyphenator.breaks(in: word) {
            let index = String.Index(utf16Offset: offset, in: word)
            result += word[last..<index] + "-"
            last = index
        }
        return result + word[last...]
    }

    @Test(arguments: [
        ("nourishment", "en-US", "nour-ish-ment"),
        ("frozen", "en", "frozen"),
        ("Sourdough", "en-GB", "Sour-dough"),
        ("järnvägsstationen", "sv", "järn-vägs-sta-tio-nen"),
        ("Översättningen", "sv-SE", "Över-sätt-ningen"),
    ])
    func wordsBreakOnlyAtPatternPoints(word: String, language: String, expected: String) throws {
        #expect(try marked(word, language) == expected)
    }

    @Test func aLanguageWithoutPatternsHasNoHyphenator() {
        #expect(Hyphenator.forLanguage("tlh") == nil)
        #expect(Hyphenator.forLanguage(nil) == nil)
        #expect(Hyphenator.forLanguage("sv-FI") != nil, "a region without its own file uses the language's")
    }

    /// Every line of a justified, hyphenated paragraph that ends in a break hyphen splits its word
    /// where the patterns allow; without patterns (or with hyphenation off) no word is split.
    @Test(arguments: [("en", true), ("sv", true), ("fi", false)])
    func justifiedLinesSplitWordsOnlyAtPatternPoints(language: String, hasPatterns: Bool) throws {
        let text =
            language == "sv"
            ? "Järnvägsstationen låg vid Översättningsbyråns gamla lagerlokaler, där motorcykelreparatörerna arbetade."
            : """
            The nourishment of sourdough bread depends on fermentation, and extraordinary circumstances \
            demonstrate it.
            """
        let html =
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"\(language)\"><body><p>\(text)</p></body></html>"
        let document = ContentConverter.convert(Array(html.utf8), path: "c.xhtml")
        let hyphenator = Hyphenator.forLanguage(language)
        var splits = 0
        for width in 14...30 {
            let settings = LayoutSettings(
                width: width, rows: 40, margin: 0, justify: true, paragraphStyle: .blankLine, hyphenate: true)
            let lines = ChapterLayout.make(document, spineIndex: 0, settings: settings).lines.filter {
                !$0.runs.isEmpty
            }
            for (line, next) in zip(lines, lines.dropFirst()) {
                let shown = line.runs.map(\.text).joined()
                guard shown.hasSuffix("-") else { continue }
                #expect(hasPatterns, "no patterns for \(language), yet “\(shown)” was split at \(width) cells")
                let head = String(shown.dropLast().split(separator: " ").last ?? "")
                let tail = String(next.runs.map(\.text).joined().split(separator: " ").first ?? "")
                let word = head + tail.prefix { $0.isLetter }
                let points = hyphenator?.breaks(in: word) ?? []
                #expect(
                    points.contains(head.utf16.count),
                    "“\(head)-\(tail)” at \(width) cells is not a pattern point of \(word)")
                splits += 1
            }
        }
        if hasPatterns { #expect(splits > 0, "some line was hyphenated at one of the widths") }
    }
}

extension HyphenationTests {
    /// `:hyphenate on` without justification hyphenates a ragged-right page; `off` with it does not.
    @Test func hyphenationIsItsOwnSettingKeptPerBook() throws {
        let words =
            """
            The nourishment of sourdough bread depends on fermentation, and extraordinary circumstances \
            demonstrate it. 
            """
        let book = try EPUBBuilder(chapters: [.init("one.xhtml", "One", "<p>\(String(repeating: words, count: 8))</p>")]
        ).open()
        let store = InMemoryPositionStore()
        var session = ReaderSession(book: book, store: store, columns: 24, rows: 30)
        func splitLines(_ session: ReaderSession) -> Int {
            session.visiblePages().joined().filter { $0.line.runs.map(\.text).joined().hasSuffix("-") }.count
        }
        #expect(splitLines(session) == 0, "off by default without justification")
        _ = session.perform(.hyphenate(true))
        #expect(session.message?.contains("hyphenated by the patterns") == true)
        #expect(splitLines(session) > 0)
        let reopened = ReaderSession(book: book, store: store, columns: 24, rows: 30)
        #expect(splitLines(reopened) > 0, "the setting is kept for the book")
        _ = session.perform(.justify(true))
        _ = session.perform(.hyphenate(false))
        #expect(splitLines(session) == 0, "off, even with justification")
    }
}
