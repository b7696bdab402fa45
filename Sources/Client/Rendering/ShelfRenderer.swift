import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// One numbered book of the last shelf shown, with the section it is in.
struct ShelfItem: Sendable {
    let kind: Shelf.SectionKind
    let entry: Shelf.Entry
    /// Another library's loan or reservation, shown under its name (nil: the library in use).
    var library: OtherLibrary? = nil
}

/// A library other than the one in use, whose loans and reservations the shelf shows as last synced.
struct OtherLibrary: Sendable, Equatable {
    /// Its name, as its library page gave it.
    let name: String
    /// The config file's name for it, when it has one (`library use NAME` switches to it).
    let profile: String?
}

/// Renders the shelf: a heading per section, then a line (list view) or card (grid view) per
/// book with its badge at the right, the percent read and `↓` when the file is on disk.
struct ShelfRenderer {
    var theme: Theme
    /// List or grid.
    let view: ViewMode
    /// The library's calendar: its time zone and today.
    let timeZone: TimeZone
    let today: DayDate
    /// `shelf --covers`: each book's cover by product (nil: a card of its own); nil draws none.
    var covers: [String: RasterImage?]? = nil

    /// The width lines are fitted to: the terminal's, or 80 when piped.
    var width: Int { theme.width > 0 ? theme.width : 80 }

    /// The numbered items in display order: the library in use, then each other library's.
    static func items(_ shelf: Shelf, others: [(library: OtherLibrary, shelf: Shelf)] = []) -> [ShelfItem] {
        shelf.sections.flatMap { section in section.entries.map { ShelfItem(kind: section.kind, entry: $0) } }
            + others.flatMap { other in
                other.shelf.sections.flatMap { section in
                    section.entries.map { ShelfItem(kind: section.kind, entry: $0, library: other.library) }
                }
            }
    }

    /// The shelf of the library in use, then each other library's loans and reservations under
    /// its name, numbered on.
    func lines(_ shelf: Shelf, status: [String], others: [(library: OtherLibrary, shelf: Shelf)] = []) -> [String] {
        var lines = status
        // Counted in place: copying ten thousand entries into items again cost more than drawing them.
        let entries = (shelf.sections + others.flatMap(\.shelf.sections)).lazy.flatMap(\.entries)
        let count = entries.count
        guard count > 0 else {
            lines.append(
                tr("Your shelf is empty. Find a book with search, then borrow N, reserve N, sample N or tbr add N."))
            return lines
        }
        let numberWidth = max(2, String(count).count)
        // Badges line up in a column; the percent and ↓ columns sit just left of it.
        let badgeWidth = entries.compactMap { $0.badge.map { DisplayWidth.of($0.text) } }.max() ?? 0
        var number = 0
        func add(_ sections: [Shelf.Section]) {
            for section in sections {
                lines.append("")
                lines.append(theme.heading(section.kind.title) + theme.dim(" (\(section.entries.count))"))
                let numbered = section.entries.map { entry -> (Int, Shelf.Entry) in
                    number += 1
                    return (number, entry)
                }
                if view == .grid {
                    lines += grid(numbered)
                } else if covers != nil {
                    lines += numbered.flatMap { covered($0.0, $0.1, numberWidth: numberWidth, badgeWidth: badgeWidth) }
                } else {
                    lines += numbered.map { row($0.0, $0.1, numberWidth: numberWidth, badgeWidth: badgeWidth) }
                }
            }
        }
        add(shelf.sections)
        for other in others where !other.shelf.isEmpty {
            lines += [
                "",
                theme.bold(other.library.name)
                    + theme.dim(" \(theme.marks.middleDot) " + tr("another library, as last synced")),
            ]
            add(other.shelf.sections)
        }
        return lines
    }

    /// `   1  Fritt fall · Anna Ek                       ↓  42%  12 days`; for a screen reader
    /// ``spokenRow(_:_:numberWidth:)``.
    func row(_ number: Int, _ entry: Shelf.Entry, numberWidth: Int, badgeWidth: Int) -> String {
        if theme.screenReader { return spokenRow(number, entry, numberWidth: numberWidth) }
        let label = String(repeating: " ", count: max(0, numberWidth - String(number).count)) + String(number)
        let (right, rightWidth) = rightSide(entry, badgeWidth: badgeWidth)
        let room = max(10, width - numberWidth - 2 - rightWidth - 2)
        let m = theme.marks
        let (title, titleWidth) = Self.fitted(entry.title, to: room, ellipsis: m.ellipsis)
        var left = theme.bold(title)
        var leftWidth = titleWidth
        if !entry.authors.isEmpty, room - titleWidth > 6 {
            let (authors, authorsWidth) = Self.fitted(
                " \(m.middleDot) " + entry.authors, to: room - titleWidth, ellipsis: m.ellipsis)
            left += theme.dim(authors)
            leftWidth += authorsWidth
        }
        let used = numberWidth + 2 + leftWidth
        let gap = max(2, width - used - rightWidth)
        return (label + "  " + left + String(repeating: " ", count: gap) + right).trimmingTrailingSpaces()
    }

    /// `text` cut to `width` cells as ``DisplayWidth/truncate(_:to:ellipsis:)`` cuts it, with the
    /// cells it takes: measured once, not again as a part of the line (a shelf has thousands).
    /// Outside text reaches the shelf without escape codes, so its parts' widths add up.
    private static func fitted(_ text: String, to width: Int, ellipsis: String) -> (text: String, width: Int) {
        guard width > 0 else { return ("", 0) }
        let full = DisplayWidth.of(text)
        guard full > width else { return (text, full) }
        let cut = DisplayWidth.truncate(text, to: width, ellipsis: ellipsis)
        return (cut, DisplayWidth.of(cut))
    }

    /// `shelf --covers`: the book's small cover (``CoverArt/shelfColumns`` × ``CoverArt/shelfRows``
    /// cells) at the left and its line beside the cover's first row.
    func covered(_ number: Int, _ entry: Shelf.Entry, numberWidth: Int, badgeWidth: Int) -> [String] {
        var narrower = self
        narrower.theme.width = width - CoverArt.shelfColumns - 2
        let line = narrower.row(number, entry, numberWidth: numberWidth, badgeWidth: badgeWidth)
        let cover = CoverArt.boxed(
            covers?[entry.productID] ?? nil, title: entry.title, columns: CoverArt.shelfColumns,
            rows: CoverArt.shelfRows, theme: theme)
        return cover.enumerated().map { index, left in index == 0 ? left + "  " + line : left }
    }

    /// The covers of `shelf --covers` in the order the lines draw them, each in the cells its
    /// half-blocks fill: for ``CoverArt/pictures(_:pixels:theme:)``.
    func coverBoxes(_ items: [ShelfItem]) -> [(picture: RasterImage, columns: Int, rows: Int)] {
        guard let covers else { return [] }
        let box =
            view == .grid
            ? (min(CardGrid.cardWidth(width: width, widest: 36), CoverArt.cardColumns), CoverArt.cardRows)
            : (CoverArt.shelfColumns, CoverArt.shelfRows)
        return items.compactMap { item in
            guard let picture = covers[item.entry.productID] ?? nil else { return nil }
            let cells = CoverArt.fitted(picture, columns: box.0, rows: box.1)
            return (picture, cells.columns, cells.rows)
        }
    }

    /// For a screen reader, a book a line in words, nothing cut and no columns of spaces or
    /// arrows: ` 1  Fritt fall - Anna Ek - 12 days - 42% read - on disk`.
    func spokenRow(_ number: Int, _ entry: Shelf.Entry, numberWidth: Int) -> String {
        let label = String(repeating: " ", count: max(0, numberWidth - String(number).count)) + String(number)
        var parts = [theme.bold(entry.title)]
        if !entry.authors.isEmpty { parts.append(entry.authors) }
        if let badge = entry.badge { parts.append(ShelfStyle.paint(badge, theme: theme, padded: false)) }
        if let percent = entry.percentRead {
            parts.append(tr("{percent} read", ["percent": Self.percentText(percent)]))
        }
        if entry.isDownloaded { parts.append(tr("on disk")) }
        return label + "  " + parts.joined(separator: " \(theme.marks.middleDot) ")
    }

    /// `↓  42%  12 days`: on disk, percent read, badge, each in its column; with the cells it
    /// takes, added up from its parts (each plain text of bok's own) instead of measured again.
    func rightSide(_ entry: Shelf.Entry, badgeWidth: Int) -> (text: String, width: Int) {
        let downMark = entry.isDownloaded ? theme.marks.downArrow : " "
        let down = entry.isDownloaded ? theme.dim(downMark) : downMark
        let percent = entry.percentRead.map(Self.percentText) ?? ""
        let percentCell = theme.dim(String(repeating: " ", count: max(0, 4 - percent.count)) + percent)
        let badge = entry.badge.map { ShelfStyle.paint($0, theme: theme, padded: false) } ?? ""
        let badgeTextWidth = DisplayWidth.of(entry.badge?.text ?? "")
        let badgeCell = badge + String(repeating: " ", count: max(0, badgeWidth - badgeTextWidth))
        let width = DisplayWidth.of(downMark) + 1 + max(4, percent.count) + 2 + max(badgeWidth, badgeTextWidth)
        return ("\(down) \(percentCell)  \(badgeCell)", width)
    }

    /// `42%`, rounded down, and `<1%` for a book just begun (a long book's first pages are 0.3 %).
    static func percentText(_ percent: Double) -> String {
        percent > 0 && percent < 1 ? "<1%" : "\(Int(percent.rounded(.down)))%"
    }

    /// Cards across the width: number and badge, title, author, progress.
    func grid(_ numbered: [(Int, Shelf.Entry)]) -> [String] {
        let m = theme.marks
        return CardGrid.lines(numbered, width: width, widest: 36) { item, cardWidth in
            let (number, entry) = item
            func cell(_ text: String, _ style: (String) -> String = { $0 }) -> String {
                style(DisplayWidth.fit(text, to: cardWidth, ellipsis: m.ellipsis))
            }
            let badge = entry.badge.map { " " + ShelfStyle.paint($0, theme: theme, padded: false) } ?? ""
            var progress: [String] = []
            if entry.isDownloaded { progress.append("\(m.downArrow) " + tr("on disk")) }
            if let percent = entry.percentRead {
                progress.append(tr("{percent} read", ["percent": Self.percentText(percent)]))
            }
            let text = [
                CardGrid.pad("\(number)" + badge, to: cardWidth), cell(entry.title, theme.bold), cell(entry.authors),
                cell(progress.joined(separator: " \(m.middleDot) "), theme.dim),
            ]
            guard let covers else { return text }
            // `shelf --covers`: the cover above the words, as in `view grid` of results.
            return CoverArt.onCard(covers[entry.productID] ?? nil, title: entry.title, width: cardWidth, theme: theme)
                + text
        }
    }

    /// `Synced today 10:02` / `Offline: … synced Friday 20 November 18:40`.
    func syncedWords(_ date: Date?) -> String {
        guard let date else { return tr("never synced") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        let day = DayDate(date, in: timeZone)
        if day == today { return tr("synced today {time}", ["time": time]) }
        if day == today.adding(days: -1) { return tr("synced yesterday {time}", ["time": time]) }
        return tr("synced {day} {time}", ["day": Words.dayWithWeekday(day, today: today), "time": time])
    }
}

/// `shelf --json`.
struct ShelfJSON: Encodable, Sendable {
    struct Entry: Encodable, Sendable {
        let number: Int
        let section: String
        let productID: String
        let title: String
        let authors: String
        let badge: String?
        let daysLeft: Int?
        let percentRead: Double?
        let downloaded: Bool
        let upstreamID: String?
        /// Another library's name, for its loans and reservations (absent for the library in use).
        let library: String?
    }

    let items: [ShelfItem]
    let card: String?
    let syncedAt: Date?
    let offline: Bool
    let sort: ShelfSort

    init(items: [ShelfItem], card: String?, syncedAt: Date?, offline: Bool, sort: ShelfSort) {
        (self.items, self.card, self.syncedAt, self.offline, self.sort) = (items, card, syncedAt, offline, sort)
    }

    private enum CodingKeys: String, CodingKey { case card, syncedAt, offline, sort, entries }

    // Built only when asked for: `shelf` without --json never pays for ten thousand entries, nor
    // for the date formatter's ICU.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(card, forKey: .card)
        try container.encodeIfPresent(syncedAt.map { ISO8601DateFormatter().string(from: $0) }, forKey: .syncedAt)
        try container.encode(offline, forKey: .offline)
        try container.encode("\(sort.key.rawValue) \(sort.order == .ascending ? "asc" : "desc")", forKey: .sort)
        let entries = items.enumerated().map { index, item in
            Entry(
                number: index + 1, section: item.kind.rawValue, productID: item.entry.productID,
                title: item.entry.title, authors: item.entry.authors, badge: item.entry.badge?.text,
                daysLeft: item.entry.daysLeft, percentRead: item.entry.percentRead,
                downloaded: item.entry.isDownloaded, upstreamID: item.entry.upstreamID, library: item.library?.name)
        }
        try container.encode(entries, forKey: .entries)
    }
}
