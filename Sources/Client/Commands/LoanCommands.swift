import Catalog
import Foundation
import Logging
import Shelf
import Terminal

/// `borrow`, `loans` and `return`: making and ending loans.
@MainActor
enum LoanCommands {
    static let borrow = Command(
        name: "borrow", aliases: ["b", "loan"],
        synopsis: "borrow N | borrow id:PRODUCT",
        summary: "Borrow a book from the last list with your library card",
        details: [
            "Asks for your card and PIN the first time in a session (the PIN is never shown).",
            "If the book is out, says why, about how long the wait is, and offers reserve N;",
            "if your own loans this month are used, says when new loans start.",
            "Examples:  borrow 3     borrow id:100042",
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        completion: .resultNumbers,
        run: { arguments, session in
            let word = try single(arguments, usage: "borrow N (a number from the last list) or borrow id:PRODUCT")
            let (id, known) = try session.resolve(word, command: "borrow")
            let (card, pin) = try await PatronCommands.ensurePatron(arguments, command: "borrow", session: session)
            let title = try await titleOf(id, known: known, session: session)
            let q = session.theme.marks

            let current = try await session.service.loans(card: card, onlyActive: true)
            if let existing = current.first(where: { $0.productID == id && $0.active }) {
                throw UserError("You already have \(q.quoted(title)) on loan, due \(Words.dayWithWeekday(existing.expiryDate, today: session.today)).")
            }
            var availability = try await session.service.availability(productID: id, card: card)
            // The search's counts of copies and waiting patrons make the reason clearer.
            availability.copies = availability.copies ?? known?.availability?.copies
            availability.waiting = availability.waiting ?? known?.availability?.waiting
            if availability.reason == known?.availability?.reason { availability.estimatedDate = known?.availability?.estimatedDate }
            guard availability.available else {
                throw UserError(unavailableMessage(title: title, availability: availability, word: word, session: session))
            }
            let loan = try await createLoanSafely(card: card, pin: pin, productID: id, session: session)
            session.loanList = []
            let days = session.today.days(until: loan.expiryDate)
            let line = "Borrowed \(q.quoted(loan.title.isEmpty ? title : loan.title)). "
                + "Due \(Words.dayWithWeekday(loan.expiryDate, today: session.today)) — \(Words.daysLeft(days))."
            var lines = [session.theme.green(line)]
            await session.syncAfterChange()
            lines += await download(loan, title: title, session: session)
            return CommandOutput(lines: lines, json: LoanJSON(loan, today: session.today))
        })

    static let loans = Command(
        name: "loans",
        synopsis: "loans",
        summary: "Your active loans with the days left on each",
        details: ["Numbers here are for return N."],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "loans", session: session)
            let loans = try await session.service.loans(card: card, onlyActive: true)
                .filter(\.active).sorted { $0.expiryDate < $1.expiryDate }
            session.loanList = loans
            let today = session.today
            guard !loans.isEmpty else {
                return CommandOutput(lines: ["You have no loans. Find a book with search, then borrow N."],
                                     json: LoansJSON(loans: [], today: today))
            }
            var lines = [session.theme.bold("\(loans.count) \(loans.count == 1 ? "loan" : "loans")")]
            for (index, loan) in loans.enumerated() {
                let badge = Badge.loan(expiry: loan.expiryDate, today: today)
                let painted = ShelfStyle.paint(badge, theme: session.theme)
                lines.append("\(pad(index + 1, loans.count))  \(painted)  \(session.theme.bold(loan.title))"
                             + session.theme.dim(" \(session.theme.marks.middleDot) due \(Words.dayWithWeekday(loan.expiryDate, today: session.today))"))
            }
            lines += ["", session.theme.dim("return N ends a loan early.")]
            return CommandOutput(lines: lines, json: LoansJSON(loans: loans, today: today))
        })

    static let giveBack = Command(
        name: "return", aliases: ["giveback"],
        synopsis: "return N",
        summary: "End a loan early (N from loans), so the next patron in the queue gets it",
        details: ["Upstream Elib has no early return; bok says so when a library lacks it."],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let word = try single(arguments, usage: "return N (a number from loans)")
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "return", session: session)
            if session.loanList.isEmpty {
                session.loanList = try await session.service.loans(card: card, onlyActive: true).filter(\.active)
                    .sorted { $0.expiryDate < $1.expiryDate }
            }
            let loan = try pick(word, from: session.loanList, what: "loan", listCommand: "loans")
            try await session.service.returnLoan(id: loan.id, card: card)
            session.loanList = []
            await session.syncAfterChange()
            return CommandOutput(lines: ["Returned \(session.theme.marks.quoted(loan.title))."],
                                 json: ["returned": loan.id])
        })

    // MARK: Helpers

    /// Downloads a new loan's book so it opens at once, and offline; says where it is on the shelf.
    /// A failed download does not fail the borrow: `read N` tries again.
    static func download(_ loan: Loan, title: String, session: Session) async -> [String] {
        guard let link = loan.epubURL, let url = URL(string: link) else { return [] }
        let name = loan.title.isEmpty ? title : loan.title
        do {
            _ = try await session.bookOnDisk(productID: loan.productID, loanID: loan.id, title: name) { url }
        } catch {
            return [session.theme.yellow("The book did not download (\(REPL.message(for: error))) read N on the shelf tries again.")]
        }
        let items = (try? session.currentShelf()).map(ShelfRenderer.items) ?? []
        session.shelfList = items
        guard let number = items.firstIndex(where: { $0.kind == .loans && $0.entry.productID == loan.productID }) else {
            return [session.theme.dim("Downloaded; shelf shows it.")]
        }
        return [session.theme.dim("Downloaded to your shelf: read \(number + 1) opens it.")]
    }

    /// Creates a loan; if the answer is lost, looks at the patron's loans before trying once more,
    /// so a retry never makes two loans.
    static func createLoanSafely(card: String, pin: String, productID: String, session: Session) async throws -> Loan {
        do {
            return try await session.service.createLoan(card: card, pin: pin, productID: productID)
        } catch let error as LendingError where error.kind == .dropped || error.kind == .timeout {
            session.logger.notice("borrow answer lost; checking loans before retrying", metadata: ["product": "\(productID)"])
            let loans = try await session.service.loans(card: card, onlyActive: true)
            if let made = loans.first(where: { $0.productID == productID && $0.active }) { return made }
            return try await session.service.createLoan(card: card, pin: pin, productID: productID)
        }
    }

    static func unavailableMessage(title: String, availability: Availability, word: String, session: Session) -> String {
        let q = session.theme.marks.quoted(title)
        let words = AvailabilityWords(session: session)
        switch availability.reason {
        case .borrower?:
            // Reserving would be refused (the book is not out), so the one thing to do is to keep it in mind.
            return "Cannot borrow \(q): \(limitSentence(words, session: session)) tbr add \(word) keeps it on your to-be-read list until then."
        case .library?:
            return "Cannot borrow \(q) now: the \(words.words(availability)). Try again next month, or reserve \(word)."
        default:
            return "Cannot borrow \(q) now: \(words.words(availability)). Type reserve \(word) to join the queue."
        }
    }

    /// `your 5 loans this month are used. New loans from Tuesday 1 December;`
    static func limitSentence(_ words: AvailabilityWords, session: Session) -> String {
        let count = words.maxLoans.map { "\($0) " } ?? ""
        return "your \(count)loans this month are used. New loans from \(Words.dayWithWeekday(words.nextMonth, today: session.today));"
    }

    static func titleOf(_ id: String, known: Product?, session: Session) async throws -> String {
        try await ShelfCommands.product(id, known: known, session: session).title
    }

    static func single(_ arguments: Arguments, usage: String) throws -> String {
        guard arguments.positional.count == 1, let word = arguments.positional.first else {
            throw UserError.usage("Usage: \(usage).")
        }
        return word
    }

    static func pick<T>(_ word: String, from list: [T], what: String, listCommand: String) throws -> T {
        guard !list.isEmpty else { throw UserError("You have no \(what)s. \(listCommand) shows them.") }
        guard let n = Int(word), n >= 1, n <= list.count else {
            throw UserError("No \(what) \(word) (there \(list.count == 1 ? "is 1" : "are \(list.count)")). Type \(listCommand) to see them.")
        }
        return list[n - 1]
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
