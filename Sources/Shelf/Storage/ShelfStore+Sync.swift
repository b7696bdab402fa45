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
    /// survive. Authors the loan list does not carry are looked up once per new product.
    /// A profile not saved yet is saved first.
    /// - Throws: the service's `LendingError`; then nothing is written.
    @discardableResult
    public func sync(from service: some LendingService & PatronLending, card: String, profile: LibraryProfile,
                     now: Date = Date()) async throws -> SyncSummary {
        let profileID = try profile.id ?? saveProfile(name: profile.name, baseURL: profile.baseURL, serviceID: profile.serviceID).id!
        let loans = try await service.loans(card: card, onlyActive: false)
        let reservations = try await service.reservations(card: card)

        let known = try await writer.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT productID, authors FROM loan WHERE authors <> ''
                UNION SELECT productID, authors FROM sample WHERE authors <> ''
                UNION SELECT productID, authors FROM toBeRead WHERE authors <> ''
                UNION SELECT productID, authors FROM reservation WHERE authors <> ''
                """)
            return Dictionary(rows.map { (row: Row) -> (String, String) in (row["productID"], row["authors"]) },
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

        return try await write { db in
            let existingLoans = try LoanRecord
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
                    if old?.active == true { newlyEnded += 1 }
                    record.endedAt = old?.endedAt ?? min(now, loan.expiryDate.adding(days: 1).startDate(in: TimeZone(identifier: "UTC")!))
                }
                try record.upsert(db)
            }
            for var gone in existingLoans where gone.active && !seen.contains(gone.loanID) {
                gone.active = false
                gone.endedAt = now
                gone.syncedAt = now
                try gone.update(db)
                newlyEnded += 1
            }

            let existingReservations = try ReservationRecord
                .filter(Column("libraryProfile") == profileID && Column("card") == card).fetchAll(db)
            let oldTitles = Dictionary(existingReservations.map { ($0.reservationID, $0.title) }, uniquingKeysWith: { a, _ in a })
            var seenReservations = Set<String>()
            for reservation in reservations {
                seenReservations.insert(reservation.id)
                try ReservationRecord(
                    libraryProfile: profileID, card: card, reservationID: reservation.id, productID: reservation.productID,
                    title: reservation.title.map(SafeText.line) ?? oldTitles[reservation.id] ?? "",
                    authors: authorsByProduct[reservation.productID].map(SafeText.line) ?? "", queuePosition: reservation.queuePosition,
                    estimatedDate: reservation.estimatedDate, ready: reservation.ready, readyUntil: reservation.readyUntil,
                    syncedAt: now, active: true
                ).upsert(db)
            }
            for var gone in existingReservations where gone.active && !seenReservations.contains(gone.reservationID) {
                gone.active = false
                gone.syncedAt = now
                try gone.update(db)
            }

            try db.execute(sql: "UPDATE libraryProfile SET lastSyncedAt = ? WHERE id = ?", arguments: [now, profileID])
            // The card is remembered with the sync, so the shelf can show it offline after a restart.
            try Setting(key: Self.lastCardKey(profileID), value: card).upsert(db)
            return SyncSummary(activeLoans: loans.filter(\.active).count, newlyEnded: newlyEnded,
                               reservations: reservations.count, syncedAt: now)
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
