extension MockLendingServer {
    /// The cards of the patrons every mock library starts with (`1001`–`1004`).
    public static var seededCards: [String] { LibraryState.seededPatrons.map(\.card) }

    /// The PIN of a seeded patron, for tools that rehearse on the mock in-process (a scenario's
    /// `pin: mock`), so that shared files need not spell out even the mock's PINs; nil for any
    /// other card. Like every PIN, it is never served over HTTP.
    public static func seededPIN(card: String) -> String? {
        LibraryState.seededPatrons.first { $0.card == card }?.pin
    }
}
