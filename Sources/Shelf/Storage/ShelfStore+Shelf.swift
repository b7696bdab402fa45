public import Catalog
import Foundation
import GRDB

extension ShelfStore {
    /// The shelf as the patron sees it on `today`: Loans, Ended, Ready to borrow, Reserved, Samples, To be read.
    ///
    /// Badges are derived from `today`, so a loan whose last day has passed moves to Ended at
    /// midnight without a sync. Empty sections are left out.
    ///
    /// With a `scope`, loans and reservations are those of one card at one library, and samples
    /// and the to-be-read list those of that card (and any added with no card known).
    public func shelf(today: DayDate, sort: ShelfSort = ShelfSort(), scope: ShelfScope? = nil) throws -> Shelf {
        // One read transaction, so the sections agree with each other even while another process writes.
        let snapshot = try writer.read { db in
            // SQL written out: the query interface built it again at every shelf.
            var reservationSQL = "SELECT * FROM reservation WHERE active = 1"
            var reservationArguments: StatementArguments = []
            if let scope {
                reservationSQL += " AND libraryProfile = ? AND card = ?"
                reservationArguments = [scope.profileID, scope.card]
            }
            // Loans that ended before the window are not read: a long history costs the shelf nothing.
            let loans = try Self.fetchLoans(db, scope: scope, endedSince: today.adding(days: -endedWindowDays - 1))
            let reservations = try ReservationRecord.fetchAll(db, sql: reservationSQL, arguments: reservationArguments)
            let cards = scope.map { [$0.card, ""] }
            let samples = try Self.fetchSamples(db, cards: cards)
            let toBeRead = try ToBeReadRecord.fetchAll(
                db,
                sql: "SELECT * FROM toBeRead" + (cards == nil ? "" : " WHERE card IN (?, ?)") + " ORDER BY position",
                arguments: StatementArguments(cards ?? []))
            let shown = Set(
                loans.map(\.productID) + reservations.map(\.productID) + samples.map(\.productID)
                    + toBeRead.map(\.productID))
            let percent = try Self.percentRead(db, of: shown)
            let downloaded = try String.fetchSet(db, sql: "SELECT productID FROM download")
            return (
                loans: loans, reservations: reservations, samples: samples, toBeRead: toBeRead,
                percent: percent, downloaded: downloaded
            )
        }
        func entry(
            _ productID: String, _ title: String, _ authors: String, _ badge: Badge?, upstreamID: String? = nil,
            day: DayDate? = nil, recent: Date?
        ) -> Shelf.Entry {
            let read = snapshot.percent[productID]
            return Shelf.Entry(
                productID: productID, title: title, authors: authors, badge: badge, percentRead: read?.0,
                isDownloaded: snapshot.downloaded.contains(productID), upstreamID: upstreamID,
                daysLeft: day.map { today.days(until: $0) }, recent: [recent, read?.1].compactMap(\.self).max())
        }

        var loans: [Shelf.Entry] = []
        var ended: [(entry: Shelf.Entry, productID: String)] = []
        let utc = TimeZone(identifier: "UTC")!
        let windowStart = today.adding(days: -endedWindowDays)
        for loan in snapshot.loans {
            let badge = Badge.loan(expiry: loan.expiryDate, today: today)
            if loan.active && badge != .ended {
                loans.append(
                    entry(
                        loan.productID, loan.title, loan.authors, badge, upstreamID: loan.loanID,
                        day: loan.expiryDate, recent: loan.createdDate ?? loan.syncedAt))
            } else {
                // The first day without the book: the day it was returned, or the day after its last day.
                let endedDay = min(
                    loan.endedAt.map { DayDate($0, in: utc) } ?? loan.expiryDate.adding(days: 1),
                    loan.expiryDate.adding(days: 1))
                guard endedDay >= windowStart else { continue }
                ended.append(
                    (
                        entry(
                            loan.productID, loan.title, loan.authors, .ended, upstreamID: loan.loanID,
                            recent: loan.endedAt ?? loan.expiryDate.adding(days: 1).startDate(in: utc)), loan.productID
                    ))
            }
        }
        // A book borrowed again is a loan, not also an ended one; one ended entry per book.
        let onLoan = Set(loans.map(\.productID))
        var seenEnded = Set<String>()
        // Their places sorted, not the entries: moving a whole entry at every step cost more than comparing.
        let endedRecent = ended.map { $0.entry.recent ?? .distantPast }
        let endedEntries = ended.indices.sorted { endedRecent[$0] > endedRecent[$1] }.map { ended[$0] }
            .filter { !onLoan.contains($0.productID) && seenEnded.insert($0.productID).inserted }.map(\.entry)

        var ready: [Shelf.Entry] = []
        var reserved: [Shelf.Entry] = []
        for reservation in snapshot.reservations where !onLoan.contains(reservation.productID) {
            if reservation.ready {
                // A ready reservation with no last day from the server is still ready; one past it has lapsed.
                if let until = reservation.readyUntil {
                    guard until >= today else { continue }
                    ready.append(
                        entry(
                            reservation.productID, reservation.title, reservation.authors, .ready(until: until),
                            upstreamID: reservation.reservationID, day: until, recent: reservation.syncedAt))
                } else {
                    ready.append(
                        entry(
                            reservation.productID, reservation.title, reservation.authors, .ready(until: today),
                            upstreamID: reservation.reservationID, day: today, recent: reservation.syncedAt))
                }
            } else {
                reserved.append(
                    entry(
                        reservation.productID, reservation.title, reservation.authors,
                        .queued(
                            place: reservation.queuePosition, estimate: reservation.estimatedDate,
                            thisYear: today.year),
                        upstreamID: reservation.reservationID, day: reservation.estimatedDate,
                        recent: reservation.syncedAt))
            }
        }
        let samples = snapshot.samples.map { entry($0.productID, $0.title, $0.authors, .sample, recent: $0.addedAt) }
        let toBeRead = snapshot.toBeRead.map { entry($0.productID, $0.title, $0.authors, nil, recent: $0.addedAt) }

        let sections: [(Shelf.SectionKind, [Shelf.Entry])] = [
            (.loans, sort.sorted(loans, collation: collation)),
            (.ended, sort.key == .days ? endedEntries : sort.sorted(endedEntries, collation: collation)),
            (.ready, sort.sorted(ready, collation: collation)),
            (
                .reserved,
                sort.key == .days ? sortedByQueue(reserved, sort: sort) : sort.sorted(reserved, collation: collation)
            ),
            (.samples, sort.sorted(samples, collation: collation)),
            // The to-be-read list keeps the patron's own order unless asked for another.
            (.toBeRead, sort.key == .days ? toBeRead : sort.sorted(toBeRead, collation: collation)),
        ]
        return Shelf(sections: sections.filter { !$0.1.isEmpty }.map { Shelf.Section(kind: $0.0, entries: $0.1) })
    }

    /// How much of each product is read, with when: that of its book file (by the reader's book
    /// id), or one stored under its own id; the latest wins. A book file's position is read once,
    /// under its product (the index on `bookIdentity.bookID` skips it in the second part). With
    /// `products`, only theirs: the positions of books long returned are read past, their dates
    /// never parsed.
    static func percentRead(_ db: Database, of products: Set<String>? = nil) throws -> [String: (Double, Date)] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT productID, percent, updatedAt FROM bookIdentity JOIN readingPosition USING (bookID)
                UNION ALL SELECT bookID, percent, updatedAt FROM readingPosition
                WHERE bookID NOT IN (SELECT bookID FROM bookIdentity)
                """)
        var percent: [String: (Double, Date)] = [:]
        while let row = try rows.next() {
            // By index: GRDB's lookup by name folds case on every access, which a shelf of a
            // thousand books feels.
            let id: String = row[0]
            if let products, !products.contains(id) { continue }
            let value: (Double, Date) = (row[1], (row[2] as StoredDate).date)
            if let known = percent[id], known.1 >= value.1 { continue }
            percent[id] = value
        }
        return percent
    }

    /// Every loan of a card at a library recorded on this computer, newest first, however long
    /// ago it ended (the shelf shows ended loans for a month; the history keeps them all).
    public func loanHistory(scope: ShelfScope) throws -> [LoanHistoryEntry] {
        try writer.read { db in
            let percent = try Self.percentRead(db)
            let utc = TimeZone(identifier: "UTC")!
            return try Self.fetchLoans(db, scope: scope).map { loan in
                // The last day with the book: the day before it was returned, or its last day.
                let ended = loan.endedAt.map { min(DayDate($0, in: utc).adding(days: -1), loan.expiryDate) }
                return LoanHistoryEntry(
                    productID: loan.productID, title: loan.title, authors: loan.authors,
                    borrowed: loan.createdDate.map { DayDate($0, in: utc) }, lastDay: loan.expiryDate,
                    ended: loan.active ? nil : ended ?? loan.expiryDate, percentRead: percent[loan.productID]?.0)
            }
            .sorted { ($0.borrowed ?? $0.lastDay, $0.title) > ($1.borrowed ?? $1.lastDay, $1.title) }
        }
    }

    /// The loans a shelf shows, decoded by column index (a shelf may hold a thousand).
    /// - Parameter endedSince: when given, only active loans and those whose last day is on or
    ///   after it (a superset of the loans that ended since).
    private static func fetchLoans(
        _ db: Database, scope: ShelfScope?, endedSince: DayDate? = nil
    ) throws -> [LoanRecord] {
        var sql = """
            SELECT libraryProfile, card, loanID, productID, title, authors, expiryDate, createdDate, active, endedAt, \
            syncedAt
            FROM loan
            """
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let scope {
            conditions.append("libraryProfile = ? AND card = ?")
            arguments += [scope.profileID, scope.card]
        }
        if let endedSince {
            // Days are YYYY-MM-DD text, which compares as the days do.
            conditions.append("(active OR expiryDate >= ?)")
            arguments += [endedSince]
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        return try Row.fetchCursor(db, sql: sql, arguments: arguments).map { row in
            LoanRecord(
                libraryProfile: row[0], card: row[1], loanID: row[2], productID: row[3], title: row[4], authors: row[5],
                expiryDate: row[6], createdDate: (row[7] as StoredDate?)?.date, active: row[8],
                endedAt: (row[9] as StoredDate?)?.date, syncedAt: (row[10] as StoredDate).date)
        }.reduce(into: []) { $0.append($1) }
    }

    /// The samples of `cards` (all without), decoded by column index (a shelf may hold thousands).
    private static func fetchSamples(_ db: Database, cards: [String]?) throws -> [SampleRecord] {
        var sql = "SELECT card, productID, title, authors, addedAt, path FROM sample"
        if let cards { sql += " WHERE card IN (\(cards.map { _ in "?" }.joined(separator: ", ")))" }
        return try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(cards ?? [])).map { row in
            SampleRecord(
                card: row[0], productID: row[1], title: row[2], authors: row[3], addedAt: (row[4] as StoredDate).date,
                path: row[5])
        }.reduce(into: []) { $0.append($1) }
    }

    /// Reservations by place in the queue (nearest first when ascending).
    private func sortedByQueue(_ entries: [Shelf.Entry], sort: ShelfSort) -> [Shelf.Entry] {
        func place(_ e: Shelf.Entry) -> Int { if case .queued(let p, _, _) = e.badge { p } else { .max } }
        let sorted = entries.sorted {
            place($0) != place($1) ? place($0) < place($1) : collation.key($0.title) < collation.key($1.title)
        }
        return sort.order == .ascending ? sorted : sorted.reversed()
    }
}

/// Whose loans and reservations a shelf shows: one card at one library.
public struct ShelfScope: Sendable, Hashable {
    /// The library profile's row id.
    public var profileID: Int64
    /// The library card.
    public var card: String

    /// Creates a scope.
    public init(profileID: Int64, card: String) {
        self.profileID = profileID
        self.card = card
    }
}

/// One loan of the history (`history`): when it was borrowed and until when the patron had it.
public struct LoanHistoryEntry: Sendable, Hashable {
    public var productID: String
    public var title: String
    /// As displayed (`Anna Ek, Bo Ström`).
    public var authors: String
    /// The day it was borrowed, when the library said.
    public var borrowed: DayDate?
    /// The loan's last day.
    public var lastDay: DayDate
    /// The last day the patron had it, once the loan has ended; nil while it runs.
    public var ended: DayDate?
    /// How much of it is read, 0–100, when it was opened.
    public var percentRead: Double?
}
