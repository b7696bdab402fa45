public import Foundation

/// What a sync changed, for a one-line report.
public struct SyncSummary: Sendable, Hashable {
    /// Active loans after the sync.
    public var activeLoans: Int
    /// Loans that ended since the last sync.
    public var newlyEnded: Int
    /// Active reservations after the sync.
    public var reservations: Int
    /// When the sync was recorded.
    public var syncedAt: Date
    /// What changed that the patron had not been told (each notice is told once).
    public var notices: [Notice]

    /// Creates a summary.
    public init(activeLoans: Int, newlyEnded: Int, reservations: Int, syncedAt: Date, notices: [Notice] = []) {
        self.activeLoans = activeLoans
        self.newlyEnded = newlyEnded
        self.reservations = reservations
        self.syncedAt = syncedAt
        self.notices = notices
    }
}
