/// The phrasebook each kind of book is written from.
extension Phrasebook {
    /// The phrasebook of a kind of story in a language, with the sentences all novels share.
    static func of(_ kind: BookKind, _ language: Story.Language) -> Phrasebook {
        let english = language == .english
        switch kind {
        case .crime: return english ? crimeEnglishFull : crimeSwedishFull
        case .fantasy: return english ? fantasyEnglishFull : fantasySwedishFull
        case .family: return english ? familyEnglishFull : familySwedishFull
        case .children: return english ? childrenEnglish : childrenSwedish
        case .biography: return english ? biographyEnglish : biographySwedish
        case .poetry: return english ? poetryEnglishFull : poetrySwedishFull
        case .facts: return english ? FactsTopic.gardenEnglish.book : FactsTopic.gardenSwedish.book
        }
    }

    // Merged once: a dictionary merge per book would cost more than writing a chapter of a picture book.
    static let crimeSwedishFull = fictionSwedish.merging(crimeSwedish)
    static let crimeEnglishFull = fictionEnglish.merging(crimeEnglish)
    static let familySwedishFull = fictionSwedish.merging(familySwedish)
    static let familyEnglishFull = fictionEnglish.merging(familyEnglish)
    // A fantasy journey has no town: only the shared thoughts and weather, not the town's streets.
    static let fantasySwedishFull = Phrasebook(pools: [:], lists: fictionSwedish.lists)
        .withPools(["thought": fictionSwedish.pools["thought"] ?? []])
        .merging(fantasySwedish)
    static let fantasyEnglishFull = Phrasebook(pools: [:], lists: fictionEnglish.lists)
        .withPools(["thought": fictionEnglish.pools["thought"] ?? []])
        .merging(fantasyEnglish)
    static let poetrySwedishFull = Phrasebook(pools: [:], lists: fictionSwedish.lists).merging(poetrySwedish)
    static let poetryEnglishFull = Phrasebook(pools: [:], lists: fictionEnglish.lists).merging(poetryEnglish)

    /// This phrasebook with `pools` added.
    func withPools(_ pools: [String: [Phrase]]) -> Phrasebook {
        var copy = self
        copy.pools.merge(pools) { $0 + $1 }
        return copy
    }
}
