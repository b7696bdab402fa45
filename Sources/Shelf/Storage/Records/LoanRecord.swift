public import Catalog
public import Foundation
public import GRDB

/// A loan as last synced. Ended loans stay (`active = false`, `endedAt` set) so their notes stay findable.
public struct LoanRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The profile the loan was synced from.
    public var libraryProfile: Int64
    /// The library card the loan is on ('' in rows synced before cards were recorded).
    public var card: String
    /// Upstream's loan id.
    public var loanID: String
    /// The product lent.
    public var productID: String
    /// The title.
    public var title: String
    /// The authors, as displayed (`Anna Ek, Bo Ström`).
    public var authors: String
    /// The loan's last day.
    public var expiryDate: DayDate
    /// When the loan was made.
    public var createdDate: Date?
    /// False once the loan has ended.
    public var active: Bool
    /// When bok learnt that the loan had ended.
    public var endedAt: Date?
    /// When this row was last synced.
    public var syncedAt: Date

    public static let databaseTableName = "loan"

    /// Creates a record.
    public init(
        libraryProfile: Int64, card: String = "", loanID: String, productID: String, title: String,
        authors: String = "",
        expiryDate: DayDate, createdDate: Date? = nil, active: Bool = true, endedAt: Date? = nil, syncedAt: Date
    ) {
        self.libraryProfile = libraryProfile
        self.card = card
        self.loanID = loanID
        self.productID = productID
        self.title = title
        self.authors = authors
        self.expiryDate = expiryDate
        self.createdDate = createdDate
        self.active = active
        self.endedAt = endedAt
        self.syncedAt = syncedAt
    }
}
