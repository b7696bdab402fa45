import Foundation
import Testing
import TestSupport

/// The real `bok` binary against a library that misbehaves on purpose (issue 17): what a patron
/// at a shell notices is a bounded wait, a bounded memory footprint (the child's peak RSS, as
/// `/usr/bin/time` reports it) and one line that says what happened. Bounds are generous: a test
/// fails at three times the figure, never on the exact one.
@Suite("bok against a hostile library", .serialized)
struct HostileLibraryProcessTests {
    struct Run {
        let status: Int32
        let stdout: String
        /// What bok wrote to stderr (without `time`'s line).
        let stderr: String
        /// Peak resident memory of bok, in MB.
        let peakMB: Double
        let seconds: Double
    }

    /// Runs bok under `/usr/bin/time` with `--library` set to `server` and a service id and key.
    static func bok(_ arguments: [String], library server: HostileServer) async throws -> Run {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-f", "bok-time %M %e", OneShotProcessTests.binary.path, "--library", server.baseURL.absoluteString] + arguments
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-hostile-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
            environment["BOK_SERVICE_ID"] = "bok"
            environment["BOK_SERVICE_KEY"] = "secret"
            environment.removeValue(forKey: "BOK_LIBRARY_URL")
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            var lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while lines.last == "" { lines.removeLast() }
            let timing = (lines.popLast() ?? "").split(separator: " ")
            // time(1)'s own note of a failed command.
            lines.removeAll { $0.hasPrefix("Command exited with non-zero status") }
            guard timing.count == 3, timing[0] == "bok-time", let kb = Double(timing[1]), let seconds = Double(timing[2]) else {
                throw HarnessError(message: "no timing from /usr/bin/time: \(stderr)")
            }
            // time(1) reports bok's own exit status as its own.
            return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: lines.joined(separator: "\n"), peakMB: kb / 1024, seconds: seconds)
        }
    }

    /// One line of words: no HTTP body, no curl or Foundation text, no stack trace.
    static func isOneLine(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return !trimmed.isEmpty && !trimmed.contains("\n") && !trimmed.lowercased().contains("curl")
            && !trimmed.contains("Error Domain") && !trimmed.contains("xxxx") && !trimmed.contains("Fatal error")
    }

    @Test("Item 3: a 1 GB answer to a one-shot search is refused at the cap; bok's peak memory stays under 100 MB")
    func gigabyteAnswer() async throws {
        let server = try HostileServer { _ in
            [.send(HostileServer.head(200, [("Content-Type", "application/json")])), .stream(total: 1 << 30)]
        }
        defer { server.stop() }
        let run = try await Self.bok(["search", "thriller"], library: server)
        #expect(run.status != 0)
        #expect(run.peakMB < 100, "peak \(run.peakMB) MB")
        #expect(Self.isOneLine(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("larger than 16 MB"), "\(run.stderr)")
        #expect(run.seconds < 30, "\(run.seconds) s")
        #expect(server.bytesSent < 1 << 30)
    }
}
