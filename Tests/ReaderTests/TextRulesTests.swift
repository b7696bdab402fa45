import Foundation
import Testing

@testable import Reader

/// The book's CSS `text-transform` and `hyphens`, from its stylesheets (by element and by class)
/// and from an element's own `style`.
@Suite struct TextRulesTests {
    private func document(_ body: String, css: String) -> ChapterDocument {
        var styles = BookStyles()
        styles.add(css: css)
        let html = "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><body>\(body)</body></html>"
        return ContentConverter.convert(Array(html.utf8), path: "c.xhtml", styles: styles)
    }

    @Test(arguments: [
        ("<h1>Chapter one</h1>", "h1 { text-transform: uppercase }", "CHAPTER ONE\n"),
        ("<p class=\"low\">QUIET, PLEASE</p>", ".low { text-transform: lowercase }", "quiet, please\n"),
        (
            "<p class=\"t\">the old man and the (sea) o'neill</p>", ".t { -epub-text-transform: capitalize }",
            "The Old Man And The (Sea) O'neill\n"
        ),
        (
            "<p class=\"t\">a <b>cold</b>er <i>b</i>right day</p>", ".t { text-transform: capitalize }",
            "A Colder Bright Day\n"
        ),
        (
            "<h1>Part <span class=\"n\">ii</span></h1>", "h1 { text-transform: uppercase } .n { text-transform: none }",
            "PART ii\n"
        ),
        ("<p style=\"text-transform: uppercase\">loud</p>", "", "LOUD\n"),
        // A rule for an element inside another (`.x h1`) is not read as one for every h1.
        ("<h1>Calm</h1>", ".x h1 { text-transform: uppercase }", "Calm\n"),
    ])
    func textTransformSetsTheLetters(body: String, css: String, expected: String) {
        #expect(document(body, css: css).plainText == expected)
    }

    private func lines(_ body: String, css: String, width: Int, hyphenate: Bool) -> [String] {
        ChapterLayout.make(
            document(body, css: css), spineIndex: 0,
            settings: LayoutSettings(width: width, rows: 100, margin: 0, hyphenate: hyphenate, language: "en")
        ).lines.map(\.text).filter { !$0.isEmpty }
    }

    @Test func hyphensNoneKeepsEvenSoftHyphensWhole() {
        let body = "<p class=\"whole\">aaaa extra&shy;ordinarily</p><p>aaaa extra&shy;ordinarily</p>"
        let css = ".whole { hyphens: none }"
        #expect(
            lines(body, css: css, width: 12, hyphenate: false) == [
                "aaaa", "extraordinar", "ily", "aaaa extra-", "ordinarily",
            ])
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic"),
            "needs Debian's hyphen-en-us"))
    func hyphensManualBreaksOnlyAtTheBooksSoftHyphens() {
        let text = "To be incomprehensibilities now."
        let auto = lines("<p>\(text)</p>", css: "", width: 16, hyphenate: true)
        #expect(auto.contains { $0.hasSuffix("-") }, "patterns break the long word: \(auto)")
        for css in ["p { hyphens: manual }", "p { -webkit-hyphens: manual }", "body { hyphens: none }"] {
            let manual = lines("<p>\(text)</p>", css: css, width: 16, hyphenate: true)
            #expect(!manual.contains { $0.hasSuffix("-") }, "\(css): \(manual)")
        }
        let soft = lines(
            "<p>To be incomprehensi&shy;bilities now.</p>", css: "p { hyphens: manual }", width: 16, hyphenate: true)
        #expect(soft.contains { $0.hasSuffix("incomprehensi-") }, "\(soft)")
    }
}
