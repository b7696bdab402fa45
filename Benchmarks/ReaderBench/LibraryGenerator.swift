import Foundation

/// A library of small books for a catalogue benchmark (`reader-bench generate-library`): each
/// book a short `NovelGenerator` EPUB of a few thousand characters with its own title, authors,
/// language, subjects and description, all from the book's number, so one count always gives
/// the same library. Titles are distinct by construction (adjective × noun × pattern, 5 400 of
/// them); 1 250 authors have four books each, every tenth book has a second author.
enum LibraryGenerator {
    static let adjectives = [
        "Silent", "Northern", "Hidden", "Winter", "Last", "Golden", "Broken", "Distant", "Frozen", "Quiet",
        "Secret", "Burning", "Empty", "Lost", "Wild", "Salt", "Iron", "Glass", "Paper", "Summer",
        "Autumn", "Midnight", "Crimson", "Pale", "Hollow", "Bright", "Sunken", "Forgotten", "Long", "Small",
    ]
    static let nouns = [
        "Harbour", "Lighthouse", "Ferry", "Station", "Island", "Garden", "Orchard", "Letter", "River", "Forest",
        "Bridge", "Tower", "Cellar", "Mirror", "Kingdom", "Map", "Clock", "Road", "Shore", "Window",
        "Chapel", "Market", "Meadow", "Lantern", "Mountain", "Valley", "Well", "Archive", "Compass", "Violin",
    ]
    static let patterns = [
        "The {a} {n}", "{n} of the {a} Sea", "A {a} {n}", "{a} {n}: A Novel", "Beyond the {a} {n}",
        "The {n} and the {a} Hour",
    ]
    static let firstNames = [
        "Anna", "Björn", "Åsa", "Mikael", "Ingrid", "Jonas", "Søren", "Zoë", "Pierre", "Marie",
        "Hanna", "Lars", "Eeva", "Matti", "Lucía", "Diego", "Greta", "Klaus", "Émile", "Chloé",
        "Olga", "Ivan", "Nora", "Tobias", "Elif",
    ]
    static let lastNames = [
        "Lindqvist", "Öberg", "Andersson", "Nyström", "Berg", "Holm", "Sundberg", "Ekström", "Dahl", "Forsberg",
        "Larsen", "Jensen", "Virtanen", "Korhonen", "García", "Martín", "Müller", "Schneider", "Dubois", "Lefèvre",
        "Smith", "Brown", "Walker", "Hughes", "Murray", "Novak", "Horvat", "Kowalski", "Nowak", "Rossi",
        "Bianchi", "Costa", "Silva", "Santos", "Kaya", "Yilmaz", "Petrov", "Ivanova", "O'Brien", "Byrne",
        "Fischer", "Weber", "Moreau", "Laurent", "Nilsen", "Hansen", "Lehtonen", "Mäkinen", "Romano", "Ward",
    ]
    static let languages = ["en", "sv", "de", "fr", "fi", "es", "nb", "da"]
    static let subjects = [
        "Fiction", "Crime", "Thrillers", "Romance", "Science Fiction", "Fantasy", "History", "Biography",
        "Poetry", "Travel", "Cooking", "Nature", "Philosophy", "Children", "Young Adult", "Humour",
        "Horror", "Short Stories", "Essays", "Drama", "Mystery", "War", "Sea Stories", "Family",
    ]

    /// How many books the word lists can name with distinct titles.
    static var capacity: Int { adjectives.count * nouns.count * patterns.count }

    /// Book `number` (0-based) of the library.
    static func book(_ number: Int) -> NovelGenerator {
        let adjective = adjectives[number % adjectives.count]
        let noun = nouns[(number / adjectives.count) % nouns.count]
        let pattern = patterns[number / (adjectives.count * nouns.count) % patterns.count]
        let title = pattern.replacingOccurrences(of: "{a}", with: adjective).replacingOccurrences(of: "{n}", with: noun)
        func author(_ index: Int) -> String {
            let index = index % (firstNames.count * lastNames.count)
            return "\(firstNames[index % firstNames.count]) \(lastNames[index / firstNames.count])"
        }
        var authors = [author(number * 7)]
        if number % 10 == 9 { authors.append(author(number * 7 + 611)) }
        let first = subjects[number % subjects.count]
        let second = subjects[(number / subjects.count * 5 + number + 7) % subjects.count]
        var book = NovelGenerator()
        book.chapters = 3
        book.textBytes = 4_500
        book.seed = 0xB00C_0000 &+ UInt64(number)
        book.title = title
        book.authors = authors
        book.language = languages[(number / 3) % languages.count]
        book.subjects = first == second ? [first] : [first, second]
        book.summary =
            "\(title) by \(authors.joined(separator: " and ")): a short \(first.lowercased()) book about "
            + "\(noun.lowercased())s and \(adjective.lowercased()) weather, number \(number + 1) of the benchmark."
        book.coverSize = (width: 60, height: 90)
        return book
    }
}
