import Terminal

/// Cards of four lines laid side by side across the width, as many to a row as fit, for
/// `view grid` of search results and of the shelf.
enum CardGrid {
    /// Cells between two cards.
    static let gap = 3
    /// The narrowest card.
    static let narrowest = 26

    /// The lines of `items` as cards; `card` draws one item's four lines at the width it is given.
    static func lines<Item>(_ items: [Item], width total: Int, widest: Int, card: (Item, Int) -> [String]) -> [String] {
        let columns = columns(width: total)
        let cardWidth = cardWidth(width: total, widest: widest)
        var lines: [String] = []
        for start in stride(from: 0, to: items.count, by: columns) {
            let cards = items[start..<min(items.count, start + columns)].map { card($0, cardWidth) }
            let blank = String(repeating: " ", count: cardWidth)
            for row in 0..<(cards.map(\.count).max() ?? 0) {
                lines.append(
                    cards.map { row < $0.count ? $0[row] : blank }.joined(separator: String(repeating: " ", count: gap))
                        .trimmingTrailingSpaces())
            }
            lines.append("")
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The width of each card in `width` cells, at most `widest`.
    static func cardWidth(width total: Int, widest: Int) -> Int {
        let columns = columns(width: total)
        return min(widest, (total - gap * (columns - 1)) / columns)
    }

    /// How many cards fit side by side in `width` cells (80 when there is no limit).
    static func columns(width: Int) -> Int {
        max(1, ((width > 0 ? width : 80) + gap) / (narrowest + gap))
    }

    /// A styled cell padded with spaces to `width` visible cells.
    static func pad(_ styled: String, to width: Int) -> String {
        styled + String(repeating: " ", count: max(0, width - DisplayWidth.of(Ansi.strip(styled))))
    }
}
