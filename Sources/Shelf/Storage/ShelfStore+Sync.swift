public import Catalog
public import Foundation
import GRDB
import TextSafety

extension ShelfStore {
    /// Brings loans and reservations up to date with the server, for one card of one library.
    ///
    /// Titles and authors are stored safe to draw (``SafeText``) whatever policy the service
    /// decoded them with: a `--json` run gets the server's words verbatim, the shelf never does.
    ///
    /// Loans and reservations are upserted. A loan the server no longer lists as active is marked
    /// ended (`active = false`, `endedAt` set), never deleted, so its position, bookmarks and notes
    /// survive. A loan it does not list at all ends only when its lists are the library's whole
    /// record of the card (`listsAreWhole`). Authors the loan list does not carry are looked up
    /// once per new product.
    /// A profile not saved yet is saved first.
    ///
    /// What changed that the patron did not do here becomes a ``Notice``, told once: a loan
    /// bok had not recorded, a loan ended, one due within ``dueSoonDays`` days of `today`, a
    /// reservation ready or gone. The first sync of a card tells nothing (everything is new then).
    /// - Parameters:
    ///   - today: the library's day, for "due soon"; nil leaves those out.
    ///   - expected: products whose change the patron just made here (a borrow, a return): no notice.
    ///   - listsAreWhole: asked once the lists are fetched: whether they are all the library knows
    ///     of the card. When not (the mock library lending from a private state, which knows
    ///     nothing of the loans made in the state it could not read), loans and reservations
    ///     missing from them are kept as they were instead of ended: a loan is never shown as
    ///     ended because the library could not read its own records.
    /// - Throws: the service's `LendingError`; then nothing is written.
    @discardableResult
    public func sync(
        from service: some LendingService & PatronLending, card: String, profile: LibraryRecord,
        now: Date = Date(), today: DayDate? = nil, expected: Set<String> = [],
        listsAreWhole: @Sendable () async -> Bool = { true }
    ) async throws -> SyncSummary {
        let profileID =
            try profile.id ?? saveLibrary(name: profile.name, baseURL: profile.baseURL, serviceID: profile.serviceID)
            .id!
        let loans = try await service.loans(card: card, onlyActive: false)
        // A plain Elib library takes no reservations (an extension): it has none to sync, and its
        // loans still do.
        let reservations: [Reservation]
        do {
            reservations = try await service.reservations(card: card)
        } catch let error as LendingError where error.kind == .unsupported {
            reservations = []
        }
        // After the lists: a library that lost its records meanwhile has said so by now.
        let whole = await listsAreWhole()

        let known = try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT productID, authors FROM loan WHERE authors <> ''
                    UNION SELECT productID, authors FROM sample WHERE authors <> ''
                    UNION SELECT productID, authors FROM toBeRead WHERE authors <> ''
                    UNION SELECT productID, authors FROM reservation WHERE authors <> ''
                    """)
            return Dictionary(
                rows.map { (row: Row) -> (String, String) in (row["productID"], row["authors"]) },
                uniquingKeysWith: { first, _ in first })
        }
        var authors = known
        for productID in Set(loans.map(\.productID) + reservations.map(\.productID)) where authors[productID] == nil {
            // Best effort: a missing author line is not worth failing the sync for.
            if let product = try? await service.product(id: productID) {
                authors[productID] = Self.authorLine(product)
            }
        }
        let authorsByProduct = authors
        // Watched books the patron does not have: can they be borrowed now?
        let onLoanNow = Set(loans.filter(\.active).map(\.productID))
        let watched = try await writer.read { db in
            try WatchRecord.filter(Column("libraryProfile") == profileID && Column("card") == card).fetchAll(db)
        }
        let watchedAvailable = await Self.watchedAvailability(
            from: service, card: card, watched: watched.filter { !onLoanNow.contains($0.productID) })

        return try await write { db in
            var notices: [Notice] = []
            // A card synced before on this computer: only then is anything "new".
            let known =
                try String.fetchOne(
                    db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [Self.lastCardKey(profileID)])
                == card
                || LoanRecord.filter(Column("libraryProfile") == profileID && Column("card") == card).fetchCount(db) > 0
            func tell(_ kind: Notice.Kind, _ key: String, productID: String, title: String, day: DayDate?) {
                // A loan due soon is told even to a card new on this computer (a reminder, not news of a
                // change); anything else only to a card synced here before.
                // A watched book is told to whoever watches it: they asked for it.
                let reminder = kind == .dueSoon || kind == .watchedAvailable
                guard known || reminder, reminder || !expected.contains(productID) else { return }
                notices.append(
                    Notice(
                        libraryProfile: profileID, card: card, key: key, kind: kind, productID: productID,
                        title: title, day: day, createdAt: now))
            }
            let existingLoans =
                try LoanRecord
                .filter(Column("libraryProfile") == profileID && Column("card") == card).fetchAll(db)
            let byID = Dictionary(existingLoans.map { ($0.loanID, $0) }, uniquingKeysWith: { a, _ in a })
            var seen = Set<String>()
            var newlyEnded = 0
            for loan in loans {
                seen.insert(loan.id)
                let old = byID[loan.id]
                var record = LoanRecord(
                    libraryProfile: profileID, card: card, loanID: loan.id, productID: loan.productID,
                    title: loan.title.isEmpty ? (old?.title ?? "") : SafeText.line(loan.title),
                    authors: authorsByProduct[loan.productID].map(SafeText.line) ?? old?.authors ?? "",
                    expiryDate: loan.expiryDate, createdDate: loan.createdDate ?? old?.createdDate,
                    active: loan.active, endedAt: nil, syncedAt: now)
                if !loan.active {
                    if old?.active == true {
                        newlyEnded += 1
                        tell(
                            .loanEnded, "ended:\(loan.id)", productID: loan.productID, title: record.title,
                            day: loan.expiryDate)
                    }
                    // Never later than the library's now: an end recorded in a future its clock has
                    // since left (`mock clock +4w`, then `mock reset`) did not happen yet.
                    record.endedAt = min(
                        now, old?.endedAt ?? loan.expiryDate.adding(days: 1).startDate(in: TimeZone(identifier: "UTC")!)
                    )
                } else {
                    if old == nil {
                        tell(
                            .loanMade, "made:\(loan.id)", productID: loan.productID, title: record.title,
                            day: loan.expiryDate)
                    }
                    if let today, today.days(until: loan.expiryDate) <= Self.dueSoonDays {
                        tell(
                            .dueSoon, "due:\(loan.id)", productID: loan.productID, title: record.title,
                            day: loan.expiryDate)
                    }
                }
                try record.upsert(db)
            }
            for var gone in existingLoans where whole && !seen.contains(gone.loanID) {
                if gone.active {
                    gone.active = false
                    gone.endedAt = now
                    newlyEnded += 1
                    tell(.loanEnded, "ended:\(gone.loanID)", productID: gone.productID, title: gone.title, day: nil)
                } else if let ended = gone.endedAt, ended > now {
                    // Ended in a future the library's clock has left (see above): it ended by now at the latest.
                    gone.endedAt = now
                } else {
                    continue
                }
                gone.syncedAt = now
                try gone.update(db)
            }

            let existingReservations =
                try ReservationRecord
                .filter(Column("libraryProfile") == profileID && Column("card") == card).fetchAll(db)
            let oldTitles = Dictionary(
                existingReservations.map { ($0.reservationID, $0.title) }, uniquingKeysWith: { a, _ in a })
            var seenReservations = Set<String>()
            let wasReady = Dictionary(
                existingReservations.map { ($0.reservationID, $0.ready && $0.active) }, uniquingKeysWith: { a, _ in a })
            for reservation in reservations {
                seenReservations.insert(reservation.id)
                if reservation.ready, wasReady[reservation.id] != true {
                    tell(
                        .reservationReady, "ready:\(reservation.id)", productID: reservation.productID,
                        title: reservation.title.map(SafeText.line) ?? oldTitles[reservation.id] ?? "",
                        day: reservation.readyUntil)
                }
                try ReservationRecord(
                    libraryProfile: profileID, card: card, reservationID: reservation.id,
                    productID: reservation.productID,
                    title: reservation.title.map(SafeText.line) ?? oldTitles[reservation.id] ?? "",
                    authors: authorsByProduct[reservation.productID].map(SafeText.line) ?? "",
                    queuePosition: reservation.queuePosition,
                    estimatedDate: reservation.estimatedDate, ready: reservation.ready,
                    readyUntil: reservation.readyUntil,
                    syncedAt: now, active: true
                ).upsert(db)
            }
            let onLoan = Set(loans.filter(\.active).map(\.productID))
            for var gone in existingReservations
            where whole && gone.active && !seenReservations.contains(gone.reservationID) {
                gone.active = false
                gone.syncedAt = now
                try gone.update(db)
                // Borrowed (here or elsewhere) is not news; gone without a loan is.
                if !onLoan.contains(gone.productID) {
                    tell(
                        .reservationEnded, "gone:\(gone.reservationID)", productID: gone.productID, title: gone.title,
                        day: gone.ready ? gone.readyUntil : nil)
                }
            }
            // A watched book the patron now has is watched no more; one that can be borrowed
            // again since the last sync is told, once a day at most.
            for var record in try WatchRecord.filter(Column("libraryProfile") == profileID && Column("card") == card)
                .fetchAll(db)
            {
                if onLoanNow.contains(record.productID) {
                    try record.delete(db)
                    continue
                }
                guard let available = watchedAvailable[record.productID], available != record.available else {
                    continue
                }
                if available {
                    let day = today ?? DayDate(now, in: TimeZone(identifier: "UTC")!)
                    tell(
                        .watchedAvailable, "watch:\(record.productID):\(day)", productID: record.productID,
                        title: record.title, day: nil)
                }
                record.available = available
                try record.update(db)
            }
            // Told once: a key already stored (another process, an earlier sync) is not told again.
            var told: [Notice] = []
            for notice in notices {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO notice (libraryProfile, card, key, kind, productID, title, day, createdAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        notice.libraryProfile, notice.card, notice.key, notice.kind.rawValue, notice.productID,
                        notice.title, notice.day?.description, StoredDate(notice.createdAt),
                    ])
                if db.changesCount > 0 { told.append(notice) }
            }

            try db.execute(
                sql: "UPDATE libraryProfile SET lastSyncedAt = ? WHERE id = ?", arguments: [StoredDate(now), profileID])
            // The card is remembered with the sync, so the shelf can show it offline after a restart.
            try Setting(key: Self.lastCardKey(profileID), value: card).upsert(db)
            return SyncSummary(
                activeLoans: loans.filter(\.active).count, newlyEnded: newlyEnded,
                reservations: reservations.count, syncedAt: now, notices: told)
        }
    }

    /// The library went back to its seed (`mock reset`): what the shelf learnt from it since goes
    /// with it. Loans and reservations of every card are forgotten (the next sync finds the seed's
    /// as they are), and so are notices dated from `now` on, told in a future the library's clock
    /// has left. Positions, bookmarks, notes, samples and the to-be-read list are the patron's own
    /// and stay, as does the card the shelf shows.
    public func forgetLending(profileID: Int64, from now: Date) throws {
        try write { db in
            try LoanRecord.filter(Column("libraryProfile") == profileID).deleteAll(db)
            try ReservationRecord.filter(Column("libraryProfile") == profileID).deleteAll(db)
            try Self.forgetNotices(db, profileID: profileID, from: now)
        }
    }

    /// Forgets the notices of a library dated from `now` on: the first sync after a reset tells
    /// the seed's state, which is a fresh start and not news.
    public func forgetNotices(profileID: Int64, from now: Date) throws {
        try write { db in try Self.forgetNotices(db, profileID: profileID, from: now) }
    }

    private static func forgetNotices(_ db: Database, profileID: Int64, from now: Date) throws {
        try Notice.filter(Column("libraryProfile") == profileID && Column("createdAt") >= StoredDate(now)).deleteAll(db)
    }

    /// A loan whose last day is this many days away or fewer is "due soon".
    public static let dueSoonDays = 3

    /// The notices of a card at a library, newest first, from the last `days` days.
    public func notices(profileID: Int64, card: String, since: Date) throws -> [Notice] {
        try writer.read { db in
            try Notice.filter(
                Column("libraryProfile") == profileID && Column("card") == card
                    && Column("createdAt") >= StoredDate(since)
            )
            .order(Column("createdAt").desc, Column("id").desc).fetchAll(db)
        }
    }

    /// The card last synced at a library on this computer (the card numbers a patron, not a secret).
    public func lastSyncedCard(profileID: Int64) throws -> String? {
        try setting(Self.lastCardKey(profileID))
    }

    /// Forgets the last synced card (`logout`): the shelf then shows no one's loans.
    public func forgetLastSyncedCard(profileID: Int64) throws {
        try removeSetting(Self.lastCardKey(profileID))
    }

    /// The setting that holds it.
    public static func lastCardKey(_ profileID: Int64) -> String { "lastCard.\(profileID)" }

    /// `Anna Ek, Bo Ström` — the product's authors as the shelf shows them.
    public static func authorLine(_ product: Product) -> String {
        product.authors.map(\.fullName).joined(separator: ", ")
    }
}
