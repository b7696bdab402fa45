import Localization
import Testing

@testable import Client

/// `language NAME`, `language = NAME` and a scenario's `language:` know a language by its code, its
/// name in English or in any language bok speaks, or its country's code, from Foundation's locale
/// data rather than a list of Swedish and English words.
@Suite("Naming a language")
struct LanguageCommandTests {
    @Test(
        "The words that chose Swedish and English still do; others choose nothing",
        arguments: [
            ("sv", "sv"), ("SV", "sv"), ("se", "sv"), ("svenska", "sv"), ("Swedish", "sv"), ("en", "en"),
            ("engelska", "en"), ("English", "en"), ("klingon", nil), ("zz", nil), ("xx", nil), ("", nil),
        ] as [(String, String?)])
    func names(word: String, code: String?) {
        #expect(LanguageCommand.code(word) == code, "\(word)")
    }
}
