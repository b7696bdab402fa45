/// A library's pace for one patron: at most `loans` new loans in any `days` days in a row
/// (a rolling window, e.g. 3 per 7 days or 1 a week), beside the monthly limit.
///
/// An extension of this project: sent as `"Pace": {"Loans": 3, "Days": 7}` with a `borrower`
/// availability when the pace is what stops the patron, and on the library page.
public struct LoanPace: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Loans allowed in the window.
    public var loans: Int
    /// The window's length in days.
    public var days: Int

    /// Creates a pace of `loans` per `days` days.
    public init(loans: Int, days: Int) {
        self.loans = loans
        self.days = days
    }

    /// Parses `3/7` (3 loans per 7 days), as mock options and scenario headers write it; nil
    /// unless both are whole numbers of at least 1.
    public init?(text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let loans = Int(parts[0]), let days = Int(parts[1]), loans >= 1, days >= 1 else {
            return nil
        }
        self.init(loans: loans, days: days)
    }

    /// `3/7`.
    public var description: String { "\(loans)/\(days)" }

    enum CodingKeys: String, CodingKey {
        case loans = "Loans"
        case days = "Days"
    }
}
