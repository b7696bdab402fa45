@testable import Client
import Foundation
import Testing

/// A wrong PIN typed at the prompt is asked for again, with the tries left, and a locked card is
/// said in words with who can help (issue 10, item 8).
@Suite("A wrong PIN", .serialized)
@MainActor
struct PINRetryTests {
    @Test("A wrong PIN at the prompt asks again with the tries left; the right one logs in")
    func askedAgain() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["0000", "1234"])
        h.session.prompt = prompt
        let screen = await h.run("login")
        #expect(screen.first?.hasPrefix("Welcome,") == true, "\(screen)")
        #expect(prompt.asked.count == 3, "\(prompt.asked)")
        #expect(prompt.asked.last?.contains("Wrong PIN for card 1001; 4 tries left") == true, "\(prompt.asked)")
        #expect(prompt.asked.last?.hasSuffix("PIN for card 1001: ") == true, "\(prompt.asked)")
    }

    @Test("Five wrong PINs lock the card: bok stops asking and says when, and who can unlock it")
    func lockedInWords() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: Array(repeating: "0000", count: 8))
        h.session.prompt = prompt
        let screen = await h.run("login").joined(separator: "\n")
        #expect(screen.contains("is locked after 5 wrong PINs; try again after "), "\(screen)")
        #expect(screen.contains("staff can unlock it sooner"), "\(screen)")
        #expect(prompt.secrets.count == 3, "asked \(8 - prompt.secrets.count) times, not until the lock: \(prompt.asked)")
    }

    @Test("A wrong PIN from a file is not retried: each try would count toward the lock")
    func fileNotRetried() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let prompt = ScriptedPatronPrompt(answers: [], secrets: ["1234"])
        h.session.prompt = prompt
        let file = h.dataDirectory.appendingPathComponent("pin")
        try FileManager.default.createDirectory(at: h.dataDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("0000\n".utf8), attributes: [.posixPermissions: 0o600])
        let screen = await h.run("login --card 1001 --pin-file \(file.path)").joined(separator: "\n")
        #expect(screen.contains("Wrong PIN for card 1001"), "\(screen)")
        #expect(prompt.asked.isEmpty, "\(prompt.asked)")
    }
}
