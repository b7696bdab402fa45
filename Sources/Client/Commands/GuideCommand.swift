import Foundation
import Localization
import Terminal

/// `guide`: how borrowing works, for a patron before the first loan (the study's "must have" help
/// page). The same text, from the same messages, is docs/guide.md and docs/guide.sv.md.
@MainActor
enum GuideCommand {
    nonisolated static let guide = Command(
        typedName: TypedWord("typed: command", "guide"),
        synopsis: N_("guide [--markdown]"),
        summary: N_("How borrowing works: card and PIN, limits, loan periods, queues, samples, privacy"),
        details: [
            N_(
                "Also help borrowing (hjälp utlåning). --markdown prints it as docs/guide.md (docs/guide.sv.md in "
                    + "Swedish) has it.")
        ],
        flags: ["markdown"],
        run: { arguments, session in
            let sections = Self.sections
            if arguments.flag("markdown") {
                var lines = ["# " + tr("How borrowing works"), ""]
                for (heading, text) in sections { lines += ["## " + heading, "", text, ""] }
                lines.removeLast()
                return CommandOutput(lines: lines, json: ["markdown": lines.joined(separator: "\n")])
            }
            let theme = session.theme
            var lines = [theme.bold(tr("How borrowing works"))]
            for (heading, text) in sections {
                lines += ["", theme.bold(heading)]
                lines += DisplayWidth.wrap(text, width: theme.width > 0 ? min(theme.width, 100) : 80)
            }
            return CommandOutput(lines: lines, json: ["sections": sections.map { [$0.0, $0.1] }])
        })

    /// The guide's sections, in the interface language.
    nonisolated static var sections: [(String, String)] {
        [
            (
                tr("Your library card and PIN"),
                tr(
                    "You borrow with your library card number and the PIN the library gave you. bok asks for them "
                        + "the first time you borrow, reserve or look at your loans, and never shows the PIN. "
                        + "login --remember keeps both in a file only you can read; logout forgets them.")
            ),
            (
                tr("How many loans, and why a book is not available"),
                tr(
                    "A library lets each patron borrow a number of e-books a month (the mock library: 5) and has "
                        + "a budget of its own. A book that cannot be borrowed shows ✗ and why: all copies are on "
                        + "loan (reserve N puts you in the queue), the library's loans for the month are used, or "
                        + "yours are. New loans open on the first day of the month.")
            ),
            (
                tr("The loan period"),
                tr(
                    "A loan lasts the library's loan period (28 days at the mock library); the shelf shows the "
                        + "days left on each. When a loan ends the book closes and can no longer be opened, but "
                        + "your notes, highlights and bookmarks stay. return N ends a loan early, so the next "
                        + "patron in the queue gets the book.")
            ),
            (
                tr("Reservations and the queue"),
                tr(
                    "reserve N puts you in the queue for a book that is out, and reservations shows your place "
                        + "and an estimated date. When the book is yours to borrow, notices and the shelf say "
                        + "Ready · borrow by DATE: borrow it before then, or the next patron gets it. cancel N "
                        + "leaves a queue.")
            ),
            (
                tr("Samples"),
                tr(
                    "sample N downloads the free beginning of a book to your shelf, with no loan; read N opens "
                        + "it and remove N takes it away. tbr add N keeps a book on your to-be-read list.")
            ),
            (
                tr("Reading offline"),
                tr(
                    "A borrowed book is downloaded to your computer, so read N works without a network until the "
                        + "loan ends. The reader fills the terminal: space turns the page and ? shows its keys.")
            ),
            (
                tr("Privacy"),
                tr(
                    "bok keeps your shelf, reading positions and notes under ~/.local/share/bok and its settings "
                        + "under ~/.config/bok, readable only by you. The PIN is written down only when you ask "
                        + "with login --remember. The library gets what a loan needs: your card, your PIN and the "
                        + "book.")
            ),
        ]
    }
}
