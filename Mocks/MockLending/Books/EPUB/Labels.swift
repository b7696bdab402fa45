/// The words of the front matter and the package in the text's language.
struct Labels: Sendable {
    let contents: String
    let landmarks: String
    let cover: String
    let titlePage: String
    let colophon: String
    let translatedBy: String
    let illustratedBy: String
    let originalTitle: String
    let publishedBy: String
    let sampleEnd: String
    let notes: String
    let back: String

    static let swedish = Labels(
        contents: "Innehåll", landmarks: "Hitta i boken", cover: "Omslag", titlePage: "Titelsida", colophon: "Om boken",
        translatedBy: "Översättning", illustratedBy: "Illustrationer", originalTitle: "Originalets titel",
        publishedBy: "Utgiven av", sampleEnd: "Slut på smakprovet", notes: "Noter", back: "Tillbaka")

    static let english = Labels(
        contents: "Contents", landmarks: "Landmarks", cover: "Cover", titlePage: "Title page",
        colophon: "About this book",
        translatedBy: "Translated by", illustratedBy: "Illustrations", originalTitle: "Original title",
        publishedBy: "Published by", sampleEnd: "End of sample", notes: "Notes", back: "Back")

    static func of(_ language: Story.Language) -> Labels { language == .english ? english : swedish }

    /// A language's name in Swedish or English, for the colophon of a book in neither.
    static func languageName(_ code: String, in language: Story.Language) -> String {
        let names: [String: (sv: String, en: String)] = [
            "da": ("danska", "Danish"), "nb": ("norska", "Norwegian"), "no": ("norska", "Norwegian"),
            "fi": ("finska", "Finnish"), "de": ("tyska", "German"), "fr": ("franska", "French"),
            "es": ("spanska", "Spanish"), "sv": ("svenska", "Swedish"), "en": ("engelska", "English"),
        ]
        guard let pair = names[code] else { return code }
        return language == .english ? pair.en : pair.sv
    }
}
