public import Foundation
import GRDB
import TextSafety

extension ShelfStore {
    // MARK: Samples

    /// Keeps a sample on the shelf (again: updates its title, authors and file).
    public func addSample(productID: String, title: String, authors: String = "", path: String? = nil,
                          now: Date = Date()) throws {
        try write { db in
            let addedAt = try SampleRecord.fetchOne(db, key: productID)?.addedAt ?? now
            try SampleRecord(productID: productID, title: SafeText.line(title), authors: SafeText.line(authors),
                             addedAt: addedAt, path: path).upsert(db)
        }
    }

    /// Removes a sample; false when it was not on the shelf.
    @discardableResult
    public func removeSample(productID: String) throws -> Bool {
        try write { db in try SampleRecord.deleteOne(db, key: productID) }
    }

    /// The samples, newest first.
    public func samples() throws -> [SampleRecord] {
        try writer.read { db in try SampleRecord.order(Column("addedAt").desc).fetchAll(db) }
    }

    // MARK: To be read

    /// Puts a title at the end of the to-be-read list; one already there keeps its place.
    public func addToBeRead(productID: String, title: String, authors: String = "", now: Date = Date()) throws {
        try write { db in
            guard try !ToBeReadRecord.exists(db, key: productID) else { return }
            let next = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM toBeRead") ?? 0
            try ToBeReadRecord(productID: productID, title: SafeText.line(title), authors: SafeText.line(authors),
                               addedAt: now, position: next).insert(db)
        }
    }

    /// Takes a title off the to-be-read list; false when it was not there.
    @discardableResult
    public func removeToBeRead(productID: String) throws -> Bool {
        try write { db in try ToBeReadRecord.deleteOne(db, key: productID) }
    }

    /// The to-be-read list in the patron's order.
    public func toBeRead() throws -> [ToBeReadRecord] {
        try writer.read { db in try ToBeReadRecord.order(Column("position")).fetchAll(db) }
    }

    // MARK: Downloads

    /// Records a downloaded file (replacing an earlier one of the same product).
    public func recordDownload(_ download: DownloadRecord) throws {
        try write { db in try download.upsert(db) }
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
        try writer.read { db in try Setting.fetchOne(db, key: key)?.value }
    }

    /// Saves a book's reader settings (a JSON object; the schema rejects anything else).
    public func setBookSettings(bookID: String, json: String) throws {
        try write { db in try BookSettings(bookID: bookID, settings: json).upsert(db) }
    }

    /// A book's reader settings as JSON.
    public func bookSettings(bookID: String) throws -> String? {
        try writer.read { db in try BookSettings.fetchOne(db, key: bookID)?.settings }
    }
}
