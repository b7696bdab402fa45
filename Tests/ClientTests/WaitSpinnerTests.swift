import Foundation
import Testing

/// A slow library at a terminal (issue 10, item 7): after about 300 ms bok shows that it is
/// waiting, on stderr, and clears it when the answer comes; a quick answer and piped output get none.
@Suite("Waiting for a slow library", .serialized)
struct WaitSpinnerTests {
    @Test(
        """
        With 1.5 s of latency a spinner says bok is waiting and is cleared before the answer; a quick answer \
        shows none
        """
    )
    func spinnerAtATerminal() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            patronScriptPrelude + """
                until("> ")
                type("top 2"); until("Top 2")
                out[0] += b"=====SLOW====="
                type("mock fault latency 1500"); until("1500")
                type("top 3"); until("Top 3")
                out[0] += b"=====END====="
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let output = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        let parts = output.components(separatedBy: "=====SLOW=====")
        try #require(parts.count == 2, "\(output.suffix(1500))")
        #expect(
            !parts[0].contains("Waiting for the library"), "a quick answer showed the spinner: \(parts[0].suffix(800))")
        let slow = parts[1].components(separatedBy: "=====END=====")[0]
        let spinner = try #require(slow.range(of: "Waiting for the library"), "no spinner in \(slow.suffix(1500))")
        let cleared = try #require(
            slow.range(of: "\r\u{1B}[K", range: spinner.upperBound..<slow.endIndex), "the spinner was not cleared")
        let answer = try #require(slow.range(of: "Top 3"), "\(slow.suffix(800))")
        #expect(cleared.upperBound <= answer.lowerBound, "the answer was printed before the spinner was cleared")
    }

    @Test("Piped output never gets the spinner, however slow the library")
    func nothingWhenPiped() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-wait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let text = try await BokProcess.run(["--mock"], home: home, stdin: "mock fault latency 800\ntop 2\n").output
        #expect(text.contains("Top 2"), "\(text)")
        #expect(!text.contains("Waiting for the library"), "\(text)")
    }
}
