public import Catalog
public import Foundation
public import GRDB

/// A reservation as last synced; one gone from the server is kept inactive.
public struct ReservationRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// The profile it was synced from.
    public var libraryProfile: Int64
    /// The library card the reservation is on ('' in rows synced before cards were recorded).
    public var card: String
    /// The authors, as displayed.
    public var authors: String
    /// Upstream's reservation id.
    public var reservationID: String
    /// The product reserved.
    public var productID: String
    /// The title.
    public var title: String
    /// Place in the queue, 1 = next.
    public var queuePosition: Int
    /// When the patron's turn is expected.
    public var estimatedDate: DayDate?
    /// True when the book can be borrowed now.
    public var ready: Bool
    /// The last day to borrow a ready reservation.
    public var readyUntil: DayDate?
    /// When this row was last synced.
    public var syncedAt: Date
    /// False once the server no longer lists it.
    public var active: Bool

    public static let databaseTableName = "reservation"

    /// Creates a record.
    public init(
        libraryProfile: Int64, card: String = "", reservationID: String, productID: String, title: String,
        authors: String = "", queuePosition: Int,
        estimatedDate: DayDate? = nil, ready: Bool = false, readyUntil: DayDate? = nil, syncedAt: Date,
        active: Bool = true
    ) {
        self.libraryProfile = libraryProfile
        self.card = card
        self.authors = authors
        self.reservationID = reservationID
        self.productID = productID
        self.title = title
        self.queuePosition = queuePosition
        self.estimatedDate = estimatedDate
        self.ready = ready
        self.readyUntil = readyUntil
        self.syncedAt = syncedAt
        self.active = active
    }
}
