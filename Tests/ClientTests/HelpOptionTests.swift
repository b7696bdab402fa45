import Foundation
import Testing

/// Every command answers `--help` with its help and exit 0, as command-line programs do
/// (issue 15), and `mock state --json` is the state itself.
@Suite("--help everywhere", .serialized)
struct HelpOptionTests {
    static func bok(_ arguments: [String]) async throws -> (Int32, String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-help-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        return try await offPool {
            let process = Process()
            process.executableURL = OneShotProcessTests.binary
            process.arguments = arguments
            process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                   "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                   "XDG_STATE_HOME": home.appendingPathComponent("state").path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    @Test("COMMAND --help shows the command's synopsis and exits 0", arguments: [
        (["--mock", "search", "--help"], "search QUERY"),
        (["--mock", "borrow", "-h"], "borrow N"),
        (["--mock", "library", "add", "--help"], "library add NAME URL"),
        (["--mock", "notices", "--help"], "notices"),
        (["mock-server", "--help"], "bok mock-server [--port P] [--host H]"),
        (["scenario", "run", "--help"], "bok scenario run FILE"),
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
}
