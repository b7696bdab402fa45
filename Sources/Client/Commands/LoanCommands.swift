import Catalog
import Foundation
import Localization
import Logging
import Shelf
import Terminal

/// `borrow`, `loans` and `return`: making and ending loans.
@MainActor
enum LoanCommands {
    nonisolated static let borrow = Command(
        // `renew` is here because a patron looks for it: loans cannot be renewed, and borrow says so.
        typedName: TypedWord("typed: command", "borrow"), aliases: ["b", "loan", "renew"],
        synopsis: N_("borrow N | borrow id:PRODUCT"),
        summary: N_("Borrow a book from the last list with your library card"),
        details: [
            N_("Asks for your card and PIN the first time in a session (the PIN is never shown)."),
            N_(
                "If the book is out, says why, about how long the wait is, and offers reserve N; "
                    + "if your own loans this month are used, or you are at the library's pace (say 3 loans in 7 "
                    + "days), says the day you can borrow again; if the library's e-book budget is used up, says "
                    + "when it starts again."),
            N_(
                "A loan cannot be renewed: once it has ended, borrow the book again for a new loan; "
                    + "your place and notes are kept."),
            N_("Examples:  borrow 3     borrow id:100042"),
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        completion: .resultNumbers,
        inCatalogue: OPDSCommands.borrow,
        run: { arguments, session in
            let word = try single(
                arguments, usage: tr("Usage: borrow N (a number from the last list) or borrow id:PRODUCT."))
            let picked = try await session.pick(word, command: "borrow")
            let (id, known) = (picked.productID, picked.known)
            let (card, pin) = try await PatronCommands.ensurePatron(arguments, command: "borrow", session: session)
            let title = try await session.title(of: picked)
            let q = session.theme.marks

            let current = try await session.library.service.loans(card: card, onlyActive: true)
            if let existing = current.first(where: { $0.productID == id && $0.active }) {
                throw UserError(
                    tr(
                        "You already have {title} on loan, due {day}. Loans cannot be renewed: once it has "
                            + "ended, borrow {number} again for a new loan, and your place and notes are kept; "
                            + "read {number} opens it.",
                        [
                            "title": q.quoted(title),
                            "day": Words.dayWithWeekday(existing.expiryDate, today: session.library.today),
                            "number": word,
                        ]))
            }
            var availability = try await session.library.service.availability(productID: id, card: card)
            // The search's counts of copies and waiting patrons make the reason clearer.
            availability.copies = availability.copies ?? known?.availability?.copies
            availability.waiting = availability.waiting ?? known?.availability?.waiting
            if availability.reason == known?.availability?.reason {
                availability.estimatedDate = availability.estimatedDate ?? known?.availability?.estimatedDate
                availability.pace = availability.pace ?? known?.availability?.pace
            }
            guard availability.available else {
                if let queued = try await queuedMessage(picked, title: title, word: word, card: card, session: session)
                {
                    throw UserError(queued)
                }
                throw UserError(
                    unavailableMessage(title: title, availability: availability, word: word, session: session))
            }
            let loan = try await settledOnCancel(
                tr("The library may have made the loan already; the next sync settles it (loans shows it then).")
            ) {
                try await createLoanSafely(card: card, pin: pin, productID: id, session: session)
            }
            session.keepCoverAddress(of: known)
            let days = session.library.today.days(until: loan.expiryDate)
            let line = tr(
                "Borrowed {title}. Due {day} — {days}.",
                [
                    "title": q.quoted(loan.title.isEmpty ? title : loan.title),
                    "day": Words.dayWithWeekday(loan.expiryDate, today: session.library.today),
                    "days": Words.daysLeft(days),
                ])
            var lines = [session.theme.green(line)]
            await session.syncAfterChange(expected: loan.productID)
            let statedSize = known?.formats.first { $0.id == "4104" }?.sizeInBytes
            lines += await download(loan, title: title, word: word, statedSize: statedSize, session: session)
            return CommandOutput(lines: lines, json: LoanJSON(loan, today: session.library.today))
        })

    nonisolated static let loans = Command(
        typedName: TypedWord("typed: command", "loans"),
        synopsis: N_("loans [--ics]"),
        summary: N_("Your active loans with the days left on each"),
        details: [
            N_("Its numbers become the ones info N, read N and return N use, until another list is shown."),
            N_(
                "loans --ics prints the loans' last days as an iCalendar file, an event on each last day with a "
                    + "reminder the day before: bok loans --ics > loans.ics, then import it in your calendar."),
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin", "ics"],
        run: { arguments, session in
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "loans", session: session)
            let loans = try await session.library.service.loans(card: card, onlyActive: true)
                .filter(\.active).sorted { $0.expiryDate < $1.expiryDate }
            if arguments.flag("ics") {
                let calendar = LoanCalendar(
                    library: session.library.name,
                    host: URL(string: session.library.identity.baseURL)?.host ?? "bok", now: session.library.clock.now()
                )
                let text = calendar.text(loans)
                var output = CommandOutput(json: ["ics": text])
                output.document = text
                return output
            }
            session.lists.loanList = loans
            session.lists.endedFromList = []
            let notice = session.numbersNow(.loans, count: loans.count)
            let today = session.library.today
            guard !loans.isEmpty else {
                return CommandOutput(
                    lines: [tr("You have no loans. Find a book with search, then borrow N.")],
                    json: LoansJSON(loans: [], today: today))
            }
            var lines = [session.theme.bold(trn("{n} loan", "{n} loans", loans.count))]
            for (index, loan) in loans.enumerated() {
                let badge = Badge.loan(expiry: loan.expiryDate, today: today)
                let painted = ShelfStyle.paint(badge, theme: session.theme)
                let number = pad(index + 1, loans.count)
                let head = "\(number)  \(painted)  \(session.theme.bold(loan.title))"
                let due = tr("due {day}", ["day": Words.dayWithWeekday(loan.expiryDate, today: session.library.today)])
                let theme = session.theme
                if theme.width == 0 || DisplayWidth.of(Ansi.strip(head)) + 3 + DisplayWidth.of(due) <= theme.width {
                    lines.append(head + theme.dim(" \(theme.marks.middleDot) " + due))
                } else {
                    // A narrow window: the due day goes under the title rather than past the edge.
                    lines.append(theme.fit(head))
                    lines.append(String(repeating: " ", count: DisplayWidth.of(number) + 2) + theme.dim(due))
                }
            }
            let advice = tr("return N ends a loan early, read N opens it, info N tells more.")
            lines += [
                "", session.theme.dim(([notice.map(Ansi.strip)].compactMap { $0 } + [advice]).joined(separator: " ")),
            ]
            return CommandOutput(lines: lines, json: LoansJSON(loans: loans, today: today))
        })

    nonisolated static let giveBack = Command(
        typedName: TypedWord("typed: command", "return"), aliases: ["giveback"],
        synopsis: N_("return N [--yes]"),
        summary: N_("End a loan early (N from loans, the shelf or a list), so the next patron in the queue gets it"),
        details: [
            N_("At a terminal it asks Return “Title” now? [y/N] first; --yes returns without asking."),
            N_("Upstream Elib has no early return; bok says so when a library lacks it."),
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin", "yes"],
        completion: .resultNumbers,
        run: { arguments, session in
            let word = try single(arguments, usage: tr("Usage: return N (a number from loans)."))
            try session.checkWord(word, command: "return")
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "return", session: session)
            let picked = try await session.pick(word, command: "return", fallback: .loans)
            let loan = try await loanOf(picked, word: word, card: card, session: session)
            guard !session.lists.endedFromList.contains(loan.id) else {
                throw UserError(
                    tr(
                        "You have returned {title} already. Type loans to see the others.",
                        ["title": session.theme.marks.quoted(loan.title)]))
            }
            let q = session.theme.marks
            // A loan returned cannot be taken back, and the copy may go to the next in the queue at once.
            if !arguments.flag("yes"),
                let sure = session.account.prompt?.confirm(
                    tr("Return {title} now? [y/N] ", ["title": q.quoted(loan.title)])),
                !sure
            {
                return CommandOutput(
                    lines: [tr("Kept {title}; nothing was returned.", ["title": q.quoted(loan.title)])],
                    json: ["returned": String?.none])
            }
            do {
                try await settledOnCancel(
                    tr("The library may have ended the loan already; the next sync settles it (loans shows it then).")
                ) {
                    try await session.library.service.returnLoan(id: loan.id, card: card)
                }
            } catch let error as LendingError where error.kind == .unsupported {
                // Plain Elib: a loan runs its course. Say when it ends rather than only that it cannot.
                throw UserError(
                    tr(
                        "Loans cannot be returned early at this library: {title} ends by itself on {day}.",
                        [
                            "title": q.quoted(loan.title),
                            "day": Words.dayWithWeekday(loan.expiryDate, today: session.library.today),
                        ]))
            }
            session.lists.endedFromList.insert(loan.id)
            await session.syncAfterChange(expected: loan.productID)
            return CommandOutput(
                lines: [tr("Returned {title}.", ["title": session.theme.marks.quoted(loan.title)])],
                json: ["returned": loan.id])
        })

    // MARK: Helpers

    /// Downloads a new loan's book so it opens at once, and offline; says where it is on the shelf.
    /// A failed download does not fail the borrow: `read N` tries again.
    static func download(
        _ loan: Loan, title: String, word: String, statedSize: Int? = nil, session: Session
    ) async -> [String] {
        guard let link = loan.epubURL, let url = URL(string: link) else { return [] }
        let name = loan.title.isEmpty ? title : loan.title
        // A number of the shelf on screen may move with the new loan: its id never does.
        let again = tr(
            "read {number}",
            ["number": session.lists.numbered == .shelf || Int(word) == nil ? "id:\(loan.productID)" : word])
        do {
            _ = try await session.bookOnDisk(
                productID: loan.productID, loanID: loan.id, title: name, statedSize: statedSize, retry: again
            ) { url }
        } catch let error as DownloadError {
            // Says what happened to the book and that read N fetches it again.
            return [session.theme.yellow(error.description)]
        } catch {
            return [
                session.theme.yellow(
                    tr(
                        "The book did not download: {reason} {command} tries again.",
                        ["reason": ErrorReport.message(for: error), "command": again]))
            ]
        }
        // The list on screen keeps its numbers: read N means the same book borrow N did.
        if session.lists.numbered == .shelf || Int(word) == nil {
            guard let items = try? ShelfRenderer.items(session.currentShelf()),
                let number = items.firstIndex(where: { $0.kind == .loans && $0.entry.productID == loan.productID })
            else {
                return [session.theme.dim(tr("Downloaded; shelf shows it."))]
            }
            if session.lists.numbered == .shelf { session.lists.shelfList = items }
            return [
                session.theme.dim(
                    tr(
                        "Downloaded to your shelf: read {number} opens it.",
                        ["number": session.lists.numbered == .shelf ? String(number + 1) : "id:\(loan.productID)"]))
            ]
        }
        return [session.theme.dim(tr("Downloaded to your shelf: read {number} opens it.", ["number": word]))]
    }

    /// Runs a request that changes something at the library; Ctrl-C during it cannot take back
    /// what the library may already have done, so the message says what the next sync will settle.
    static func settledOnCancel<T>(_ consequence: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch is CancellationError {
            throw UserError(tr("Cancelled.") + " " + consequence)
        }
    }

    /// Creates a loan; if the answer is lost, looks at the patron's loans before trying once more,
    /// so a retry never makes two loans.
    ///
    /// The check is made at once (no waiting out a timeout). When bok cannot know — the check
    /// fails too, or the retry's answer is lost as well — it says so instead of calling the borrow
    /// failed: the next sync finds the loan if there is one, and tells it as a notice.
    static func createLoanSafely(card: String, pin: String, productID: String, session: Session) async throws -> Loan {
        do {
            return try await session.library.service.createLoan(card: card, pin: pin, productID: productID)
        } catch let error as LendingError where error.kind == .dropped || error.kind == .timeout {
            session.logger.notice(
                "borrow answer lost; checking loans before retrying", metadata: ["product": "\(productID)"])
            do {
                let loans = try await session.library.service.loans(card: card, onlyActive: true)
                if let made = loans.first(where: { $0.productID == productID && $0.active }) { return made }
                return try await session.library.service.createLoan(card: card, pin: pin, productID: productID)
            } catch let error as LendingError where error.status == nil || (error.status ?? 0) >= 500 {
                session.logger.notice("could not settle a lost borrow answer", metadata: ["error": "\(error)"])
                // Try at once; if the library still does not answer, the next shelf syncs.
                await session.syncAfterChange()
                session.shelfState.syncedThisSession = false
                throw UserError(
                    tr(
                        "The library's answer was lost, so bok cannot tell whether it made the loan. "
                            + "bok checks at the next sync and tells you then; loans shows it once the library answers."
                    ))
            }
        }
    }

    /// For a book the patron has reserved: their place, instead of offering a reserve that would be refused.
    static func queuedMessage(
        _ picked: Picked, title: String, word: String, card: String, session: Session
    ) async throws -> String? {
        let reservation: Reservation?
        switch picked {
        case .reservation(let r): reservation = r
        default:
            reservation = try? await session.library.service.reservations(card: card).first {
                $0.productID == picked.productID
            }
        }
        guard let reservation else { return nil }
        let q = session.theme.marks.quoted(title)
        if let estimate = reservation.estimatedDate {
            return tr(
                "{title} is not ready for you yet: you are #{place} in the queue, expected around {day}. "
                    + "reservations shows when it is ready to borrow.",
                [
                    "title": q, "place": reservation.queuePosition,
                    "day": Words.dayWithWeekday(estimate, today: session.library.today),
                ])
        }
        return tr(
            "{title} is not ready for you yet: you are #{place} in the queue. "
                + "reservations shows when it is ready to borrow.",
            ["title": q, "place": reservation.queuePosition])
    }

    /// The loan `return N` means: N of loans or of the shelf, or the patron's loan of the book N is.
    static func loanOf(_ picked: Picked, word: String, card: String, session: Session) async throws -> Loan {
        let q = session.theme.marks
        switch picked {
        case .loan(let loan):
            return loan
        case .reservation(let reservation):
            let title = await ReservationCommands.titleOf(reservation, session: session)
            throw UserError(
                tr(
                    "{title} is reserved, not on loan: cancel {number} leaves the queue.",
                    ["title": q.quoted(title), "number": word]))
        case .shelf(let item) where item.kind == .ready || item.kind == .reserved:
            throw UserError(
                tr(
                    "{title} is reserved, not on loan: cancel {number} leaves the queue.",
                    ["title": q.quoted(item.entry.title), "number": word]))
        case .shelf(let item)
        where item.kind == .loans && item.entry.upstreamID.map(session.lists.endedFromList.contains) == true:
            throw UserError(
                tr(
                    "You have returned {title} already. Type shelf to see the others.",
                    ["title": q.quoted(item.entry.title)]))
        case .shelf(let item) where item.kind == .ended:
            throw UserError(
                tr(
                    "The loan of {title} has ended already; there is nothing to return.",
                    ["title": q.quoted(item.entry.title)]))
        default:
            let mine = try await session.library.service.loans(card: card, onlyActive: true).filter(\.active)
            if let loan = mine.first(where: { $0.productID == picked.productID }) { return loan }
            let title = try await session.title(of: picked)
            throw UserError(
                tr("{title} is not on loan to you. Type loans to see what you can return.", ["title": q.quoted(title)]))
        }
    }

    static func unavailableMessage(title: String, availability: Availability, word: String, session: Session) -> String
    {
        let q = session.theme.marks.quoted(title)
        let words = session.availabilityWords
        switch availability.reason {
        case .borrower?:
            // Reserving would be refused (the book is not out), so the one thing to do is to keep it in mind.
            return tr(
                "Cannot borrow {title}: {limit}; tbr add {number} keeps it on your to-be-read list until then.",
                [
                    "title": q, "limit": limitSentence(words, availability: availability, session: session),
                    "number": word,
                ])
        case .library?:
            // A reservation made now is ready when the new month's budget comes.
            return tr(
                "Cannot borrow {title}: {budget}. Loans again from {day}; "
                    + "reserve {number} to have it kept for you then.",
                [
                    "title": q, "budget": words.budgetWords,
                    "day": Words.dayWithWeekday(availability.estimatedDate ?? words.nextMonth, today: words.today),
                    "number": word,
                ])
        default:
            return tr(
                "Cannot borrow {title} now: {reason}. Type reserve {number} to join the queue.",
                ["title": q, "reason": words.words(availability), "number": word])
        }
    }

    /// `your 5 loans this month are used. New loans from Tuesday 1 December`, or when the library's
    /// pace stops the patron, `you have made 3 loans in 7 days, as many as the library allows. Next
    /// loan from Thursday 3 December`.
    static func limitSentence(_ words: AvailabilityWords, availability: Availability, session: Session) -> String {
        if let pace = availability.pace, let next = availability.estimatedDate {
            return tr(
                "you have made {pace}, as many as the library allows. Next loan from {day}",
                [
                    "pace": words.paceWords(pace),
                    "day": Words.dayWithWeekday(next, today: session.library.today),
                ])
        }
        let day = Words.dayWithWeekday(words.nextMonth, today: session.library.today)
        guard let most = words.maxLoans else {
            return tr("your loans this month are used. New loans from {day}", ["day": day])
        }
        return trn(
            "your {n} loan this month is used. New loans from {day}",
            "your {n} loans this month are used. New loans from {day}", most, ["day": day])
    }

    /// The one word after the command; `usage` (the whole sentence, translated) when there is not one.
    static func single(_ arguments: Arguments, usage: String) throws -> String {
        guard arguments.positional.count == 1, let word = arguments.positional.first else {
            throw UserError.usage(usage)
        }
        return word
    }

    static func pad(_ n: Int, _ count: Int) -> String {
        let width = max(2, String(count).count)
        let text = String(n)
        return String(repeating: " ", count: width - text.count) + text
    }
}

/// A loan in `--json` output.
struct LoanJSON: Encodable, Sendable {
    let id: String
    let productID: String
    let title: String
    let expiryDate: String
    let daysLeft: Int
    let badge: String

    init(_ loan: Loan, today: DayDate) {
        id = loan.id
        productID = loan.productID
        title = loan.title
        expiryDate = loan.expiryDate.description
        daysLeft = today.days(until: loan.expiryDate)
        badge = Badge.loan(expiry: loan.expiryDate, today: today).text
    }
}

/// `loans --json`.
struct LoansJSON: Encodable, Sendable {
    let loans: [LoanJSON]
    init(loans: [Loan], today: DayDate) { self.loans = loans.map { LoanJSON($0, today: today) } }
}
