import Foundation
import Testing

/// Every command answers `--help` with its help and exit 0, as command-line programs do
/// (issue 15), and `mock state --json` is the state itself.
@Suite("--help everywhere", .serialized)
struct HelpOptionTests {
    static func bok(_ arguments: [String]) async throws -> (Int32, String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-help-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        return try await BokProcess.run(arguments, home: home)
    }

    @Test(
        "COMMAND --help shows the command's synopsis and exits 0",
        arguments: [
            (["--mock", "search", "--help"], "search QUERY"),
            (["--mock", "borrow", "-h"], "borrow N"),
            (["--mock", "library", "add", "--help"], "library add NAME URL"),
            (["--mock", "notices", "--help"], "notices"),
            (["mock-server", "--help"], "bok mock-server [--port P] [--host H]"),
            (["scenario", "run", "--help"], "bok scenario run FILE"),
            (["study", "note", "--help"], "bok study note TEXT"),
            (["study", "watch", "--help"], "bok study watch"),
            (["study", "report", "--help"], "bok study report DIR [DIR_B]"),
            (["study", "run", "--help"], "[--library NAME|URL] [--kind elib|opds]"),
        ])
    func helpEverywhere(arguments: [String], synopsis: String) async throws {
        let (status, text) = try await Self.bok(arguments)
        #expect(status == 0, "\(text)")
        #expect(text.contains(synopsis), "\(text)")
        #expect(!text.contains("has no option"), "\(text)")
    }

    @Test("mock state --json is the state object, not a string holding it")
    func mockStateJSON() async throws {
        let (status, text) = try await Self.bok(["--mock", "mock", "state", "--json"])
        #expect(status == 0, "\(text)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        #expect(object["CatalogSize"] as? Int == 600, "\(object.keys)")
        #expect(object["Loans"] is [Any])
    }

    @Test(
        "Exit status: 2 for a usage mistake, 1 for a failure, 0 for success, one line on stderr",
        arguments: [
            (["--mock", "serch", "thriller"], Int32(2)),
            (["--bogus"], Int32(2)),
            (["--mock", "top", "abc"], Int32(2)),
            (["--library", "nosuch", "top", "1"], Int32(2)),
            (["--mock", "info", "id:0000000"], Int32(1)),
            (["--mock", "top", "1"], Int32(0)),
        ])
    func exitStatus(arguments: [String], expected: Int32) async throws {
        let (status, text) = try await Self.bok(arguments)
        #expect(status == expected, "\(arguments): \(text)")
        if expected != 0 {
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("bok: ") }
            #expect(lines.count == 1, "\(text)")
        }
    }
}
