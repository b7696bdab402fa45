public import Catalog
public import Foundation
public import GRDB

/// Something that changed at the library since the last sync, told once, as a lending app tells
/// it: a reservation ready, a loan about to end or ended, a reservation that lapsed, a loan bok
/// had not heard of (made in another terminal, or whose answer was lost).
///
/// Stored, so that each is told once however many processes sync, and `notices` can list them.
public struct Notice: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord, ShelfDates {
    /// What happened.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        /// A loan the shelf had not recorded: made elsewhere, or its answer was lost.
        case loanMade
        /// A loan whose last day is within ``ShelfStore/dueSoonDays`` days.
        case dueSoon
        /// A loan that ended (ran out, or was returned elsewhere).
        case loanEnded
        /// A reservation the patron can now borrow, until `date`.
        case reservationReady
        /// A reservation that is gone without a loan: it lapsed, or the library cancelled it.
        case reservationEnded
        /// A watched book (`watch N`) that can be borrowed now.
        case watchedAvailable
    }

    /// Row id.
    public var id: Int64?
    /// The library profile.
    public var libraryProfile: Int64
    /// The card it concerns.
    public var card: String
    /// What it is about, once: `ready:R17`, `due:L4` (a second sync does not tell it again).
    public var key: String
    /// What happened.
    public var kind: Kind
    /// The book.
    public var productID: String
    /// Its title, safe to draw.
    public var title: String
    /// The day it concerns: due, borrow by, ended.
    public var day: DayDate?
    /// When bok learnt it.
    public var createdAt: Date

    public static let databaseTableName = "notice"

    /// Creates a notice.
    public init(
        libraryProfile: Int64, card: String, key: String, kind: Kind, productID: String, title: String,
        day: DayDate?, createdAt: Date
    ) {
        self.libraryProfile = libraryProfile
        self.card = card
        self.key = key
        self.kind = kind
        self.productID = productID
        self.title = title
        self.day = day
        self.createdAt = createdAt
    }
}
