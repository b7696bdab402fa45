/// The word lists the catalogue is written from: people, places, publishers.
///
/// Chosen so that the catalogue exercises what the client must get right: Swedish letters at the
/// start of last names (Åberg sorts with A in English and after Z in Swedish), accents (Élise,
/// Lindén), Danish and Norwegian Ø (sorts as Ö in Swedish) and German Ü (sorts as Y in Swedish).
/// Titles and blurbs are in `Vocabulary+Titles.swift` and `Vocabulary+Blurbs.swift`.
enum Vocabulary {
    // MARK: People

    /// Where a writer comes from, which decides their name and their book's original language.
    enum Origin: Sendable, CaseIterable {
        case swedish, english, danish, norwegian, finnish, german, french, spanish

        /// The ISO 639-1 code of books written in this origin's language.
        var languageCode: String {
            switch self {
            case .swedish: "sv"
            case .english: "en"
            case .danish: "da"
            case .norwegian: "nb"
            case .finnish: "fi"
            case .german: "de"
            case .french: "fr"
            case .spanish: "es"
            }
        }

        var firstNames: [String] {
            switch self {
            case .swedish: Vocabulary.swedishFirstNames
            case .english: Vocabulary.englishFirstNames
            case .danish: ["Mette", "Søren", "Ida", "Rasmus", "Kirsten", "Mads", "Birgitte", "Jens", "Signe", "Anders"]
            case .norwegian:
                ["Ingvild", "Øystein", "Kari", "Håvard", "Solveig", "Torstein", "Ragnhild", "Eirik", "Åse", "Sindre"]
            case .finnish: ["Aino", "Juha", "Päivi", "Mikko", "Riikka", "Jari", "Tuula", "Eero", "Sanna", "Ilkka"]
            case .german:
                ["Jürgen", "Katrin", "Lukas", "Anja", "Matthias", "Ulrike", "Felix", "Sabine", "Jörg", "Hannah"]
            case .french:
                ["Élodie", "Étienne", "Amélie", "Julien", "Camille", "Hélène", "Thibault", "Margaux", "Benoît", "Léa"]
            case .spanish: ["Lucía", "Javier", "Elena", "Andrés", "Carmen", "Tomás", "Inés", "Pablo", "Marta", "Íñigo"]
            }
        }

        /// Given names of heroines (the Swedish blurbs say "hon").
        var heroines: [String] {
            switch self {
            case .swedish: Vocabulary.swedishHeroines
            case .english: Vocabulary.englishHeroines
            case .danish: ["Mette", "Ida", "Kirsten", "Birgitte", "Signe"]
            case .norwegian: ["Ingvild", "Kari", "Solveig", "Ragnhild", "Åse"]
            case .finnish: ["Aino", "Päivi", "Riikka", "Tuula", "Sanna"]
            case .german: ["Katrin", "Anja", "Ulrike", "Sabine", "Hannah"]
            case .french: ["Élodie", "Amélie", "Camille", "Hélène", "Margaux", "Léa"]
            case .spanish: ["Lucía", "Elena", "Carmen", "Inés", "Marta"]
            }
        }

        /// Where this origin's stories are set.
        var places: [Place] {
            switch self {
            case .swedish: Vocabulary.swedishPlaces
            case .english: Vocabulary.englishPlaces
            case .danish: [Place("Aarhus"), Place("Skagen"), Place("Bornholm", "på", "on"), Place("Köpenhamn")]
            case .norwegian: [Place("Bergen"), Place("Tromsø"), Place("Lofoten", "på", "in"), Place("Ålesund")]
            case .finnish: [Place("Helsingfors"), Place("Tammerfors"), Place("Åbo"), Place("Karelen")]
            case .german: [Place("Hamburg"), Place("Lübeck"), Place("Rügen", "på", "on")]
            case .french: [Place("Bretagne"), Place("Marseille"), Place("Lyon")]
            case .spanish: [Place("Sevilla"), Place("Cádiz"), Place("Bilbao")]
            }
        }

        /// Publishers that publish in this origin's language.
        var publishers: [String] {
            switch self {
            case .swedish: Vocabulary.swedishPublishers
            case .english: Vocabulary.englishPublishers
            case .danish: ["Forlaget Nordlys", "Havnens Forlag"]
            case .norwegian: ["Fjordbok forlag", "Nordvegen forlag"]
            case .finnish: ["Kustannus Kuutamo", "Kustannus Revontuli"]
            case .german: ["Verlag Am Hafen", "Möwe Verlag"]
            case .french: ["Éditions du Phare", "Éditions Lumière"]
            case .spanish: ["Editorial Marea", "Ediciones Faro"]
            }
        }

        var lastNames: [String] {
            switch self {
            case .swedish: Vocabulary.swedishLastNames
            case .english: Vocabulary.englishLastNames
            case .danish:
                ["Jørgensen", "Østergaard", "Mørk", "Kjær", "Lund", "Bech", "Holm", "Søndergaard", "Nygaard", "Dahl"]
            case .norwegian:
                ["Østby", "Haugen", "Brekke", "Løvlie", "Solberg", "Aasen", "Rønning", "Hagen", "Bakke", "Ødegård"]
            case .finnish:
                [
                    "Mäkinen", "Järvinen", "Virtanen", "Korhonen", "Nieminen", "Hämäläinen", "Laine", "Heikkinen",
                    "Kallio", "Ylönen",
                ]
            case .german:
                ["Müller", "Schäfer", "Böhm", "Krüger", "Wagner", "Vogel", "Zimmermann", "Hoffmann", "Über", "Lang"]
            case .french:
                [
                    "Lefèvre", "Dubois", "Moreau", "Girard", "Rousseau", "Fontaine", "Mercier", "Bélanger", "Chevalier",
                    "Roux",
                ]
            case .spanish:
                [
                    "García", "Martínez", "Ortega", "Núñez", "Romero", "Castillo", "Vidal", "Herrera", "Iglesias",
                    "Álvarez",
                ]
            }
        }
    }

    /// Swedish given names, common first; includes Å, Ö and É at the start.
    static let swedishFirstNames = [
        "Anna", "Karin", "Lars", "Erik", "Maria", "Anders", "Eva", "Johan", "Elsa", "Per",
        "Astrid", "Nils", "Ingrid", "Gustav", "Maja", "Olof", "Sofia", "Björn", "Linnéa", "Sven",
        "Åsa", "Åke", "Agnes", "Henrik", "Märta", "Mikael", "Ebba", "Göran", "Greta", "Håkan",
        "Saga", "Måns", "Ylva", "Ragnar", "Birgitta", "Torbjörn", "Annika", "Sören", "Kerstin", "Jöns",
        "Signe", "Örjan", "Hedvig", "Stellan", "Tove", "Albin", "Élise", "Ellinor", "Östen", "Vera",
        "Ture", "Klara", "Folke", "Wilma", "Ivar", "Alva", "Gunnel", "Bengt", "Ida", "Ulf",
    ]

    /// Swedish family names: common ones first, then the ones that sort differently in Swedish.
    static let swedishLastNames = [
        "Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Larsson", "Olsson", "Persson",
        "Svensson", "Gustafsson", "Lindqvist", "Lindgren", "Bergström", "Holm", "Ekström", "Sandberg",
        "Wallin", "Lundgren", "Nyström", "Zetterberg", "Zackrisson", "Wikström", "Vesterlund", "Hellström",
        "Sjöberg", "Lindén", "Rosén", "Hedén", "Blom", "Forsberg", "Dahlgren", "Engström",
        "Åberg", "Åkesson", "Åström", "Ågren", "Åhlén", "Ängström", "Älvström", "Ärnlund",
        "Öberg", "Ödman", "Östlund", "Öhman", "Östberg", "Örnberg", "Abrahamsson", "Axelsson",
        "Backman", "Carlsson", "Falk", "Grönlund", "Isaksson", "Jakobsson", "Kvist", "Mårtensson",
        "Norén", "Palm", "Quist", "Ringqvist", "Strand", "Torstensson", "Unger", "Yngvesson",
    ]

    /// Heroines of Swedish stories (the blurbs say "hon").
    static let swedishHeroines = [
        "Alma", "Elsa", "Maja", "Ebba", "Saga", "Hedvig", "Signe", "Märta", "Vera", "Klara",
        "Åsa", "Ylva", "Tove", "Linnéa", "Agnes", "Ellen", "Stina", "Frida", "Ingrid", "Élise",
    ]

    /// Heroines of English-language stories.
    static let englishHeroines = [
        "Emily", "Grace", "Alice", "Imogen", "Claire", "Hannah", "Rose", "Nora", "Beth", "Lydia",
    ]

    /// Swedish last names that start with Å (the scenario `author:Å*` relies on them).
    static let swedishAringLastNames = ["Åberg", "Åkesson", "Åström", "Ågren", "Åhlén"]

    static let englishFirstNames = [
        "James", "Emily", "Sarah", "Thomas", "Margaret", "Oliver", "Claire", "Daniel", "Hannah", "Patrick",
        "Rebecca", "Samuel", "Grace", "Michael", "Eleanor", "Fiona", "Robert", "Alice", "Nathan", "Imogen",
    ]

    static let englishLastNames = [
        "Walker", "Hughes", "O'Connor", "Bennett", "Whitaker", "Ashford", "Caldwell", "Finch", "Harper",
        "Morrison", "Prescott", "Thornton", "Wells", "Doyle", "Abbott", "Ellison", "Young", "Zimmerman",
        "MacLeod", "Quinn", "Everett", "Osborne", "Underwood", "Vance",
    ]

    // MARK: Places

    /// Swedish settings; `på` for islands and a few districts, as Swedes say it.
    static let swedishPlaces: [Place] = [
        Place("Visby"), Place("Öland", "på", "on"), Place("Gotland", "på", "on"), Place("Ystad"),
        Place("Kiruna"), Place("Sandhamn", "på"), Place("Fjällbacka"), Place("Österlen", "på"),
        Place("Åre"), Place("Göteborg"), Place("Malmö"), Place("Lund"), Place("Uppsala"),
        Place("Sundsvall"), Place("Härnösand"), Place("Luleå"), Place("Skanör"), Place("Ven", "på", "on"),
        Place("Stockholm"), Place("Söder", "på"), Place("Norrland"), Place("Tornedalen"),
        Place("Bohuslän"), Place("Kivik"), Place("Smögen", "på", "on"), Place("Marstrand", "på", "on"),
        Place("Gamla stan"), Place("Haparanda"), Place("Jokkmokk"), Place("Dalarna"),
        Place("Ängelholm"), Place("Örebro"), Place("Västerås"), Place("Östersund"), Place("Vadstena"),
        Place("Höga kusten", "vid", "on"), Place("Arjeplog"), Place("Trosa"), Place("Simrishamn"),
    ]

    /// Settings of English-language novels.
    static let englishPlaces: [Place] = [
        Place("Cornwall"), Place("Edinburgh"), Place("Maine"), Place("Dublin"), Place("York"),
        Place("Norfolk"), Place("Brighton"), Place("Boston"), Place("Oxford"),
        Place("Skye", "på", "on"), Place("Galway"), Place("Harrogate"), Place("Whitby"),
        Place("Nantucket", "på", "on"), Place("Savannah"), Place("Bath"),
    ]

    // MARK: Publishers

    /// Made-up Swedish publishers; some start with Å, Ä, Ö so a publisher sort shows the alphabet.
    static let swedishPublishers = [
        "Norrsken förlag", "Bokförlaget Ljungberg & Ödman", "Förlaget Östra Hamnen", "Albatross böcker",
        "Vintergatan förlag", "Lindblad & Söner", "Bokförlaget Sjöstjärnan", "Ekholms förlag",
        "Brombär förlag", "Åkerblom förlag", "Ängsblomman bokförlag", "Ödmarks förlag",
        "Kråkslottet", "Stenbro förlag", "Fyrljus förlag", "Tranan & Co", "Zenit pocket",
        "Bokförlaget Grävlingen", "Mörkrum förlag", "Ugglan & Kråkan",
    ]

    /// Made-up English-language publishers.
    static let englishPublishers = [
        "Harbour Light Press", "Greywater Books", "Kestrel & Finch", "Old Quay Publishing",
        "Blackthorn House", "Lantern Street Books",
    ]

    // MARK: Series

    /// Every series name pattern, parsed once.
    static let seriesTemplates: [String: Template] = {
        var templates: [String: Template] = [:]
        for genre in Genre.allCases {
            for english in [false, true] {
                for length in 2...6 {
                    for pattern in seriesNames(genre, english: english, length: length) {
                        templates[pattern] = Template(pattern)
                    }
                }
            }
        }
        templates["Serien om {heroFull}"] = Template("Serien om {heroFull}")
        return templates
    }()

    /// Series name patterns for a category and language; `{place}` and `{hero}` come from the first book.
    static func seriesNames(_ genre: Genre, english: Bool, length: Int) -> [String] {
        var names: [String]
        switch (genre, english) {
        case (.deckare, false), (.thriller, false):
            names = ["{place}serien", "Fallen {inPlace}", "Serien om {heroFull}"]
        case (.fantasy, false): names = ["Sagan om {hero}", "Krönikan om {place}"]
        case (.barn, false): names = ["Serien om {hero}", "Böckerna om {hero}"]
        case (_, false): names = ["{place}serien", "Serien om {heroFull}"]
        case (.deckare, true), (.thriller, true): names = ["The {place} Mysteries", "The {heroFull} Novels"]
        case (.fantasy, true): names = ["Chronicles of {place}", "The {hero} Saga"]
        case (_, true): names = ["The {heroFull} Novels", "The {place} Books"]
        }
        if length == 4 { names.append(english ? "The {place} Quartet" : "{place}kvartetten") }
        if length == 3 { names.append(english ? "The {place} Trilogy" : "{place}trilogin") }
        return names
    }
}
