import Catalog
import Localization
import Shelf
import Terminal

/// `reserve`, `reservations` and `cancel`: queues for books that are out.
@MainActor
enum ReservationCommands {
    nonisolated static let reserve = Command(
        typedName: TypedWord("typed: command", "reserve"), aliases: ["hold", "queue"],
        synopsis: N_("reserve N | reserve id:PRODUCT"),
        summary: N_("Join the queue for a book that is out; shows your place and an estimated date"),
        details: [
            N_("When a copy comes back and you are first, the book is yours to borrow for 3 days."),
            N_("Examples:  reserve 2     reserve id:100042"),
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        completion: .resultNumbers,
        inCatalogue: OPDSCommands.reserve,
        run: { arguments, session in
            let word = try LoanCommands.single(
                arguments, usage: tr("Usage: reserve N (a number from the last list) or reserve id:PRODUCT."))
            let picked = try await session.pick(word, command: "reserve")
            let (id, known) = (picked.productID, picked.known)
            let (card, pin) = try await PatronCommands.ensurePatron(arguments, command: "reserve", session: session)
            let title = try await session.title(of: picked)
            let q = session.theme.marks.quoted(title)
            switch picked {
            case .loan:
                throw UserError(
                    tr("You have {title} on loan already: read {number} opens it.", ["title": q, "number": word]))
            case .shelf(let item) where item.kind == .loans:
                throw UserError(
                    tr("You have {title} on loan already: read {number} opens it.", ["title": q, "number": word]))
            case .reservation(let reservation):
                throw UserError(
                    reservation.ready
                        ? tr(
                            "You have reserved {title} already and it is ready: borrow {number} takes it.",
                            ["title": q, "number": word])
                        : tr(
                            "You have reserved {title} already, #{place} in the queue.",
                            ["title": q, "place": reservation.queuePosition]))
            case .shelf(let item) where item.kind == .reserved || item.kind == .ready:
                throw UserError(
                    tr(
                        "You have reserved {title} already ({status}).",
                        ["title": q, "status": item.entry.badge?.text ?? tr("in the queue")]))
            default:
                break
            }
            let availability = try await session.library.service.availability(productID: id, card: card)
            if availability.available {
                throw UserError(
                    tr(
                        "{title} can be borrowed now, no need to queue. Type borrow {number}.",
                        ["title": q, "number": word]))
            }
            if availability.reason == .borrower {
                // The library could lend it, so there is no queue to join; only the patron's own limit is in the way.
                let words = session.availabilityWords
                throw UserError(
                    tr(
                        "{title} is not out, so there is no queue to join: {limit}; "
                            + "tbr add {number} keeps it on your to-be-read list until then.",
                        [
                            "title": q,
                            "limit": LoanCommands.limitSentence(words, availability: availability, session: session),
                            "number": word,
                        ]))
            }
            let reservation = try await LoanCommands.settledOnCancel(
                tr(
                    "The library may have placed the reservation already; "
                        + "the next sync settles it (reservations shows it then).")
            ) {
                try await session.library.service.reserve(card: card, pin: pin, productID: id)
            }
            session.keepCoverAddress(of: known)
            await session.syncAfterChange(expected: id)
            let line: String
            if reservation.ready, let until = reservation.readyUntil {
                line = tr(
                    "Reserved {title}, and it is ready for you now: borrow it by {day}.",
                    ["title": q, "day": Words.dayWithWeekday(until, today: session.library.today)])
            } else if let estimate = reservation.estimatedDate {
                line = tr(
                    "Reserved {title}. You are #{place} in the queue, expected around {day}.",
                    [
                        "title": q, "place": reservation.queuePosition,
                        "day": Words.dayWithWeekday(estimate, today: session.library.today),
                    ])
            } else {
                line = tr(
                    "Reserved {title}. You are #{place} in the queue.",
                    ["title": q, "place": reservation.queuePosition])
            }
            return CommandOutput(
                lines: [session.theme.green(line)],
                json: ReservationJSON(reservation, title: title))
        })

    nonisolated static let reservations = Command(
        typedName: TypedWord("typed: command", "reservations"), aliases: ["holds", "queues"],
        synopsis: N_("reservations"),
        summary: N_("Your reservations: place in the queue, estimated date, or ready to borrow"),
        details: [
            N_("Its numbers become the ones info N, borrow N and cancel N use, until another list is shown.")
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "reservations", session: session)
            let list = try await session.library.service.reservations(card: card)
                .sorted(by: Reservation.shownFirst)
            session.lists.reservationList = list
            session.lists.endedFromList = []
            let notice = session.numbersNow(.reservations, count: list.count)
            guard !list.isEmpty else {
                return CommandOutput(
                    lines: [tr("You have no reservations. reserve N joins the queue for a book that is out.")],
                    json: ["reservations": [ReservationJSON]()])
            }
            var lines = [session.theme.bold(trn("{n} reservation", "{n} reservations", list.count))]
            var titles: [String] = []
            for (index, reservation) in list.enumerated() {
                let title = await titleOf(reservation, session: session)
                titles.append(title)
                let status: String
                if reservation.ready, let until = reservation.readyUntil {
                    status = session.theme.paint(
                        tr(
                            "ready — borrow by {day}",
                            ["day": Words.dayWithWeekday(until, today: session.library.today)]),
                        .init(foreground: .green, bold: true))
                } else {
                    status = ShelfStyle.paint(
                        .queued(
                            place: reservation.queuePosition, estimate: reservation.estimatedDate,
                            thisYear: session.library.today.year),
                        theme: session.theme)
                }
                lines.append("\(LoanCommands.pad(index + 1, list.count))  \(session.theme.bold(title))")
                lines.append(
                    "    \(status)" + session.theme.dim(" \(session.theme.marks.middleDot) id:\(reservation.productID)")
                )
            }
            let ready = list.firstIndex(where: \.ready).map { $0 + 1 }
            var advice = tr("cancel N leaves a queue; info N tells more")
            if let ready {
                advice +=
                    "; "
                    + tr(
                        "borrow {number} takes the ready book (or borrow id:{id})",
                        ["number": ready, "id": list[ready - 1].productID])
            }
            lines += [
                "",
                session.theme.dim(([notice.map(Ansi.strip)].compactMap { $0 } + [advice + "."]).joined(separator: " ")),
            ]
            return CommandOutput(
                lines: lines, json: ["reservations": zip(list, titles).map { ReservationJSON($0, title: $1) }])
        })

    nonisolated static let cancel = Command(
        typedName: TypedWord("typed: command", "cancel"), aliases: ["unreserve"],
        synopsis: N_("cancel N [--yes]"),
        summary: N_("Leave a reservation queue (N from reservations)"),
        details: [
            N_(
                "At a terminal it asks Cancel your reservation of “Title”? [y/N] first, with your place in the "
                    + "queue; --yes cancels without asking.")
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin", "yes"],
        completion: .resultNumbers,
        run: { arguments, session in
            let word = try LoanCommands.single(arguments, usage: tr("Usage: cancel N (a number from reservations)."))
            try session.checkWord(word, command: "cancel")
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "cancel", session: session)
            let picked = try await session.pick(word, command: "cancel", fallback: .reservations)
            let reservation = try await reservationOf(picked, word: word, card: card, session: session)
            guard !session.lists.endedFromList.contains(reservation.id) else {
                throw UserError(
                    tr("You have cancelled that reservation already. Type reservations to see the others."))
            }
            let title = await titleOf(reservation, session: session)
            let q = session.theme.marks
            // A place in a queue, once left, is lost: the patron would join again at the end.
            if !arguments.flag("yes"),
                let sure = session.account.prompt?.confirm(
                    reservation.ready
                        ? tr(
                            "Cancel your reservation of {title}? It is ready for you to borrow. [y/N] ",
                            ["title": q.quoted(title)])
                        : tr(
                            "Cancel your reservation of {title}? You would lose your place #{place} in the queue. "
                                + "[y/N] ",
                            ["title": q.quoted(title), "place": reservation.queuePosition])),
                !sure
            {
                return CommandOutput(
                    lines: [tr("Kept your reservation of {title}; nothing was cancelled.", ["title": q.quoted(title)])],
                    json: ["cancelled": String?.none])
            }
            try await LoanCommands.settledOnCancel(
                tr(
                    "The library may have cancelled the reservation already; "
                        + "the next sync settles it (reservations shows it then).")
            ) {
                try await session.library.service.cancelReservation(id: reservation.id, card: card)
            }
            session.lists.endedFromList.insert(reservation.id)
            await session.syncAfterChange(expected: reservation.productID)
            return CommandOutput(
                lines: [tr("Cancelled your reservation of {title}.", ["title": session.theme.marks.quoted(title)])],
                json: ["cancelled": reservation.id])
        })

    /// The reservation `cancel N` means: N of reservations, or the patron's reservation of the book N is.
    static func reservationOf(
        _ picked: Picked, word: String, card: String, session: Session
    ) async throws -> Reservation {
        let q = session.theme.marks
        switch picked {
        case .reservation(let reservation):
            return reservation
        case .loan(let loan):
            throw UserError(
                tr(
                    "{title} is on loan, not reserved: return {number} ends the loan early.",
                    ["title": q.quoted(loan.title), "number": word]))
        case .shelf(let item) where item.kind == .loans:
            throw UserError(
                tr(
                    "{title} is on loan, not reserved: return {number} ends the loan early.",
                    ["title": q.quoted(item.entry.title), "number": word]))
        default:
            let mine = try await session.library.service.reservations(card: card)
            if let reservation = mine.first(where: { $0.productID == picked.productID }) { return reservation }
            let title = try await session.title(of: picked)
            throw UserError(
                tr("You have no reservation of {title}. Type reservations to see yours.", ["title": q.quoted(title)]))
        }
    }

    static func titleOf(_ reservation: Reservation, session: Session) async -> String {
        if let title = reservation.title, !title.isEmpty { return title }
        return (try? await session.library.service.product(id: reservation.productID).title)
            ?? tr("product {id}", ["id": reservation.productID])
    }
}

/// A reservation in `--json` output.
struct ReservationJSON: Encodable, Sendable {
    let id: String
    let productID: String
    let title: String
    let queuePosition: Int
    let estimatedDate: String?
    let ready: Bool
    let readyUntil: String?

    init(_ r: Reservation, title: String) {
        id = r.id
        productID = r.productID
        self.title = title
        queuePosition = r.queuePosition
        estimatedDate = r.estimatedDate?.description
        ready = r.ready
        readyUntil = r.readyUntil?.description
    }
}
