/// The kinds of prose the mock library writes, one per family of categories.
enum BookKind: Sendable, CaseIterable {
    /// Deckare, Thriller, Skräck: a detective, a harbour, a missing person.
    case crime
    /// Fantasy: a journey, a map, an old power.
    case fantasy
    /// Barn: short sentences, animals, a friendship; pictures.
    case children
    /// Biografi: a life in dated episodes, told by the one who lived it.
    case biography
    /// Fakta: sections with headings, lists, a table, notes; pictures.
    case facts
    /// Poesi: short poems in stanzas.
    case poetry
    /// Klassiker, Romance, Feelgood, Historiska romaner, Ungdom, Science fiction: a family, a town, seasons.
    case family

    /// The kind of the book's first category (the one the catalogue lists first is its main one).
    init(categories: [String]) {
        switch categories.first {
        case "Deckare", "Thriller", "Skräck": self = .crime
        case "Fantasy": self = .fantasy
        case "Barn": self = .children
        case "Biografi": self = .biography
        case "Fakta": self = .facts
        case "Poesi": self = .poetry
        default: self = .family
        }
    }

    /// Whether its books carry inline illustrations.
    var hasIllustrations: Bool { self == .children || self == .facts }

    /// Characters of text per printed page: picture books and poems have less on a page.
    var charactersPerPage: Int {
        switch self {
        case .children, .poetry: 1_000
        default: 1_800
        }
    }
}
