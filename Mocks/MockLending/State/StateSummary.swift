import Catalog
import Foundation

/// What `GET /mock/state` reports: enough for a tester to see where the simulated library stands.
struct StateSummary: Codable, Sendable {
    struct PatronSummary: Codable, Sendable {
        var card: String
        var name: String
        var loans: Int
        var loansThisMonth: Int
        var reservations: Int
        var demonstrates: String
        enum CodingKeys: String, CodingKey {
            case card = "Card", name = "Name", loans = "Loans", loansThisMonth = "LoansThisMonth"
            case reservations = "Reservations", demonstrates = "Demonstrates"
        }
    }

    var clock: String
    var seed: UInt64
    var catalogSize: Int
    var loans: Int
    var reservations: Int
    /// Copy titles with every copy out.
    var titlesOut: Int
    /// Titles with at least one patron waiting, and patrons waiting in all.
    var queues: Int
    var waiting: Int
    var payPerLoanUsed: Int
    var payPerLoanBudget: Int
    var patrons: [PatronSummary]
    var faults: Faults

    enum CodingKeys: String, CodingKey {
        case clock = "Clock", seed = "Seed", catalogSize = "CatalogSize", loans = "Loans", reservations = "Reservations"
        case titlesOut = "TitlesOut", queues = "Queues", waiting = "Waiting", payPerLoanUsed = "PayPerLoanUsed"
        case payPerLoanBudget = "PayPerLoanBudget", patrons = "Patrons", faults = "Faults"
    }

    init(_ state: LibraryState, seed: UInt64, catalogSize: Int) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = LibraryState.timeZone
        clock = formatter.string(from: state.clock)
        self.seed = seed
        self.catalogSize = catalogSize
        loans = state.loans.count
        reservations = state.reservations.count
        titlesOut = state.licences.reduce(0) { $0 + ($1.isExhausted ? 1 : 0) }
        var queues = 0
        var waiting = 0
        for index in state.licences.indices {
            let count = state.waiting(index)
            if count > 0 { queues += 1; waiting += count }
        }
        self.queues = queues
        self.waiting = waiting
        payPerLoanUsed = state.payPerLoanUsed
        payPerLoanBudget = state.payPerLoanBudget
        patrons = state.patrons.values.sorted { $0.card < $1.card }.map { patron in
            PatronSummary(card: patron.card, name: patron.name, loans: state.loans.filter { $0.card == patron.card }.count,
                          loansThisMonth: state.loansThisMonth(card: patron.card),
                          reservations: state.reservations.filter { $0.card == patron.card }.count,
                          demonstrates: patron.demonstrates)
        }
        faults = state.faults
    }
}
