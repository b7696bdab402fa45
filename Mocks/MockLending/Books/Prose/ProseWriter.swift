/// Writes the text of one book: fills phrase patterns with the book's cast and word lists,
/// builds paragraphs, dialogue, footnotes and links, and keeps count of how much it wrote.
///
/// All randomness comes from the book's own stream, so the same product and seed always give
/// the same words.
struct ProseWriter {
    var rng: SplitMix64
    let language: Story.Language
    let book: Phrasebook
    let cast: Cast
    /// Swedish dialogue set with dashes (`– Kom, sa hon.`) rather than quotation marks (`”Kom”, sa hon.`).
    let dashDialogue: Bool

    /// The chapter being written (from 1).
    var chapterNumber = 0
    /// Footnotes of the chapter being written.
    var notes: [(number: Int, text: String)] = []
    /// The last footnote number used in the book.
    var noteCount = 0
    /// UTF-8 bytes written into the chapter being written.
    var written = 0
    private var decks: [String: [Int]] = [:]

    init(rng: SplitMix64, language: Story.Language, book: Phrasebook, cast: Cast, dashDialogue: Bool) {
        self.rng = rng
        self.language = language
        self.book = book
        self.cast = cast
        self.dashDialogue = dashDialogue
    }

    var english: Bool { language == .english }

    // MARK: Filling patterns

    /// A word from a list, a phrase from a pool (filled in turn), a link back to an earlier
    /// chapter (`{backLink}`) or a cast member; stops at a misspelt slot, a bug in the phrases.
    mutating func value(_ slot: String) -> String {
        if let list = book.lists[slot] { return rng.pick(list) }
        if book.pools[slot] != nil {
            var out = ""
            fill(draw(slot), into: &out)
            return out
        }
        if slot == "backLink" {
            let earlier = rng.int(in: 1...max(1, chapterNumber - 1))
            return link(
                toChapter: earlier, text: english ? "chapter \(numberWord(earlier))" : "kapitel \(numberWord(earlier))")
        }
        let value = cast[slot]
        precondition(!value.isEmpty, "no list or character named {\(slot)}")
        return value
    }

    /// `phrase` filled in, appended to `out`.
    mutating func fill(_ phrase: Phrase, into out: inout String) {
        for piece in phrase.pieces {
            switch piece {
            case .text(let text): out += text
            case .slot(let name): out += value(name)
            }
        }
    }

    /// The next pattern of pool `name`, drawn like a card: no pattern comes back before the rest have.
    mutating func draw(_ name: String) -> Phrase {
        guard let pool = book.pools[name], !pool.isEmpty else { preconditionFailure("no phrases for \(name)") }
        if decks[name]?.isEmpty ?? true {
            var deck = Array(pool.indices)
            rng.shuffleInPlace(&deck)
            decks[name] = deck
        }
        // Mutated in place: taking the deck out and putting it back would copy it on every draw.
        let index = decks[name, default: []].removeLast()
        return pool[index]
    }

    /// A sentence from pool `name`, its first letter capitalised.
    mutating func sentence(_ name: String) -> String {
        var out = ""
        fill(draw(name), into: &out)
        return Self.capitalised(out)
    }

    /// A paragraph of `count` sentences drawn from the pools, separated by spaces.
    mutating func paragraph(_ pools: [String], count: Int) -> String {
        var out = ""
        for index in 0..<count {
            if index > 0 { out += " " }
            out += sentence(pools[index % pools.count])
        }
        return out
    }

    /// Upper-cases the first letter after any leading markup (`<em>`) or punctuation.
    static func capitalised(_ text: String) -> String {
        // Most sentences start with a capital or a plain lower-case ASCII letter; only look at
        // characters (slow in debug builds) when the first byte is something else.
        guard let byte = text.utf8.first else { return text }
        if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { return text }
        if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") {
            return String(decoding: [byte - 32], as: UTF8.self) + text.dropFirst()
        }
        var inTag = false
        for index in text.indices {
            let ch = text[index]
            if ch == "<" {
                inTag = true
                continue
            }
            if ch == ">" {
                inTag = false
                continue
            }
            if inTag || !ch.isLetter { continue }
            guard ch.isLowercase else { return text }
            var out = text
            out.replaceSubrange(index...index, with: ch.uppercased())
            return out
        }
        return text
    }

    // MARK: Dialogue

    /// One exchange between the heroine and `partner`: a pattern of lines separated by `|`, set
    /// in the book's quotation style, one paragraph per line. The heroine speaks first unless the
    /// pattern starts with `~`.
    mutating func dialogue(_ pool: String, with partner: String) -> [String] {
        var text = ""
        fill(draw(pool), into: &text)
        let partnerFirst = text.hasPrefix("~")
        if partnerFirst { text.removeFirst() }
        let first = partnerFirst ? partner : cast["hero"]
        let second = partnerFirst ? cast["hero"] : partner
        let lines = text.split(separator: "|").map { Self.capitalised(String($0)) }
        var paragraphs: [String] = []
        for (index, line) in lines.enumerated() {
            let speaker = index % 2 == 0 ? first : second
            // After the first two lines a reader knows who speaks; drop some tags, as novels do.
            let tagged = index < 2 || rng.chance(0.45)
            paragraphs.append(quote(line, speaker: tagged ? speaker : nil, answer: index > 0))
        }
        return paragraphs
    }

    /// A spoken line in the book's style: `– Kom hit, sa Alma.`, `”Kom hit”, sa Alma.`, `“Come here,” said Alma.`
    mutating func quote(_ line: String, speaker: String?, answer: Bool) -> String {
        let trimmed = line.trimmingSpaces
        guard let last = trimmed.last else { return "" }
        let question = last == "?"
        let exclamation = last == "!"
        guard let speaker else {
            switch (english, dashDialogue) {
            case (true, _): return "“\(trimmed)”"
            case (false, true): return "– \(trimmed)"
            case (false, false): return "”\(trimmed)”"
            }
        }
        let verb = rng.pick(
            english
                ? (question
                    ? ["asked"]
                    : exclamation
                        ? ["cried", "called"]
                        : answer ? ["said", "said", "replied", "answered", "murmured"] : ["said", "said", "began"])
                : (question
                    ? ["frågade", "frågade", "undrade"]
                    : exclamation
                        ? ["ropade", "utbrast"]
                        : answer ? ["sa", "sa", "svarade", "sa", "mumlade"] : ["sa", "sa", "började"]))
        // A statement's full stop gives way to a comma before the tag; ? and ! stay.
        let body = question || exclamation || last != "." ? trimmed : String(trimmed.dropLast())
        switch (english, dashDialogue) {
        case (true, _):
            return question || exclamation ? "“\(body)” \(verb) \(speaker)." : "“\(body),” \(verb) \(speaker)."
        case (false, true):
            return question || exclamation ? "– \(body) \(verb) \(speaker)." : "– \(body), \(verb) \(speaker)."
        case (false, false):
            return question || exclamation ? "”\(body)” \(verb) \(speaker)." : "”\(body)”, \(verb) \(speaker)."
        }
    }

    // MARK: Notes and links

    /// A note reference to a new footnote with `text` (XHTML), numbered through the book.
    mutating func noteReference(_ text: String) -> String {
        noteCount += 1
        notes.append((noteCount, text))
        written += text.utf8.count
        return
            """
            <sup><a epub:type=\"noteref\" href=\"#note-\(noteCount)\" \
            id=\"noteref-\(noteCount)\">\(noteCount)</a></sup>
            """
    }

    /// A footnote from pool `name` attached to the end of `paragraph`.
    mutating func annotate(_ paragraph: String, from name: String) -> String {
        var text = ""
        fill(draw(name), into: &text)
        return paragraph + noteReference(Self.capitalised(text))
    }

    /// A link to an earlier chapter (or a place in it), which a sample also contains.
    func link(toChapter number: Int, fragment: String? = nil, text: String) -> String {
        precondition(number <= chapterNumber, "links point back, so that a sample never links to what it lacks")
        return
            "<a href=\"chapter-\(EPUBWriter.threeDigits(number)).xhtml\(fragment.map { "#" + $0 } ?? "")\">\(text)</a>"
    }

    /// A chapter's number in words, for "se kapitel tre".
    func numberWord(_ n: Int) -> String {
        let sv = ["noll", "ett", "två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio", "tio", "elva", "tolv"]
        let en = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        ]
        guard n < sv.count else { return String(n) }
        return english ? en[n] : sv[n]
    }

    // MARK: Chapters

    /// Starts a chapter: resets its notes and its byte count.
    mutating func beginChapter(_ number: Int) {
        chapterNumber = number
        notes = []
        written = 0
    }

    /// Records a block's text towards the chapter's size.
    mutating func count(_ text: String) { written += text.utf8.count }
}

extension SplitMix64 {
    /// Fisher–Yates with this generator (the standard library's `shuffle(using:)` may change its algorithm).
    mutating func shuffleInPlace<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, below(i + 1))
        }
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
