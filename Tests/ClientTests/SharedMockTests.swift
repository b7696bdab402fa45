import Catalog
import Foundation
import TestSupport
import Testing

@testable import MockLending

/// Every `bok --mock` of one user shares one simulated library (issue 10, item 3): a second
/// terminal sees the first one's loans and clock, and processes borrowing and returning at once
/// never lose or double a loan.
@Suite("One simulated library for all of a user's bok --mock", .serialized)
struct SharedMockTests {
    /// Books the seeded library lends without limit (licence model `access`), so processes never
    /// wait for copies and every borrow can succeed.
    static let unlimited: [String] = {
        let catalog = CatalogGenerator(seed: 1, size: 600).generate()
        return zip(catalog.products, catalog.licences)
            .filter { $0.1.model == .access && $0.0.statuses.allSatisfy { $0.name == "Active" } }
            .map(\.0.id)
    }()

    struct Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bok-shared-\(UUID().uuidString)")
        /// A PIN file for `card` (the seeded cards' PINs), mode 0600.
        func pinFile(_ card: String) throws -> String {
            let file = url.appendingPathComponent("pin-\(card)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let pin = try #require(MockLendingServer.seededPIN(card: card))
            _ = FileManager.default.createFile(
                atPath: file.path, contents: Data("\(pin)\n".utf8), attributes: [.posixPermissions: 0o600])
            return file.path
        }
    }

    /// Starts `bok ARGUMENTS` with `input` on stdin, in `home`; `finish` waits for it.
    static func start(_ arguments: [String], input: String, home: Home) throws -> BokProcess {
        try BokProcess.start(arguments, home: home.url, stdin: input)
    }

    static func finish(_ run: BokProcess) -> (Int32, String) { run.finish() }

    /// The active loans of `card`, by product id, as a fresh one-shot sees them.
    static func loans(_ card: String, home: Home) throws -> [String] {
        let (status, text) = finish(
            try start(
                ["--mock", "loans", "--card", card, "--pin-file", home.pinFile(card), "--json"],
                input: "", home: home))
        try #require(status == 0, "\(text)")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return ((object?["loans"] as? [[String: Any]]) ?? []).compactMap { $0["productID"] as? String }.sorted()
    }

    @Test("A second terminal sees the first one's loan and moved clock, and read does not call it ended")
    func secondTerminal() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let book = try #require(Self.unlimited.first)
        let pin = try home.pinFile("1001")
        let (first, second) = try await offPool { () throws -> ((Int32, String), (Int32, String)) in
            let first = Self.finish(
                try Self.start(
                    ["--mock"], input: "login --card 1001 --pin-file \(pin)\nborrow id:\(book)\nmock clock +2d\n",
                    home: home))
            let second = Self.finish(
                try Self.start(
                    ["--mock"], input: "login --card 1001 --pin-file \(pin)\nshelf --sync\nloans\n",
                    home: home))
            return (first, second)
        }
        #expect(first.0 == 0 && first.1.contains("Borrowed"), "\(first.1)")
        #expect(second.0 == 0, "\(second.1)")
        #expect(second.1.contains("Loans (1)") && !second.1.contains("Ended"), "\(second.1)")
        #expect(second.1.contains("26 days"), "the clock moved by the first terminal: \(second.1)")
        // The loan counts in the month it was made: two days on, that may be last month (a run on the
        // 30th), as a library's own count would say.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = MockRules.stockholm
        let now = Date()
        let sameMonth =
            calendar.component(.month, from: now)
            == calendar.component(.month, from: now.addingTimeInterval(2 * 86_400))
        #expect(second.1.contains("\(sameMonth ? 1 : 0) of 5 loans used this month"), "\(second.1)")
    }

    @Test("Two REPLs and a one-shot borrowing and returning at once: no loan lost or doubled, and the shelves agree")
    func concurrentLending() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        // The seeded patrons have loans of their own; they must stay as they are.
        var before: [String: [String]] = [:]
        for card in ["1001", "1003", "1004"] { before[card] = try Self.loans(card, home: home) }
        let taken = Set(before.values.joined())
        let books = Array(Self.unlimited.filter { !taken.contains($0) }.prefix(7))
        try #require(books.count == 7)
        let (a, b, c) = (Array(books[0..<3]), Array(books[3..<6]), books[6])
        let (pinA, pinB, pinC) = (try home.pinFile("1001"), try home.pinFile("1003"), try home.pinFile("1004"))
        @Sendable func script(_ card: String, _ pin: String, _ ids: [String]) -> String {
            // Borrow two, return the first, borrow the third: two loans stay.
            """
            login --card \(card) --pin-file \(pin)\nborrow id:\(ids[0])\nborrow id:\(ids[1])\nreturn id:\(ids[0]) \
            --yes\nborrow id:\(ids[2])\n
            """
        }
        let results = try await offPool { () throws -> [(Int32, String)] in
            let runs = [
                try Self.start(["--mock"], input: script("1001", pinA, a), home: home),
                try Self.start(["--mock"], input: script("1003", pinB, b), home: home),
                // 1004 has one loan left this month.
                try Self.start(
                    ["--mock", "borrow", "id:\(c)", "--card", "1004", "--pin-file", pinC], input: "", home: home),
            ]
            return runs.map(Self.finish)
        }
        for (status, text) in results {
            #expect(status == 0, "\(text)")
            #expect(!text.contains("Something went wrong"), "\(text)")
        }
        let expected = [
            ("1001", (before["1001", default: []] + [a[1], a[2]]).sorted()),
            ("1003", (before["1003", default: []] + [b[1], b[2]]).sorted()),
            ("1004", (before["1004", default: []] + [c]).sorted()),
        ]
        for (card, ids) in expected {
            #expect(try Self.loans(card, home: home) == ids, "card \(card)")
        }
        // The shelves of two terminals agree after a sync.
        let shelves = try await offPool { () throws -> [String] in
            try ["1001", "1003"].map { card in
                let (_, text) = Self.finish(
                    try Self.start(
                        ["--mock", "shelf", "--sync", "--card", card, "--pin-file", home.pinFile(card), "--json"],
                        input: "", home: home))
                return text
            }
        }
        for (shelf, (_, ids)) in zip(shelves, expected) {
            for id in ids { #expect(shelf.contains(id), "\(shelf)") }
        }
    }

    @Test("mock reset starts the shared library over from the seed")
    func resetStartsOver() async throws {
        let home = Home()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let pin = try home.pinFile("1001")
        let seeded = try Self.loans("1001", home: home)
        let book = try #require(Self.unlimited.first { !seeded.contains($0) })
        _ = try await offPool {
            Self.finish(
                try Self.start(
                    ["--mock", "borrow", "id:\(book)", "--card", "1001", "--pin-file", pin], input: "", home: home))
        }
        #expect(try Self.loans("1001", home: home) == (seeded + [book]).sorted())
        _ = try await offPool { Self.finish(try Self.start(["--mock", "mock", "reset"], input: "", home: home)) }
        #expect(try Self.loans("1001", home: home) == seeded)
    }
}
