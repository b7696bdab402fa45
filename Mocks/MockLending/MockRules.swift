public import Catalog
public import Foundation

/// The simulated library's lending rules; the defaults are those of a Swedish public library.
///
/// Copies per title and licence models come from the generated catalogue; everything else that
/// decides whether a patron may borrow or reserve is here, so tests can make a rule bite sooner
/// (a budget of 2 instead of 40) without waiting for the defaults to run out.
public struct MockRules: Sendable {
    /// Days a loan lasts: a loan made today has its last day `loanPeriodDays` from today.
    public var loanPeriodDays: Int
    /// Loans one patron may make per calendar month (`borrower` when used up). Returning a loan
    /// early does not give one back.
    public var maxLoansPerMonth: Int
    /// Pay-per-loan loans the library pays for per calendar month (`library` when used up).
    public var payPerLoanMonthlyBudget: Int
    /// At most this many loans per patron in any run of days (`borrower` when reached, with the
    /// day the oldest loan in the window leaves it); nil, the default, for no pace. Returning a
    /// loan early does not give one back.
    public var loanPace: LoanPace?
    /// Days a reservation stays ready, counting the day it became ready, after which it lapses.
    public var readyDays: Int
    /// Wrong PINs in a row that lock a card.
    public var maxWrongPINs: Int
    /// How long a locked card stays locked, in seconds.
    public var lockDuration: TimeInterval
    /// The library's time zone: days and months turn over at its midnight.
    public var timeZone: TimeZone {
        get { zone ?? Self.stockholm }
        set { zone = newValue }
    }
    /// The zone given, if one was. Europe/Stockholm is looked up only when asked for: loading a
    /// zone's rules loads ICU's calendar code and data, which a `bok read` that never starts the
    /// mock does not need.
    private var zone: TimeZone?

    /// Creates rules; the defaults are 28 days, 5 loans a month, a budget of 40, no pace, 3 days
    /// to collect a reservation, a 15-minute lock after 5 wrong PINs, Europe/Stockholm.
    public init(
        loanPeriodDays: Int = 28, maxLoansPerMonth: Int = 5, payPerLoanMonthlyBudget: Int = 40,
        loanPace: LoanPace? = nil, readyDays: Int = 3, maxWrongPINs: Int = 5, lockDuration: TimeInterval = 15 * 60,
        timeZone: TimeZone? = nil
    ) {
        self.loanPeriodDays = loanPeriodDays
        self.maxLoansPerMonth = maxLoansPerMonth
        self.payPerLoanMonthlyBudget = payPerLoanMonthlyBudget
        self.loanPace = loanPace
        self.readyDays = readyDays
        self.maxWrongPINs = maxWrongPINs
        self.lockDuration = lockDuration
        self.zone = timeZone
    }

    /// Europe/Stockholm (a fixed UTC+1 only if the system has no time zone database).
    public static let stockholm = TimeZone(identifier: "Europe/Stockholm") ?? TimeZone(secondsFromGMT: 3_600)!
}
