/// The catalogue's categories, with what differs between them: how common they are, how long
/// their books are, which category often goes with them and which keywords describe them.
enum Genre: Int, Sendable, CaseIterable {
    case deckare, thriller, romance, feelgood, fantasy, barn, ungdom, historiska
    case scienceFiction, biografi, fakta, poesi, klassiker, skrack

    /// The category as the library writes it.
    var category: String {
        switch self {
        case .deckare: "Deckare"
        case .thriller: "Thriller"
        case .romance: "Romance"
        case .feelgood: "Feelgood"
        case .fantasy: "Fantasy"
        case .barn: "Barn"
        case .ungdom: "Ungdom"
        case .historiska: "Historiska romaner"
        case .scienceFiction: "Science fiction"
        case .biografi: "Biografi"
        case .fakta: "Fakta"
        case .poesi: "Poesi"
        case .klassiker: "Klassiker"
        case .skrack: "Skräck"
        }
    }

    /// Relative share of the catalogue (crime and children's books dominate Swedish e-lending).
    var weight: Int {
        switch self {
        case .deckare: 13
        case .thriller: 11
        case .romance: 7
        case .feelgood: 8
        case .fantasy: 7
        case .barn: 10
        case .ungdom: 6
        case .historiska: 7
        case .scienceFiction: 4
        case .biografi: 6
        case .fakta: 9
        case .poesi: 3
        case .klassiker: 4
        case .skrack: 3
        }
    }

    /// A second category this one often shares a book with, and how often.
    var companion: (genre: Genre, chance: Double)? {
        switch self {
        case .deckare: (.thriller, 0.3)
        case .thriller: (.deckare, 0.2)
        case .romance: (.feelgood, 0.3)
        case .feelgood: (.romance, 0.25)
        case .fantasy: (.ungdom, 0.25)
        case .ungdom: (.fantasy, 0.15)
        case .historiska: (.romance, 0.2)
        case .scienceFiction: (.ungdom, 0.1)
        case .barn: (.fantasy, 0.1)
        case .skrack: (.thriller, 0.2)
        case .biografi, .fakta, .poesi, .klassiker: nil
        }
    }

    /// Typical page counts.
    var pages: ClosedRange<Int> {
        switch self {
        case .barn: 24...120
        case .poesi: 48...140
        case .ungdom: 180...420
        case .fakta: 120...480
        case .klassiker: 140...860
        case .fantasy: 280...720
        default: 190...560
        }
    }

    /// True for fiction told in a story (blurbs talk of characters and places).
    var isFiction: Bool { self != .fakta && self != .biografi && self != .poesi }

    /// Subject keywords a cataloguer would add, most typical first.
    var keywords: [String] {
        switch self {
        case .deckare:
            ["polis", "mord", "kriminalroman", "utredning", "småstad", "kommissarie", "cold case", "skärgård"]
        case .thriller:
            ["spänning", "hämnd", "psykologisk thriller", "seriemördare", "journalist", "konspiration", "försvinnande"]
        case .romance: ["kärlek", "relationer", "förälskelse", "andra chansen", "sommar", "bröllop"]
        case .feelgood: ["vänskap", "nystart", "småstad", "café", "livsglädje", "landet", "familj"]
        case .fantasy: ["magi", "drakar", "äventyr", "episk fantasy", "profetia", "andra världar"]
        case .barn: ["bilderbok", "godnattsaga", "djur", "vänskap", "högläsning", "rim och ramsor", "första läsning"]
        case .ungdom: ["uppväxt", "identitet", "skola", "vänskap", "första kärleken", "HBTQ"]
        case .historiska: ["1800-talet", "emigration", "krig", "kvinnoöden", "släktkrönika", "stormaktstiden"]
        case .scienceFiction: ["rymden", "framtid", "artificiell intelligens", "dystopi", "klimat", "tidsresor"]
        case .biografi: ["memoarer", "levnadsöde", "musik", "idrott", "politik", "konst"]
        case .fakta: ["natur", "historia", "hälsa", "mat", "trädgård", "vetenskap", "samhälle"]
        case .poesi: ["lyrik", "dikter", "natur", "sorg", "kärlek"]
        case .klassiker: ["klassiker", "1800-talet", "samhällsskildring", "kärlek", "moral"]
        case .skrack: ["skräck", "spöken", "övernaturligt", "mörker", "folktro"]
        }
    }
}
