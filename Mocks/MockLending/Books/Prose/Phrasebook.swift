/// The sentence patterns and word lists one kind of book is written from, in one language.
///
/// Pools are named by what they are for (`setting`, `action`, `exchange`, `title`, …); the
/// chapter writers of each kind know which names they use. A pool's patterns are drawn like
/// cards from a shuffled deck, so a sentence does not come back until the others have been used.
struct Phrasebook: Sendable {
    var pools: [String: [Phrase]]
    var lists: [String: [String]]

    init(pools: [String: [String]], lists: [String: [String]]) {
        self.pools = pools.mapValues(phrases)
        self.lists = lists
    }

    /// This phrasebook with `other`'s pools and lists added (`other` wins on equal list names,
    /// pools with the same name are joined).
    func merging(_ other: Phrasebook) -> Phrasebook {
        var merged = self
        merged.pools.merge(other.pools) { $0 + $1 }
        merged.lists.merge(other.lists) { _, new in new }
        return merged
    }
}
