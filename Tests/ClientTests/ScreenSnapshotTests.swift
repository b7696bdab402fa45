import Foundation
import Localization
import SnapshotTesting
import Terminal
import Testing

@testable import Client

/// The main screens as a patron sees them, in English and Swedish at 120 and 80 columns,
/// against the snapshot files in `__Snapshots__/ScreenSnapshotTests` (issue 13). A change to
/// what bok shows changes a file here, which review then sees word for word; record anew with
/// `SNAPSHOT_TESTING_RECORD=all swift test --filter ScreenSnapshotTests`.
@Suite("The main screens in both languages", .serialized)
@MainActor
struct ScreenSnapshotTests {
    static let commands = [
        "help", "help borrow", "search the", "info 1", "borrow 1", "loans", "search the", "reserve 4", "reservations",
        "shelf", "return 1",
    ]

    @Test(
        "help, a result page, info, borrowing, loans, reservations and the shelf", arguments: ["en", "sv"], [120, 80])
    func screens(language: String, width: Int) async throws {
        Localization.use(language, environment: [:])
        defer { Localization.use("en", environment: [:]) }
        let h = try await Harness(theme: Theme(caps: .plain, width: width, height: 0), wrapsToTheme: true)
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        var text = ""
        for command in Self.commands {
            let screen = await h.run(command)
            text += "> \(command)\n" + screen.map { $0 + "\n" }.joined() + "\n"
        }
        assertSnapshot(of: text, as: .lines, named: "\(language)-\(width)")
    }
}
