/// The few facts one book's title and blurb share: where it is set, who it is about, when.
///
/// Drawn once per book, so "Mörkret över Visby" gets a blurb that happens in Visby.
struct Story: Sendable {
    /// The language a piece of text is written in.
    enum Language: Sendable { case swedish, english }

    /// The names a template may use in `{…}` for a story fact.
    enum Binding: String, Sendable {
        /// The place's name: `Visby`.
        case place
        /// With its preposition: `i Visby`, `på Öland` / `in Visby`, `on Öland`.
        case inPlace
        /// Swedish genitive: `Visbys`, `Kivik` → `Kiviks`, `Paris` → `Paris`.
        case placeGenitive
        /// The main character's first name.
        case hero
        /// The main character's full name.
        case heroFull
        /// The main character's first name in the genitive (`Almas`, English `Alma's`).
        case heroGenitive
        /// A second character's first name.
        case friend
        /// A year the story (or the history) is set in.
        case year
        /// The first author's last name (for "Åbergs nya roman").
        case author
        /// The first author's last name in the genitive.
        case authorGenitive
    }

    var place: Place
    var hero: String
    var heroLast: String
    var friend: String
    var year: Int
    var author: String

    func value(_ binding: Binding, in language: Language) -> String {
        switch binding {
        case .place: place.name
        case .inPlace: (language == .english ? place.english : place.swedish) + " " + place.name
        case .placeGenitive: Self.genitive(place.name)
        case .hero: hero
        case .heroFull: hero + " " + heroLast
        case .heroGenitive: language == .english ? hero + "'s" : Self.genitive(hero)
        case .friend: friend
        case .year: String(year)
        case .author: author
        case .authorGenitive: Self.genitive(author)
        }
    }

    /// Swedish genitive: an `s`, or nothing after s, x and z (`Lars` → `Lars`).
    static func genitive(_ name: String) -> String {
        guard let last = name.last?.lowercased() else { return name }
        return last == "s" || last == "x" || last == "z" ? name : name + "s"
    }

    /// Upper-cases the first letter only (Swedish titles are not Title Cased).
    static func capitalizingFirst(_ text: String) -> String {
        // Most titles start with an ASCII capital already; only look at Unicode when needed.
        guard let byte = text.utf8.first else { return text }
        if byte < 0x80, !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { return text }
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

/// A place a story can be set in, with the preposition each language uses for it.
struct Place: Sendable {
    /// `Visby`.
    let name: String
    /// `i` or `på` (på Öland, på Söder, i Visby).
    let swedish: String
    /// `in` or `on`.
    let english: String

    init(_ name: String, _ swedish: String = "i", _ english: String = "in") {
        self.name = name
        self.swedish = swedish
        self.english = english
    }
}
