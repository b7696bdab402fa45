import Catalog
import Shelf
import Terminal

/// `reserve`, `reservations` and `cancel`: queues for books that are out.
@MainActor
enum ReservationCommands {
    static let reserve = Command(
        name: "reserve", aliases: ["hold", "queue"],
        synopsis: "reserve N | reserve id:PRODUCT",
        summary: "Join the queue for a book that is out; shows your place and an estimated date",
        details: [
            "When a copy comes back and you are first, the book is yours to borrow for 3 days.",
            "Examples:  reserve 2     reserve id:100042",
        ],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        completion: .resultNumbers,
        run: { arguments, session in
            let word = try LoanCommands.single(arguments, usage: "reserve N (a number from the last list) or reserve id:PRODUCT")
            let (id, known) = try session.resolve(word, command: "reserve")
            let (card, pin) = try await PatronCommands.ensurePatron(arguments, command: "reserve", session: session)
            let title = try await LoanCommands.titleOf(id, known: known, session: session)
            let q = session.theme.marks.quoted(title)
            let availability = try await session.service.availability(productID: id, card: card)
            if availability.available {
                throw UserError("\(q) can be borrowed now, no need to queue. Type borrow \(word).")
            }
            if availability.reason == .borrower {
                // The library could lend it, so there is no queue to join; only the patron's own limit is in the way.
                let words = AvailabilityWords(session: session)
                throw UserError("\(q) is not out, so there is no queue to join: \(LoanCommands.limitSentence(words, session: session)) "
                                + "tbr add \(word) keeps it on your to-be-read list until then.")
            }
            let reservation = try await session.service.reserve(card: card, pin: pin, productID: id)
            await session.syncAfterChange()
            session.reservationList = []
            var line = "Reserved \(q). You are #\(reservation.queuePosition) in the queue"
            if reservation.ready, let until = reservation.readyUntil {
                line = "Reserved \(q), and it is ready for you now: borrow it by \(Words.dayWithWeekday(until, today: session.today))"
            } else if let estimate = reservation.estimatedDate {
                line += ", expected around \(Words.dayWithWeekday(estimate, today: session.today))"
            }
            return CommandOutput(lines: [session.theme.green(line + ".")],
                                 json: ReservationJSON(reservation, title: title))
        })

    static let reservations = Command(
        name: "reservations", aliases: ["holds", "queues"],
        synopsis: "reservations",
        summary: "Your reservations: place in the queue, estimated date, or ready to borrow",
        details: ["Numbers here are for cancel N."],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "reservations", session: session)
            let list = try await session.service.reservations(card: card)
                .sorted { ($0.ready ? 0 : 1, $0.queuePosition) < ($1.ready ? 0 : 1, $1.queuePosition) }
            session.reservationList = list
            guard !list.isEmpty else {
                return CommandOutput(lines: ["You have no reservations. reserve N joins the queue for a book that is out."],
                                     json: ["reservations": [ReservationJSON]()])
            }
            var lines = [session.theme.bold("\(list.count) \(list.count == 1 ? "reservation" : "reservations")")]
            var titles: [String] = []
            for (index, reservation) in list.enumerated() {
                let title = await titleOf(reservation, session: session)
                titles.append(title)
                let status: String
                if reservation.ready, let until = reservation.readyUntil {
                    status = session.theme.paint("ready — borrow by \(Words.dayWithWeekday(until, today: session.today))", .init(foreground: .green, bold: true))
                } else {
                    status = ShelfStyle.paint(.queued(place: reservation.queuePosition, estimate: reservation.estimatedDate), theme: session.theme)
                }
                lines.append("\(LoanCommands.pad(index + 1, list.count))  \(session.theme.bold(title))")
                lines.append("    \(status)")
            }
            lines += ["", session.theme.dim("cancel N leaves a queue; borrow id:PRODUCT takes a ready book.")]
            return CommandOutput(lines: lines, json: ["reservations": zip(list, titles).map { ReservationJSON($0, title: $1) }])
        })

    static let cancel = Command(
        name: "cancel", aliases: ["unreserve"],
        synopsis: "cancel N",
        summary: "Leave a reservation queue (N from reservations)",
        details: [],
        valued: PatronCommands.patronOptions, flags: ["pin-stdin"],
        run: { arguments, session in
            let word = try LoanCommands.single(arguments, usage: "cancel N (a number from reservations)")
            let (card, _) = try await PatronCommands.ensurePatron(arguments, command: "cancel", session: session)
            if session.reservationList.isEmpty {
                session.reservationList = try await session.service.reservations(card: card)
            }
            let reservation = try LoanCommands.pick(word, from: session.reservationList, what: "reservation", listCommand: "reservations")
            try await session.service.cancelReservation(id: reservation.id, card: card)
            await session.syncAfterChange()
            session.reservationList = []
            let title = await titleOf(reservation, session: session)
            return CommandOutput(lines: ["Cancelled your reservation of \(session.theme.marks.quoted(title))."],
                                 json: ["cancelled": reservation.id])
        })

    static func titleOf(_ reservation: Reservation, session: Session) async -> String {
        if let title = reservation.title, !title.isEmpty { return title }
        return (try? await session.service.product(id: reservation.productID).title) ?? "product \(reservation.productID)"
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
