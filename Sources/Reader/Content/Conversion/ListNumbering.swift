import Markup

/// The numbers and bullets of the lists open around the text: `ol` and `ul` nested, `start`,
/// `reversed`, an item's `value`, and the `type` of its numbers.
struct ListNumbering {
    /// One open list.
    struct List {
        let ordered: Bool
        let type: String
        var counter: Int
        /// 1, or -1 for `<ol reversed>`.
        var step = 1
        /// For `<ol reversed>` without `start`, which counts down from its number of items: the
        /// items are numbered from 0 down while the list is read, and shifted up when it ends.
        var countsItems = false
        var items = 0
        /// The blocks that carry this list's numbers and the numbers they were given.
        var numbered: [(block: Int, value: Int)] = []

        /// The marker of item number `n` of this list, nested `depth` lists deep.
        func marker(_ n: Int, depth: Int) -> String {
            guard ordered else { return ["•", "◦", "▪"][(depth - 1) % 3] }
            switch type {
            case "a": return ListNumbering.letters(n, base: "a") + "."
            case "A": return ListNumbering.letters(n, base: "A") + "."
            case "i": return ListNumbering.roman(n).lowercased() + "."
            case "I": return ListNumbering.roman(n) + "."
            default: return "\(n)."
            }
        }
    }

    /// The lists open now, innermost last. An embedded document gives back its frame's.
    var open: [List] = []
    /// The marker of the item whose first block is being filled.
    private var pendingMarker: String?
    /// Which list the pending marker numbers, and the number it gave.
    private var pendingOwner: (list: Int, value: Int)?

    /// How deeply nested in lists the text is.
    var depth: Int { open.count }

    /// An `ol` (ordered) or `ul` starts, with its `start`, `reversed` and `type`.
    mutating func openList(ordered: Bool, _ attributes: [MarkupAttribute]) {
        let start = attributes.value(of: "start").flatMap { Int($0.trimmed) }
        var list = List(ordered: ordered, type: attributes.value(of: "type") ?? "1", counter: start ?? 1)
        if ordered, attributes.contains(where: { $0.name == "reversed" }) {
            list.step = -1
            if start == nil {
                list.counter = 0
                list.countsItems = true
            }
        }
        open.append(list)
    }

    /// An `li` starts: it takes the next number of its list, or its own `value`. A navigation
    /// document's lists are not numbered (EPUB: list-style none in nav), so `shown` is false there.
    mutating func openItem(value: Int?, shown: Bool) {
        if open.isEmpty { open.append(List(ordered: false, type: "", counter: 1)) }
        let last = open.count - 1
        if let value { open[last].counter = value }
        pendingMarker = shown ? open[last].marker(open[last].counter, depth: open.count) : nil
        pendingOwner = (list: last, value: open[last].counter)
        open[last].counter += open[last].step
        open[last].items += 1
    }

    /// The innermost list ends; returned, so that a list counted down from its number of items
    /// can number its blocks now that the number is known.
    mutating func closeList() -> List? {
        defer {
            pendingMarker = nil
            pendingOwner = nil
        }
        return open.popLast()
    }

    /// The marker of a block about to be committed as block number `block`, which starts with
    /// `runs`; the marker is given once, to the item's first block.
    mutating func takeMarker(forBlock block: Int, startingWith runs: [TextRun]) -> String? {
        let countingList = pendingOwner.flatMap { open.indices.contains($0.list) ? $0 : nil }
        let counting = countingList.map { open[$0.list].countsItems } ?? false
        // "1. Fish" in a list numbered 1. is not numbered twice.
        if !counting, let marker = pendingMarker, marker.hasSuffix("."),
            Self.repeatsNumber(String(marker.dropLast()), in: runs)
        {
            pendingMarker = nil
        }
        if counting, pendingMarker != nil, let owner = countingList {
            open[owner.list].numbered.append((block, owner.value))
        }
        pendingOwner = nil
        let marker = pendingMarker
        pendingMarker = nil
        return marker
    }

    /// Whether an item's text already starts with its list number (`1. Fish`, `1 Fish`, `1) Fish`).
    private static func repeatsNumber(_ number: String, in runs: [TextRun]) -> Bool {
        guard let first = runs.first?.text, first.hasPrefix(number) else { return false }
        let after = first.dropFirst(number.count).first
        return after == "." || after == " " || after == ")" || after == ":" || after == "\u{A0}"
    }

    private static func letters(_ n: Int, base: Character) -> String {
        guard n > 0, let start = base.asciiValue else { return "\(n)" }
        var value = n
        var out = ""
        while value > 0 {
            value -= 1
            out = String(UnicodeScalar(start + UInt8(value % 26))) + out
            value /= 26
        }
        return out
    }

    private static func roman(_ n: Int) -> String {
        guard n > 0, n < 4000 else { return "\(n)" }
        let table: [(Int, String)] = [
            (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
        ]
        var value = n
        var out = ""
        for (number, letters) in table {
            while value >= number {
                out += letters
                value -= number
            }
        }
        return out
    }
}
