import Catalog
import Foundation
import Localization
import Logging
import Shelf
import Terminal

/// `notices`: what changed at the library, as a lending app tells it, and the words for each notice.
@MainActor
enum NoticeCommands {
    nonisolated static let notices = Command(
        typedName: TypedWord("typed: command", "notices"), aliases: ["news"],
        synopsis: N_("notices"),
        summary: N_("What changed at the library lately: reservations ready, loans ending or ended"),
        details: [
            N_(
                "bok tells each change once, after the sync that finds it (at start, after borrow, return, "
                    + "mock clock and shelf --sync): a reservation ready to borrow, a loan due within 3 days, "
                    + "a loan that ended, a reservation that lapsed or the library cancelled, and a loan bok had "
                    + "not recorded (made in another terminal, or whose answer was lost). notices lists those "
                    + "of the last 30 days, newest first."),
            N_("Examples:  notices     bok notices --json"),
        ],
        run: { _, session in
            guard let card = session.shelfCard() else {
                throw UserError(
                    tr("notices needs your library card: log in first (login), or run bok login --remember once."))
            }
            let (store, profileID) = try session.shelfProfile()
            // What is known now, not only what the last sync found.
            do { try await session.syncShelf() } catch let error as LendingError {
                session.logger.info("sync before notices failed", metadata: ["error": "\(error)"])
            }
            _ = session.notices.take()
            let since = session.library.clock.now().addingTimeInterval(-30 * 86_400)
            let notices = try store.notices(profileID: profileID, card: card, since: since)
            let json = ["notices": notices.map { NoticeJSON($0) }]
            guard !notices.isEmpty else {
                return CommandOutput(lines: [tr("No notices in the last 30 days.")], json: json)
            }
            let lines = notices.map { notice in
                // A notice is a record: its words are as they were true on the day it was made.
                let made = DayDate(notice.createdAt, in: session.library.clock.timeZone)
                return session.theme.dim(Words.dayWithWeekday(made, today: session.library.today) + "  ")
                    + line(notice, session: session, asOf: made)
            }
            return CommandOutput(
                lines: [tr("Notices, last 30 days ({n})", ["n": notices.count]), ""] + lines, json: json)
        })

    /// One notice in words: `“Vintern 1953” is ready for you: borrow it by Friday 27 November.`
    /// - Parameter today: the day the words are true on: today for a notice just made, the day it
    ///   was made for one listed later (`due today` stays what it said that day).
    static func line(_ notice: Notice, session: Session, asOf today: DayDate? = nil) -> String {
        let today = today ?? session.library.today
        let q = session.theme.marks
        let title = q.quoted(notice.title.isEmpty ? tr("product {id}", ["id": notice.productID]) : notice.title)
        let day = notice.day.map { Words.dayWithWeekday($0, today: today) }
        switch notice.kind {
        case .loanMade:
            return day.map {
                tr(
                    "New loan on your card: {title}, due {day}. read shows it on your shelf.",
                    ["title": title, "day": $0])
            } ?? tr("New loan on your card: {title}. read shows it on your shelf.", ["title": title])
        case .dueSoon:
            guard let due = notice.day else { return tr("{title} is due soon.", ["title": title]) }
            let left = today.days(until: due)
            return left <= 0
                ? tr("{title} is due today: it ends tonight.", ["title": title])
                : tr(
                    "{title} is due {day} ({left} left).",
                    ["title": title, "day": day ?? "", "left": Words.daysLeft(left)])
        case .loanEnded:
            return tr("The loan of {title} has ended.", ["title": title])
        case .reservationReady:
            return day.map { tr("{title} is ready for you: borrow it by {day}.", ["title": title, "day": $0]) }
                ?? tr("{title} is ready for you.", ["title": title])
        case .reservationEnded:
            return day.map {
                tr("Your reservation of {title} lapsed: it was not borrowed by {day}.", ["title": title, "day": $0])
            } ?? tr("Your reservation of {title} has ended without a loan: the library cancelled it.", ["title": title])
        case .watchedAvailable:
            return tr(
                "{title}, which you watch, can be borrowed now: borrow id:{id}.",
                ["title": title, "id": notice.productID])
        }
    }

    /// The notices a sync found, one line each, for the REPL to print before its prompt.
    static func pending(session: Session) -> [String] {
        session.notices.take().map { session.theme.yellow(tr("Notice:") + " ") + line($0, session: session) }
    }
}

/// A notice for `--json`: field names and kinds are an API, never translated.
struct NoticeJSON: Encodable, Sendable {
    let kind: String
    let productID: String
    let title: String
    let day: String?
    let at: String

    init(_ notice: Notice) {
        kind = notice.kind.rawValue
        productID = notice.productID
        title = notice.title
        day = notice.day?.description
        at = Timestamp.format(notice.createdAt)
    }
}
