import Foundation
import Localization
import Testing

@testable import Reader

/// What reading aloud says, passage by passage: the language the page gives each stretch of text
/// (the same rule as hyphenation and direction), and the pictures' descriptions where they stand.
@Suite struct AloudPassagesTests {
    private func document(_ html: String) -> ChapterDocument {
        ContentConverter.convert(Array(html.utf8), path: "c.xhtml")
    }

    private func said(_ document: ChapterDocument) -> [(words: String, language: String?)] {
        document.passages(from: 0).map { (document.words(of: $0).trimmed, $0.language) }
    }

    @Test(arguments: [
        // The body's language holds for the text it holds, whatever the html element says.
        (#"<html lang="en"><body xml:lang="sv"><p>Hej.</p></body></html>"#, "sv"),
        (#"<html xml:lang="sv"><body><p>Hej.</p></body></html>"#, "sv"),
        (#"<html><body lang="sv"><p>Hej.</p></body></html>"#, "sv"),
        (#"<html lang="sv"><body lang=""><p>Hej.</p></body></html>"#, "sv"),
    ])
    func theChaptersLanguageIsTheNearestDeclared(html: String, language: String) {
        #expect(document(html).language == language)
    }

    @Test func eachStretchIsSaidInTheLanguageThePageGivesIt() {
        let chapter = document(
            """
            <html xml:lang="sv"><body><p>Hon sa <q xml:lang="en">good <span lang="fr">bonjour</span> morning</q> \
            och gick.</p><div lang="de"><p>Guten Tag.</p><p xml:lang="sv">Hej igen.</p></div></body></html>
            """)
        for passage in chapter.passages(from: 0) where !chapter.words(of: passage).trimmed.isEmpty {
            // The page's rule, asked at each character of the passage.
            for offset in passage.range where !chapter.text(in: offset..<offset + 1).trimmed.isEmpty {
                #expect(LanguageSpan.innermost(chapter.languageSpans, at: offset) == passage.language)
            }
        }
        let languages = said(chapter).filter { !$0.words.isEmpty }.map { $0.language ?? "own" }
        #expect(languages == ["own", "en", "fr", "en", "own", "de", "sv"])
    }

    @Test func aPicturesDescriptionIsSaidWhereItStands() {
        let chapter = document(
            """
            <html xml:lang="sv"><body><p>Före bilden.</p><img src="a.png" alt="En karta över öarna"/>\
            <figure lang="en"><img src="b.png" alt="A map"/></figure><img src="c.png" alt=""/><p>Efter.</p>\
            <img src="d.png" alt="Sist"/></body></html>
            """)
        let label = tr("Image:")
        let said = said(chapter)
        #expect(
            said.map(\.words) == [
                "Före bilden.", label, "En karta över öarna", label, "A map", "Efter.", label, "Sist",
            ])
        #expect(said[1].language == Localization.language, "the label in the interface's language")
        #expect(said[2].language == nil, "the description in the chapter's own")
        #expect(said[4].language == "en")
        let picture = chapter.passages(from: 0)[1]
        #expect(picture.range.isEmpty && chapter.text(in: 0..<picture.range.lowerBound) == "Före bilden.\n")
    }

    @Test func aChapterWithNoWordsHasNothingToSay() {
        #expect(!document("<html><body><p> </p><img src=\"a.png\" alt=\"\"/><hr/></body></html>").hasWordsToSay())
        #expect(document("<html><body><img src=\"a.png\" alt=\"A cat\"/></body></html>").hasWordsToSay())
        #expect(document("<html><body><p>1914</p></body></html>").hasWordsToSay())
        #expect(!document("<html><body><p>Words.</p><p>…</p></body></html>").hasWordsToSay(from: 7))
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/espeak-ng-data/sv_dict"),
            "needs eSpeak NG's voice data"))
    func aBookWithNoWordsSaysSoInsteadOfReading() throws {
        let book = try EPUBBuilder(chapters: [.init("one.xhtml", "", "<p> </p><hr/>")]).open()
        var session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 20)
        session.toggleReadingAloud()
        #expect(!session.isReadingAloud)
        #expect(session.message == "This book has no words to read aloud.")
    }
}
