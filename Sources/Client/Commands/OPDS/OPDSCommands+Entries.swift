import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// One entry of the feed on screen: info N, read N, and its file downloaded.
extension OPDSCommands {
    static func info(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        if numbersMeanShelfItems(session) { return nil }
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: info N"))
        }
        let entry = try await entry(word, browser: session.library.catalogue!, command: "info")
        let theme = session.theme
        var lines = [theme.bold(entry.title)]
        if !entry.authors.isEmpty {
            lines.append(tr("by {authors}", ["authors": entry.authors.joined(separator: ", ")]))
        }
        lines.append("")
        let formats = entry.formats.joined(separator: ", ")
        let rows: [(String, String?)] = [
            (tr("Series"), entry.series.map { InfoRenderer.seriesWords(OPDSLendingService.series($0)) }),
            (tr("Publisher"), entry.publisher),
            (tr("Issued"), entry.issued.map { DayDate(string: $0).map(Words.day) ?? String($0.prefix(10)) }),
            (tr("Language"), entry.language.map(Words.language)),
            (tr("Subjects"), entry.subjects.isEmpty ? nil : entry.subjects.joined(separator: ", ")),
            (tr("Identifier"), entry.identifiers.first),
            (
                tr("Formats"),
                entry.formats.isEmpty
                    ? (entry.navigation != nil
                        ? tr("a section: browse {number}", ["number": word]) : tr("none offered"))
                    : entry.epub == nil && entry.borrowLink == nil
                        ? tr("{formats} (bok reads EPUB)", ["formats": formats]) : formats
            ),
            (tr("Size"), entry.epub?.length.map(Words.bytes)),
        ]
        // The labels' column: 13 wide in English, wider when a language's labels need it.
        let column = max(13, (rows.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2)
        for (label, value) in rows {
            guard let value, !value.isEmpty else { continue }
            lines.append(DisplayWidth.pad(label, to: column) + value)
        }
        if let lending = entry.lending, let mark = lendingMark(entry, session: session) {
            var line = DisplayWidth.pad(tr("Availability"), to: column) + mark
            if lending.state == .available, let copies = lending.copies, entry.borrowLink != nil {
                line += theme.dim(" (" + trn("{n} copy", "{n} copies", copies) + ")")
            } else if lending.state == .available, let until = lending.until {
                line += theme.dim(
                    " \(theme.marks.middleDot) "
                        + tr("due {day}", ["day": Words.dayWithWeekday(until, today: session.library.today)]))
            }
            lines.append(line)
        }
        if let text = entry.summary ?? entry.content, !text.isEmpty { lines += [""] + theme.wrap(text) }
        return CommandOutput(lines: lines, json: OPDSEntryJSON(number: Int(word) ?? 0, entry: entry))
    }

    static func read(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        if numbersMeanShelfItems(session) { return nil }
        guard let word = arguments.positional.first, arguments.positional.count == 1, Int(word) != nil else {
            // A file path reads as anywhere else.
            return try await ReadCommands.read.run(arguments, session)
        }
        let file = try await download(
            try await entry(word, browser: session.library.catalogue!, command: "read"), session: session)
        return try await ReadCommands.read.run(try Arguments([file.path], valued: []), session)
    }

    /// Entry `word` of the page on screen. With nothing on screen yet (a one-shot `bok --library
    /// URL browse 6`), the numbers mean the catalogue's top, as `browse` shows it.
    static func entry(_ word: String, browser: OPDSBrowser, command: String) async throws -> OPDSEntry {
        guard let number = Int(word) else {
            throw UserError.usage(
                tr(
                    "{command} takes the number of an entry on screen, e.g. {command} 2.",
                    ["command": Command.spoken(command)]))
        }
        if browser.page == nil { _ = try await browser.open() }
        guard let entry = browser.entry(number) else {
            guard let numbers = browser.page?.numbers else {
                throw UserError(tr("This page of the catalogue is empty: browse shows its top, search finds books."))
            }
            throw UserError(
                tr(
                    "There is no entry {number} on this page: pick {first}–{last}.",
                    ["number": number, "first": numbers.lowerBound, "last": numbers.upperBound]))
        }
        return entry
    }

    /// The book's EPUB on disk, downloaded (with the progress bar) the first time.
    static func download(_ entry: OPDSEntry, session: Session) async throws -> URL {
        let q = session.theme.marks
        guard let link = entry.epub else {
            if entry.borrowLink != nil {
                throw UserError(
                    tr(
                        "{title} is lent by the library: borrow it first (borrow N with its number).",
                        ["title": q.quoted(entry.title)]))
            }
            if entry.navigation != nil {
                throw UserError(tr("{title} is a section, not a book: browse it.", ["title": q.quoted(entry.title)]))
            }
            let formats = entry.formats
            throw UserError(
                formats.isEmpty
                    ? tr("The catalogue offers no file of {title}.", ["title": q.quoted(entry.title)])
                    : tr(
                        "{title} is offered as {formats}; bok reads EPUB.",
                        ["title": q.quoted(entry.title), "formats": formats.joined(separator: ", ")]))
        }
        // The catalogue's password goes with the download when the file is on the catalogue's own address.
        let authorization = session.library.catalogue?.client.authorization(for: link.href)
        let name =
            "opds-"
            + String(
                entry.id.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 },
                radix: 16)
            + ".epub"
        let target = session.booksDirectory.appendingPathComponent(name)
        // Another bok fetching the same book: wait for it, then take its file.
        let lock = try await session.lockDownload(name, title: entry.title)
        defer { lock.release() }
        // A book from calibre's content server keeps its place there (`sync`).
        defer { session.linkForSync(file: target, acquisition: link.href) }
        if FileManager.default.fileExists(atPath: target.path) { return target }
        let bar = session.progress?.start(title: entry.title)
        do {
            try await BookDownloader().download(
                from: link.href, to: target, authorization: authorization, expecting: .epub, progress: bar)
            session.progress?.finish()
        } catch {
            session.progress?.finish()
            throw error
        }
        return target
    }
}
