internal import Speech

/// Which eSpeak NG voice speaks each passage of a book.
///
/// A chapter's own text is spoken in the voice the patron chose (`:voice`, `--voice`), else in
/// the voice of the chapter's language (`xml:lang` on `html` or `body`), else of the book's
/// (`dc:language`). A passage marked as another language inside a chapter (`<q xml:lang="fr">`)
/// is spoken in that language's voice when one is installed, and in the chapter's voice otherwise.
public struct AloudVoices: Sendable, Hashable {
    /// The voice names eSpeak NG has installed.
    public let installed: [String]
    /// The voice the patron chose for the book, if any.
    public let chosen: String?
    /// The book's language (`dc:language`).
    public let bookLanguage: String?

    /// Creates the plan; a chosen voice that is not installed is ignored.
    public init(installed: [String], chosen: String?, bookLanguage: String?) {
        self.installed = installed
        self.chosen = chosen.flatMap { installed.contains($0) ? $0 : nil }
        self.bookLanguage = bookLanguage
    }

    /// The voice for a chapter's own text; nil when none is installed for its language or the book's.
    public func voice(forChapterLanguage chapterLanguage: String?) -> String? {
        if let chosen { return chosen }
        if let chapterLanguage, let voice = VoiceChoice.voice(forLanguage: chapterLanguage, installed: installed) {
            return voice
        }
        return VoiceChoice.voice(forLanguage: bookLanguage ?? "en", installed: installed)
    }

    /// The voice for a passage of a chapter: its own language's voice when installed, else the chapter's.
    public func voice(for passage: LanguagePassage, chapterLanguage: String?) -> String? {
        if let language = passage.language, let voice = VoiceChoice.voice(forLanguage: language, installed: installed) {
            return voice
        }
        return voice(forChapterLanguage: chapterLanguage)
    }
}
