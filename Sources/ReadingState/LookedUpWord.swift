public import Foundation

/// A word the patron looked up in a book (`:define` in the reader): what a learner keeps, for the
/// vocabulary list of `bok notes --words`.
public struct LookedUpWord: Sendable, Hashable, Codable {
    /// The word as looked up, in lower case.
    public var word: String
    /// The form the dictionary knew: the word, or its base form (`hus` for `huset`).
    public var found: String
    /// The dictionary's first lines for it, short (`house, building`).
    public var meaning: String
    /// The dictionary it came from (`fd-swe-eng`).
    public var dictionary: String
    /// Where in the book it was looked up last.
    public var locator: Locator?
    /// When it was first and last looked up, and how often.
    public var first: Date
    public var last: Date
    public var times: Int

    public init(
        word: String, found: String, meaning: String, dictionary: String, locator: Locator?, at date: Date = Date()
    ) {
        self.word = word
        self.found = found
        self.meaning = meaning
        self.dictionary = dictionary
        self.locator = locator
        first = date
        last = date
        times = 1
    }

    /// The same word looked up again (`again`): counted, with the newer meaning and place.
    public mutating func merge(_ again: LookedUpWord) {
        found = again.found
        meaning = again.meaning
        dictionary = again.dictionary
        locator = again.locator ?? locator
        first = min(first, again.first)
        last = max(last, again.last)
        times += again.times
    }
}
