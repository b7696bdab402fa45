public import Foundation
import GRDB
public import ReadingState
import TextSafety

extension ShelfStore {
    // MARK: Samples and the to-be-read list, per card
    //
    // Each belongs to the card that added it (`card`), so two patrons on one computer keep their
    // own; '' is a row added with no card known (or before cards were recorded), shown to all.

    /// Keeps a sample on the shelf (again: updates its title, authors and file).
    public func addSample(
        card: String = "", productID: String, title: String, authors: String = "", path: String? = nil,
        now: Date = Date()
    ) throws {
        try write { db in
            let addedAt = try SampleRecord.fetchOne(db, key: ["card": card, "productID": productID])?.addedAt ?? now
            try SampleRecord(
                card: card, productID: productID, title: SafeText.line(title), authors: SafeText.line(authors),
                addedAt: addedAt, path: path
            ).upsert(db)
        }
    }

    /// Removes a sample of `card` (or one shown to every card); false when it was not on the shelf.
    @discardableResult
    public func removeSample(card: String = "", productID: String) throws -> Bool {
        try write { db in
            try SampleRecord.filter(Column("productID") == productID && [card, ""].contains(Column("card"))).deleteAll(
                db) > 0
        }
    }

    /// The samples `card` sees, newest first.
    public func samples(card: String = "") throws -> [SampleRecord] {
        try writer.read { db in
            try SampleRecord.filter([card, ""].contains(Column("card"))).order(Column("addedAt").desc).fetchAll(db)
        }
    }

    /// Puts a title at the end of `card`'s to-be-read list; one already there keeps its place.
    public func addToBeRead(
        card: String = "", productID: String, title: String, authors: String = "", now: Date = Date()
    ) throws {
        try write { db in
            let mine = ToBeReadRecord.filter([card, ""].contains(Column("card")))
            guard try mine.filter(Column("productID") == productID).fetchCount(db) == 0 else { return }
            let next = try Int.fetchOne(db, mine.select(max(Column("position")) + 1)) ?? 0
            try ToBeReadRecord(
                card: card, productID: productID, title: SafeText.line(title), authors: SafeText.line(authors),
                addedAt: now, position: next
            ).insert(db)
        }
    }

    /// Takes a title off `card`'s to-be-read list; false when it was not there.
    @discardableResult
    public func removeToBeRead(card: String = "", productID: String) throws -> Bool {
        try write { db in
            try ToBeReadRecord.filter(Column("productID") == productID && [card, ""].contains(Column("card")))
                .deleteAll(db) > 0
        }
    }

    /// `card`'s to-be-read list in the patron's order.
    public func toBeRead(card: String = "") throws -> [ToBeReadRecord] {
        try writer.read { db in
            try ToBeReadRecord.filter([card, ""].contains(Column("card"))).order(Column("position")).fetchAll(db)
        }
    }

    // MARK: Downloads

    /// Records a downloaded file (replacing an earlier one of the same product).
    ///
    /// The shelf's record of a download is where "this file is that product" is decided: `book`,
    /// the reader's id of the book in the file (nil for a file that does not open as a book), is
    /// recorded with it, in one write, so that the product's place and notes are the book's.
    public func recordDownload(_ download: DownloadRecord, book: BookID? = nil) throws {
        try write { db in
            try download.upsert(db)
            if let book { try Self.recordBookIdentity(db, productID: download.productID, bookID: book) }
        }
    }

    /// The recorded download of a product.
    public func download(productID: String) throws -> DownloadRecord? {
        try writer.read { db in try DownloadRecord.fetchOne(db, key: productID) }
    }

    /// Forgets a download (the caller deletes the file); false when none was recorded.
    @discardableResult
    public func removeDownload(productID: String) throws -> Bool {
        try write { db in try DownloadRecord.deleteOne(db, key: productID) }
    }

    // MARK: Loans and reservations as stored

    /// Stored loans, active first, then by expiry.
    public func loans(includeEnded: Bool = true) throws -> [LoanRecord] {
        try writer.read { db in
            var request = LoanRecord.order(Column("active").desc, Column("expiryDate"))
            if !includeEnded { request = request.filter(Column("active") == true) }
            return try request.fetchAll(db)
        }
    }

    /// Stored reservations that are still active.
    public func reservations() throws -> [ReservationRecord] {
        try writer.read { db in
            try ReservationRecord.filter(Column("active") == true).order(Column("queuePosition")).fetchAll(db)
        }
    }

    // MARK: Settings

    /// Sets an application setting.
    public func setSetting(_ key: String, to value: String) throws {
        try write { db in try Setting(key: key, value: value).upsert(db) }
    }

    /// Forgets an application setting.
    public func removeSetting(_ key: String) throws {
        try write { db in _ = try Setting.deleteOne(db, key: key) }
    }

    /// An application setting's value.
    public func setting(_ key: String) throws -> String? {
        // A cached statement: the reader asks for its defaults each time it opens a book.
        try writer.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM setting WHERE key = ?"), arguments: [key])
        }
    }

    /// Saves a book's reader settings (a JSON object; the schema rejects anything else).
    public func setBookSettings(bookID: String, json: String) throws {
        try write { db in try BookSettings(bookID: bookID, settings: json).upsert(db) }
    }

    /// A book's reader settings as JSON.
    public func bookSettings(bookID: String) throws -> String? {
        try writer.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT settings FROM bookSettings WHERE bookID = ?"), arguments: [bookID])
        }
    }
}
