import Testing

@testable import Reader

/// Which voice reads what: the patron's choice or the chapter's language for the text, and a
/// passage in another language in its own voice when one is installed.
@Suite struct AloudVoicesTests {
    let installed = ["sv", "en", "en-us", "fr", "nb"]

    @Test func theChapterLanguageThenTheBooksChooseTheVoice() {
        let voices = AloudVoices(installed: installed, chosen: nil, bookLanguage: "sv-SE")
        #expect(voices.voice(forChapterLanguage: nil) == "sv")
        #expect(voices.voice(forChapterLanguage: "en-US") == "en-us")
        #expect(
            voices.voice(forChapterLanguage: "tlh") == "sv", "a chapter language with no voice falls back to the book's"
        )
        #expect(
            AloudVoices(installed: installed, chosen: nil, bookLanguage: "tlh").voice(forChapterLanguage: nil) == nil)
    }

    @Test func aChosenVoiceReadsTheTextButNotMarkedPassages() {
        let voices = AloudVoices(installed: installed, chosen: "en-us", bookLanguage: "sv")
        #expect(voices.voice(forChapterLanguage: "sv") == "en-us")
        let french = LanguagePassage(range: 0..<5, language: "fr-FR")
        #expect(voices.voice(for: french, chapterLanguage: "sv") == "fr")
        let own = LanguagePassage(range: 0..<5, language: nil)
        #expect(voices.voice(for: own, chapterLanguage: "sv") == "en-us")
    }

    @Test func aPassageWithNoInstalledVoiceIsReadInTheChaptersVoice() {
        let voices = AloudVoices(installed: installed, chosen: nil, bookLanguage: "sv")
        #expect(voices.voice(for: LanguagePassage(range: 0..<3, language: "tlh"), chapterLanguage: nil) == "sv")
        #expect(
            AloudVoices(installed: installed, chosen: "xx", bookLanguage: "sv").chosen == nil,
            "an uninstalled choice is ignored")
    }
}
