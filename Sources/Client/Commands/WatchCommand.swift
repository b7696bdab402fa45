import Catalog
import Foundation
import Localization
import Shelf
import Terminal

/// `watch`: books the patron wants to hear of when they can be borrowed, as Libby's "notify me".
@MainActor
enum WatchCommand {
    nonisolated static let watch = Command(
        typedName: TypedWord("typed: command", "watch"), aliases: ["notify"],
        synopsis: N_("watch | watch N | watch rm N"),
        summary: N_("Be told when a book that is out can be borrowed"),
        details: [
            N_(
                "watch N watches book N of the last list (or id:X); bok then tells you, once, at the next start "
                    + "or sync after it can be borrowed (Notice: …). A book you borrow is watched no more."),
            N_("watch alone lists the books you watch and whether they can be borrowed now; watch rm N stops one."),
            N_("Examples:  watch 3     watch     watch rm 1"),
        ],
        completion: .words(["rm"], then: []),
        run: { arguments, session in
            let words = arguments.positional
            guard let card = session.shelfCard() else {
                throw UserError(
                    tr("watch needs your library card: log in first (login), or run bok login --remember once."))
            }
            let (store, profileID) = try session.shelfProfile()
            switch words.first?.lowercased() {
            case nil:
                return try await list(store.watches(profileID: profileID, card: card), session: session)
            case "rm"?, "remove"?:
                guard words.count == 2 else { throw UserError.usage(tr("Usage: watch rm N (a number from watch).")) }
                let watched = try store.watches(profileID: profileID, card: card)
                let record: WatchRecord
                if let id = try Session.productID(words[1], command: "watch rm") {
                    guard let found = watched.first(where: { $0.productID == id }) else {
                        throw UserError(
                            tr("You do not watch product {id}. Type watch to see what you watch.", ["id": id]))
                    }
                    record = found
                } else {
                    record = try Session.item(
                        Int(words[1]) ?? 0, of: watched,
                        empty: tr("You watch no books. watch N watches a book of the last list."),
                        missing: {
                            trn(
                                "You watch no book {number} (you watch {n}). Type watch to see it.",
                                "You watch no book {number} (you watch {n}). Type watch to see them.", $0,
                                ["number": words[1]])
                        })
                }
                try store.removeWatch(profileID: profileID, card: card, productID: record.productID)
                return CommandOutput(
                    lines: [tr("You no longer watch {title}.", ["title": session.theme.marks.quoted(record.title)])],
                    json: ["removed": record.productID])
            default:
                guard words.count == 1 else { throw UserError.usage(tr("Usage: watch, watch N or watch rm N.")) }
                return try await add(words[0], store: store, profileID: profileID, card: card, session: session)
            }
        })

    static func add(
        _ word: String, store: ShelfStore, profileID: Int64, card: String, session: Session
    ) async throws
        -> CommandOutput
    {
        let picked = try await session.pick(word, command: "watch")
        let product = try await session.product(picked.productID, known: picked.known)
        let title = session.theme.marks.quoted(product.title)
        switch session.ownBooks()[product.id] {
        case .daysLeft?, .fewDaysLeft?, .lastDay?:
            throw UserError(tr("{title} is on loan to you: read it from the shelf.", ["title": title]))
        case let badge? where badge.isReservation:
            throw UserError(tr("You have reserved {title}: bok tells you when it is ready for you.", ["title": title]))
        default: break
        }
        let availability = try await session.library.service.availability(productID: product.id, card: card)
        if availability.available {
            throw UserError(
                tr("{title} can be borrowed now: borrow {word} borrows it.", ["title": title, "word": word]))
        }
        let added = try store.addWatch(
            profileID: profileID, card: card, product: product, now: session.library.clock.now())
        let line =
            added
            ? tr("Watching {title}: bok tells you when it can be borrowed.", ["title": title])
            : tr("You watch {title} already.", ["title": title])
        return CommandOutput(lines: [line], json: ["watching": product.id])
    }

    /// The watched books, each with the library's mark now.
    static func list(_ watched: [WatchRecord], session: Session) async throws -> CommandOutput {
        guard !watched.isEmpty else {
            return CommandOutput(
                lines: [tr("You watch no books. watch N watches a book of the last list.")],
                json: ["watching": [WatchJSON]()])
        }
        let card = session.shelfCard()
        let words = session.availabilityWords
        let theme = session.theme
        var lines = [theme.bold(tr("Watching")) + theme.dim(" (\(watched.count))")]
        var json: [WatchJSON] = []
        let width = max(2, String(watched.count).count)
        for (index, record) in watched.enumerated() {
            let availability = try? await session.library.service.availability(
                productID: record.productID, card: card)
            let number = String(repeating: " ", count: width - String(index + 1).count) + String(index + 1)
            lines.append(
                "\(number)  \(words.mark(availability)) \(theme.marks.middleDot) \(theme.bold(record.title))")
            json.append(
                WatchJSON(productID: record.productID, title: record.title, available: availability?.available))
        }
        lines += ["", theme.dim(tr("bok tells you when one can be borrowed; watch rm N stops watching one."))]
        return CommandOutput(lines: lines, json: ["watching": json])
    }
}

/// `watch --json`: one watched book.
struct WatchJSON: Encodable, Sendable {
    let productID: String
    let title: String
    let available: Bool?
}
