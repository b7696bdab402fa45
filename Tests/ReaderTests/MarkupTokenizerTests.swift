import Markup
import Testing

@testable import Reader

@Suite struct MarkupTokenizerTests {
    private func text(_ source: String) -> String {
        var tokenizer = MarkupTokenizer(source)
        return tokenizer.tokens().compactMap { token -> String? in
            if case .text(let text) = token { return text }
            return nil
        }.joined()
    }

    @Test(arguments: [
        ("a&nbsp;b", "a\u{A0}b"),
        ("&mdash;&ndash;&hellip;", "—–…"),
        ("&laquo;x&raquo; &ldquo;y&rdquo; &lsquo;z&rsquo;", "«x» “y” ‘z’"),
        ("&aring;&auml;&ouml;&eacute;&Aring;", "åäöéÅ"),
        ("soft&shy;hyphen", "soft\u{AD}hyphen"),
        ("&#233;&#xE9;&#x1F600;", "éé😀"),
        ("&#151;", "—"),
        ("&undefined; &amp; &", "&undefined; & &"),
        ("a < b", "a < b"),
        ("<![CDATA[<b>&amp;</b>]]>", "<b>&amp;</b>"),
        ("x<!-- hidden -->y", "xy"),
        ("<script>if (a<b) alert('&amp;')</script>z", "z"),
        ("<STYLE>p{}</STYLE>z", "z"),
    ])
    func decodesText(source: String, expected: String) {
        #expect(text(source) == expected)
    }

    @Test func externalEntitiesAreNeverResolved() {
        let source = """
            <?xml version="1.0"?>
            <!DOCTYPE html [ <!ENTITY x SYSTEM "file:///etc/passwd"> <!ENTITY y "internal"> ]>
            <p>&x; &y;</p>
            """
        let result = text(source)
        #expect(result.contains("&x;"))
        #expect(result.contains("internal"))
        #expect(!result.contains("root:"))
    }

    @Test func tagsAndAttributes() {
        var tokenizer = MarkupTokenizer(#"<P Class="a" id='b' hidden data-x=1/><br>"#)
        let tokens = tokenizer.tokens()
        #expect(
            tokens.first
                == .start(
                    name: "p",
                    attributes: [
                        MarkupAttribute(name: "class", value: "a"), MarkupAttribute(name: "id", value: "b"),
                        MarkupAttribute(name: "hidden", value: ""), MarkupAttribute(name: "data-x", value: "1"),
                    ], selfClosing: true))
        #expect(tokens.last == .start(name: "br", attributes: [], selfClosing: false))
    }

    @Test func treeToleratesMismatchedTags() {
        let root = MarkupElement.parse(Array("<a><b>one<c>two</b>three</a><d/>".utf8))
        #expect(root.child("a")?.text == "onetwothree")
        #expect(root.child("d") != nil)
    }

    /// A title or a contents label as a patron reads it: white space of any kind, Windows line
    /// ends included, collapsed to one space and trimmed, and every other character kept.
    @Test func textCollapsesWhiteSpaceAndKeepsEverythingElse() {
        let root = MarkupElement.parse(
            Array("<a>\r\n\t Kapitel <b>1:</b>\r\n  Överfarten\u{00A0}i\tgryningen — جزء ١ \n</a>".utf8))
        #expect(root.child("a")?.text == "Kapitel 1: Överfarten\u{00A0}i gryningen — جزء ١")
        #expect(MarkupElement.parse(Array("<a> \n\t </a>".utf8)).child("a")?.text == "")
    }
}
