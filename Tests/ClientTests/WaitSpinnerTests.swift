import Foundation
import Testing

/// A slow library at a terminal (issue 10, item 7): after about 300 ms bok shows that it is
/// waiting, on stderr, and clears it when the answer comes; a quick answer and piped output get none.
@Suite("Waiting for a slow library", .serialized)
struct WaitSpinnerTests {
    @Test("With 1.5 s of latency a spinner says bok is waiting and is cleared before the answer; a quick answer shows none")
    func spinnerAtATerminal() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let script = """
        import os, pty, sys, time, select
        pid, fd = pty.fork()
        if pid == 0:
            os.environ.update({"HOME": sys.argv[2], "XDG_CONFIG_HOME": sys.argv[2] + "/config",
                               "XDG_DATA_HOME": sys.argv[2] + "/data", "XDG_STATE_HOME": sys.argv[2] + "/state",
                               "TERM": "xterm-256color", "LANG": "C.UTF-8", "COLUMNS": "100", "LINES": "30"})
            os.execv(sys.argv[1], [sys.argv[1], "--mock"])
        out = [b""]
        def until(text, limit=20):
            end = time.time() + limit
            while text.encode() not in out[0] and time.time() < end:
                r, _, _ = select.select([fd], [], [], 0.1)
                if r:
                    try: out[0] += os.read(fd, 65536)
                    except OSError: return
        def type(line):
            os.write(fd, line.encode() + b"\\r")
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
        #expect(!parts[0].contains("Waiting for the library"), "a quick answer showed the spinner: \(parts[0].suffix(800))")
        let slow = parts[1].components(separatedBy: "=====END=====")[0]
        let spinner = try #require(slow.range(of: "Waiting for the library"), "no spinner in \(slow.suffix(1500))")
        let cleared = try #require(slow.range(of: "\r\u{1B}[K", range: spinner.upperBound..<slow.endIndex), "the spinner was not cleared")
        let answer = try #require(slow.range(of: "Top 3"), "\(slow.suffix(800))")
        #expect(cleared.upperBound <= answer.lowerBound, "the answer was printed before the spinner was cleared")
    }

    @Test("Piped output never gets the spinner, however slow the library")
    func nothingWhenPiped() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-wait-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let text = try await offPool { () throws -> String in
            let process = Process()
            process.executableURL = PINSafetyTests.binary
            process.arguments = ["--mock"]
            process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                   "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                                   "XDG_STATE_HOME": home.appendingPathComponent("state").path]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data("mock fault latency 800\ntop 2\n".utf8))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(text.contains("Top 2"), "\(text)")
        #expect(!text.contains("Waiting for the library"), "\(text)")
    }
}
