import Catalog
import Foundation
import Localization
import Reader
import Shelf
import Terminal

/// Lending in a catalogue that lends (Library Simplified / Palace extensions): borrow and
/// reserve follow an entry's links; the marks say what a book's links offer.
extension OPDSCommands {
    /// `borrow N` in a catalogue: a book the library lends (it has a borrow link) is borrowed with
    /// the catalogue's login, then its EPUB downloaded; a free book is downloaded as `get N` does.
    /// A book that is out says why, and that `reserve N` joins the queue.
    static func borrow(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        if numbersMeanShelfItems(session) { return nil }
        guard let browser = session.library.catalogue else { return CommandOutput() }
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: borrow N"))
        }
        let entry = try await entry(word, browser: browser, command: "borrow")
        guard let link = entry.borrowLink else { return try await get.run(arguments, session) }
        let title = session.theme.marks.quoted(entry.title)
        switch entry.lending?.state {
        case .unavailable?:
            // The same words as over the Elib API: the patron's own limit or pace, the budget, or a queue.
            throw UserError(
                LoanCommands.unavailableMessage(
                    title: entry.title, availability: entry.lending!.availability, word: word, session: session))
        case .reserved?:
            throw UserError(queuedWords(entry, title: title))
        default:
            return try await follow(link, entry: entry, word: word, session: session)
        }
    }

    /// `reserve N` in a catalogue: the borrow link of a book that is out places a hold.
    static func reserve(_ arguments: Arguments, _ session: Session) async throws -> CommandOutput? {
        if numbersMeanShelfItems(session) { return nil }
        guard let browser = session.library.catalogue else { return CommandOutput() }
        guard let word = arguments.positional.first, arguments.positional.count == 1 else {
            throw UserError.usage(tr("Usage: reserve N"))
        }
        let entry = try await entry(word, browser: browser, command: "reserve")
        let title = session.theme.marks.quoted(entry.title)
        guard let link = entry.borrowLink else {
            throw UserError(
                entry.epub != nil
                    ? tr("{title} is free to download: get {number}.", ["title": title, "number": word])
                    : tr("The catalogue offers no way to reserve {title}.", ["title": title]))
        }
        switch entry.lending?.state {
        case .reserved?: throw UserError(queuedWords(entry, title: title))
        case .unavailable?: return try await follow(link, entry: entry, word: word, session: session)
        default:
            throw UserError(
                tr("{title} is available now: borrow {number} borrows it.", ["title": title, "number": word]))
        }
    }

    /// `You are #2 in the queue for “X”; borrow N works once it is ready.`
    static func queuedWords(_ entry: OPDSEntry, title: String) -> String {
        guard let place = entry.lending?.position, place > 0 else {
            return tr("You are in the queue for {title} already; borrow it once it is ready.", ["title": title])
        }
        return tr(
            "You are #{place} in the queue for {title} already; borrow it once it is ready.",
            ["title": title, "place": place])
    }

    /// Follows `link` and says what the library made of it: a loan (then the file is downloaded) or a hold.
    static func follow(
        _ link: OPDSLink, entry: OPDSEntry, word: String, session: Session
    ) async throws
        -> CommandOutput
    {
        let browser = session.library.catalogue!
        try browser.takeUpRememberedLogin()
        var answer = try await browser.client.borrow(link)
        // The entry on screen becomes the loan (its file's link), under the same id: read N reaches it.
        answer.id = entry.id
        if answer.title.isEmpty { answer.title = entry.title }
        if answer.authors.isEmpty { answer.authors = entry.authors }
        if let number = Int(word) { browser.replace(number, with: answer) }
        let theme = session.theme
        let title = theme.marks.quoted(answer.title)
        let lending = answer.lending
        switch lending?.state {
        case .reserved?, .unavailable?:
            let line =
                lending?.position.map {
                    tr("Reserved {title}. You are #{place} in the queue.", ["title": title, "place": $0])
                } ?? tr("Reserved {title}; the library keeps your place in the queue.", ["title": title])
            return CommandOutput(lines: [theme.green(line)], json: OPDSLoanJSON(entry: answer, file: nil))
        default:
            break
        }
        var lines: [String]
        if let until = lending?.until {
            lines = [
                theme.green(
                    tr(
                        "Borrowed {title}. Due {day} — {days}.",
                        [
                            "title": title, "day": Words.dayWithWeekday(until, today: session.library.today),
                            "days": Words.daysLeft(max(0, session.library.today.days(until: until))),
                        ]))
            ]
        } else {
            lines = [theme.green(tr("Borrowed {title}.", ["title": title]))]
        }
        var file: URL?
        do {
            file = try await download(answer, session: session)
            session.recordLoanFile(file!, productID: answer.id, loanID: answer.id)
            // Its bookmarks and place are kept at the library when the library keeps them.
            await session.linkForLibrarySync(file: file!, productID: answer.id)
            lines.append(tr("Downloaded to {file}: read {number} opens it.", ["file": file!.path, "number": word]))
        } catch let error as UserError {
            // No EPUB bok can open (a DRM licence, another format): said as get N says it.
            lines.append(theme.yellow(error.message))
        } catch {
            // The loan stands whatever happened to the file.
            lines.append(
                theme.yellow(
                    tr(
                        "The book did not download: {reason} {command} tries again.",
                        ["reason": ErrorReport.message(for: error), "command": "get \(word)"])))
        }
        return CommandOutput(lines: lines, json: OPDSLoanJSON(entry: answer, file: file?.path))
    }

    /// The lending library's mark for a book a catalogue lends: green `✓ Available`, red
    /// `✗ all 3 copies on loan, 2 waiting`, `#2 in queue`, `ready — borrow by Friday 4 December`.
    static func lendingMark(_ entry: OPDSEntry, session: Session) -> String? {
        guard let lending = entry.lending else { return nil }
        let theme = session.theme
        let words = session.availabilityWords
        switch lending.state {
        case .available:
            // Palace marks the patron's own loan available until its last day, with no borrow link.
            if entry.borrowLink == nil, lending.until != nil {
                return theme.green(theme.marks.good(tr("on loan to you")))
            }
            return words.mark(lending.availability)
        case .unavailable:
            return words.mark(lending.availability)
        case .reserved:
            guard let place = lending.position, place > 0 else { return theme.yellow(tr("in the queue")) }
            return ShelfStyle.paint(.queued(place: place, estimate: nil), theme: theme, padded: false)
        case .ready:
            guard let until = lending.until else { return words.mark(lending.availability) }
            return theme.paint(
                tr("ready — borrow by {day}", ["day": Words.dayWithWeekday(until, today: session.library.today)]),
                .init(foreground: .green, bold: true))
        }
    }
}
