import Catalog
import Foundation
import Localization
import Shelf
import Terminal

/// `history`: every loan of the card recorded on this computer, however long ago; `--csv` to
/// take it elsewhere, as Libby's reading history exports.
@MainActor
enum HistoryCommand {
    nonisolated static let history = Command(
        typedName: TypedWord("typed: command", "history"),
        synopsis: N_("history [--csv]"),
        summary: N_("Every loan you have had, newest first, with how much you read"),
        details: [
            N_(
                "The shelf shows ended loans for a month; history keeps every loan this computer has seen for your "
                    + "card at this library, from the day you borrowed it to the last day you had it."),
            N_(
                "history --csv prints it as a spreadsheet file (title, authors, borrowed, lastDay, ended, "
                    + "percentRead, productID): bok history --csv > loans.csv; --json gives the same fields."),
        ],
        flags: ["csv"],
        run: { arguments, session in
            guard let card = session.shelfCard() else {
                throw UserError(
                    tr("history needs your library card: log in first (login), or run bok login --remember once."))
            }
            let (store, profileID) = try session.shelfProfile()
            let entries = try store.loanHistory(scope: ShelfScope(profileID: profileID, card: card))
            let json = ["loans": entries.map(HistoryJSON.init)]
            if arguments.flag("csv") {
                var output = CommandOutput(json: json)
                output.document = csv(entries)
                return output
            }
            guard !entries.isEmpty else {
                return CommandOutput(
                    lines: [tr("No loans yet on this computer. Find a book with search, then borrow N.")], json: json)
            }
            let theme = session.theme
            let dot = theme.marks.middleDot
            var lines = [
                theme.bold(tr("Loan history")) + " \(dot) " + tr("card {card}", ["card": card]) + " \(dot) "
                    + trn("{n} loan", "{n} loans", entries.count), "",
            ]
            for entry in entries {
                let from = entry.borrowed.map(Words.day) ?? "?"
                let span =
                    entry.ended.map { from + " – " + Words.day($0) }
                    ?? from + " – " + tr("on loan until {day}", ["day": Words.day(entry.lastDay)])
                let read =
                    entry.percentRead.map { " \(dot) " + tr("{percent}% read", ["percent": Int($0.rounded())]) } ?? ""
                lines.append(theme.bold(entry.title) + (entry.authors.isEmpty ? "" : " \(dot) \(entry.authors)"))
                lines.append("  " + theme.dim(span + read))
            }
            return CommandOutput(lines: lines, json: json)
        })

    /// RFC 4180: a header row, CRLF line ends, a field with a comma, quote or line break quoted.
    /// A field a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a leading `'`:
    /// a title comes from the library, and a file opened in a spreadsheet must not run it.
    static func csv(_ entries: [LoanHistoryEntry]) -> String {
        let header = ["title", "authors", "borrowed", "lastDay", "ended", "percentRead", "productID"]
        let rows = entries.map { entry in
            [
                entry.title, entry.authors, entry.borrowed?.description ?? "", entry.lastDay.description,
                entry.ended?.description ?? "", entry.percentRead.map { String(Int($0.rounded())) } ?? "",
                entry.productID,
            ]
        }
        return ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    static func field(_ text: String) -> String {
        var value = text
        if let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// `history --json`: one loan.
struct HistoryJSON: Encodable, Sendable {
    let title: String
    let authors: String
    let borrowed: String?
    let lastDay: String
    let ended: String?
    let percentRead: Int?
    let productID: String

    init(_ entry: LoanHistoryEntry) {
        title = entry.title
        authors = entry.authors
        borrowed = entry.borrowed?.description
        lastDay = entry.lastDay.description
        ended = entry.ended?.description
        percentRead = entry.percentRead.map { Int($0.rounded()) }
        productID = entry.productID
    }
}
