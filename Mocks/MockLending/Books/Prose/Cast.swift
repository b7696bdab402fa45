internal import Foundation

/// The people and places of one book, as slot values for the phrase patterns.
///
/// The heroine and the place come from the catalogue's blurb when it names them (so the book
/// about "kommissarie Alma Lindgren i Visby" is about her, there); everyone else is drawn from
/// the book's own random stream.
struct Cast: Sendable {
    /// Slot name to its value, escaped for XHTML.
    private(set) var values: [String: String] = [:]
    /// Whom the heroine talks to in the book's own exchanges: her colleague, her companions, her family, her animal
    /// friend.
    private(set) var partners: [String] = []

    subscript(_ slot: String) -> String { values[slot] ?? "" }

    static let englishWomen = [
        "Emily", "Sarah", "Margaret", "Claire", "Hannah", "Rebecca", "Grace", "Eleanor", "Fiona", "Alice", "Imogen",
        "Ruth", "Mary",
    ]
    static let englishMen = [
        "James", "Thomas", "Oliver", "Daniel", "Patrick", "Samuel", "Michael", "Robert", "Nathan", "Arthur", "Hugh",
        "Tom",
    ]
    static let swedishWomen = [
        "Anna", "Karin", "Maria", "Eva", "Elsa", "Astrid", "Ingrid", "Maja", "Sofia", "Linnéa", "Åsa", "Agnes", "Märta",
        "Greta", "Ylva", "Birgitta", "Kerstin", "Signe", "Hedvig", "Tove", "Klara", "Vera", "Gunnel", "Ida",
    ]
    static let swedishMen = [
        "Lars", "Erik", "Anders", "Johan", "Per", "Nils", "Gustav", "Olof", "Björn", "Sven", "Åke", "Henrik", "Mikael",
        "Göran", "Håkan", "Måns", "Ragnar", "Torbjörn", "Sören", "Jöns", "Örjan", "Stellan", "Albin", "Folke", "Ivar",
        "Bengt", "Ulf",
    ]

    init(facts: BookFacts, kind: BookKind, _ rng: inout SplitMix64) {
        let text = (facts.description ?? "") + " " + facts.title
        let english = facts.textLanguage == .english
        // Names follow the story's origin: an English novel in Swedish translation keeps English names.
        var hero: String?
        var heroLast: String?
        var englishNames = english
        for (list, isEnglish) in [(Vocabulary.swedishHeroines, false), (Vocabulary.englishHeroines, true)]
            + Self.otherHeroines
        {
            if let found = Self.firstName(in: text, from: list) {
                hero = found.name
                heroLast = found.following.flatMap { Self.lastNames.contains($0) ? $0 : nil }
                englishNames = isEnglish
                break
            }
        }
        var place = Self.place(in: text)
        if place == nil {
            place = rng.pick(
                englishNames && facts.originalTitle != nil || english
                    ? Vocabulary.englishPlaces : Vocabulary.swedishPlaces)
        }
        let women = englishNames ? Self.englishWomen : Self.swedishWomen
        let men = englishNames ? Self.englishMen : Self.swedishMen
        let lastNames = englishNames ? Vocabulary.englishLastNames : Vocabulary.swedishLastNames
        let heroName = hero ?? rng.pick(englishNames ? Vocabulary.englishHeroines : Vocabulary.swedishHeroines)
        var used: Set<String> = [heroName]
        func fresh(_ names: [String]) -> String {
            var name = rng.pick(names)
            var tries = 0
            while used.contains(name), tries < 20 {
                name = rng.pick(names)
                tries += 1
            }
            used.insert(name)
            return name
        }
        func anyone() -> String { rng.chance(0.5) ? fresh(women) : fresh(men) }

        var v: [String: String] = [:]
        let language = facts.textLanguage
        func genitive(_ name: String) -> String { language == .english ? name + "’s" : Story.genitive(name) }
        func set(_ slot: String, _ value: String) { v[slot] = XML.escape(value) }

        let last = heroLast ?? rng.pick(lastNames)
        set("hero", heroName)
        set("heroLast", last)
        set("heroFull", heroName + " " + last)
        set("heroGen", genitive(heroName))
        let placeValue = place ?? Place("Visby")
        set("place", placeValue.name)
        set("inPlace", (english ? placeValue.english : placeValue.swedish) + " " + placeValue.name)
        set("placeGen", genitive(placeValue.name))
        let friend = anyone()
        set("friend", friend)
        set("friendGen", genitive(friend))
        var partners = [friend]

        switch kind {
        case .crime:
            let colleague = fresh(men)
            let chief = fresh(women)
            let missing = fresh(women)
            let witness = fresh(men)
            set("colleague", colleague)
            set("colleagueFull", colleague + " " + rng.pick(lastNames))
            set("chief", chief + " " + rng.pick(lastNames))
            set("missing", missing)
            set("missingFull", missing + " " + rng.pick(lastNames))
            set("missingGen", genitive(missing))
            set("witness", witness)
            partners = [colleague]
        case .fantasy:
            let companion = anyone()
            let mentor = fresh(men)
            set("companion", companion)
            set("companionGen", genitive(companion))
            set("mentor", mentor)
            set("mentorGen", genitive(mentor))
            let realms =
                english
                ? ["the Northmark", "the Ashen Vale", "Eldra", "the Windward Isles", "Valdoria"]
                : ["Nordmarken", "Askdalen", "Eldra", "Vindöarna", "Valdoria"]
            set("realm", rng.pick(realms))
            let powers =
                english
                ? ["the Sleeping Crown", "the Stone Heart", "the First Fire", "the Winter Song"]
                : ["Den sovande kronan", "Stenhjärtat", "Den första elden", "Vintersången"]
            let power = rng.pick(powers)
            set("power", power)
            set(
                "powerLower",
                english ? power.replacingFirst("The", with: "the") : power.replacingFirst("Den", with: "den"))
            let foes =
                english
                ? ["the Grey Regent", "Lord Morcant", "the Hollow Queen"]
                : ["den grå regenten", "herr Morkant", "den ihåliga drottningen"]
            set("foe", rng.pick(foes))
            partners = [companion, companion, mentor]
        case .children:
            let animals: [(sv: String, svIndef: String, en: String, name: String)] = [
                ("igelkotten", "en igelkott", "the hedgehog", "Sigge"), ("räven", "en räv", "the fox", "Rut"),
                ("ugglan", "en uggla", "the owl", "Ugo"), ("haren", "en hare", "the hare", "Harald"),
                ("ekorren", "en ekorre", "the squirrel", "Piff"), ("grodan", "en groda", "the frog", "Grodan Greta"),
                ("musen", "en mus", "the mouse", "Mimmi"), ("björnungen", "en björnunge", "the bear cub", "Bruno"),
            ]
            let animal = rng.pick(animals)
            let name = animal.name.hasPrefix("Grodan") && english ? "Greta" : animal.name
            set("animal", name)
            set("animalGen", genitive(name))
            set("animalKind", english ? animal.en : animal.sv)
            set("animalIndef", english ? "a " + animal.en.dropFirst(4) : animal.svIndef)
            partners = [name]
        case .biography:
            set("mother", fresh(women))
            set("father", fresh(men))
            set("sibling", anyone())
            set("teacher", fresh(women))
            set("spouse", anyone())
            set("mentorName", fresh(men) + " " + rng.pick(lastNames))
        case .family, .facts, .poetry:
            let mother = fresh(women)
            let father = fresh(men)
            let sibling = anyone()
            let suitor = fresh(men)
            let neighbour = fresh(women)
            set("mother", mother)
            set("father", father)
            set("sibling", sibling)
            set("siblingGen", genitive(sibling))
            set("suitor", suitor)
            set("suitorGen", genitive(suitor))
            set("neighbour", neighbour)
            let farms =
                english
                ? ["Ashcombe", "Hollins", "the Mill House", "Larkfield"]
                : ["Lindgården", "Björkudden", "Sjövik", "Ekbacken", "Norrgården"]
            set("house", rng.pick(farms))
            partners = [sibling, sibling, suitor, neighbour, mother]
        }
        values = v
        self.partners = partners
    }

    // MARK: Finding names in the blurb

    static let otherHeroines: [([String], Bool)] = [
        Vocabulary.Origin.danish, .norwegian, .finnish, .german, .french, .spanish,
    ]
    .map { ($0.heroines, false) }

    static let lastNames: Set<String> = Set(Vocabulary.Origin.allCases.flatMap(\.lastNames))

    static let allPlaces: [Place] = Vocabulary.Origin.allCases.flatMap(\.places)

    /// The first name from `names` that stands as a word in `text`, with the word after it.
    static func firstName(in text: String, from names: [String]) -> (name: String, following: String?)? {
        let words = text.split(whereSeparator: { !$0.isLetter && $0 != "’" && $0 != "'" }).map(String.init)
        for (index, word) in words.enumerated() where names.contains(word) {
            return (word, index + 1 < words.count ? words[index + 1] : nil)
        }
        return nil
    }

    /// The first catalogue place named in `text` as a word (or in the genitive: `Visbys`).
    static func place(in text: String) -> Place? {
        let words = text.split(whereSeparator: { !$0.isLetter }).map(String.init)
        let spaced = " " + words.joined(separator: " ") + " "
        var best: (offset: Int, place: Place)?
        for place in allPlaces {
            for form in [" \(place.name) ", " \(place.name)s "] {
                guard let range = spaced.range(of: form) else { continue }
                let offset = spaced.distance(from: spaced.startIndex, to: range.lowerBound)
                if let current = best, current.offset <= offset { continue }
                best = (offset, place)
            }
        }
        return best?.place
    }
}

extension String {
    /// This string with its first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
