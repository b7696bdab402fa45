import Foundation
import TestSupport
import Testing

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
        /// User and system CPU time.
        let cpuSeconds: Double
    }

    /// Runs bok under `/usr/bin/time` with `--library` set to `server` and a service id and key.
    static func bok(_ arguments: [String], library server: HostileServer) async throws -> Run {
        try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments =
                [
                    "-f", "bok-time %M %e %U %S", OneShotProcessTests.binary.path, "--library",
                    server.baseURL.absoluteString,
                ] + arguments
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
            let out = Pipe()
            let err = Pipe()
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
            guard timing.count == 5, timing[0] == "bok-time", let kb = Double(timing[1]),
                let seconds = Double(timing[2]),
                let user = Double(timing[3]), let system = Double(timing[4])
            else {
                throw HarnessError(message: "no timing from /usr/bin/time: \(stderr)")
            }
            // time(1) reports bok's own exit status as its own.
            return Run(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: lines.joined(separator: "\n"), peakMB: kb / 1024, seconds: seconds,
                cpuSeconds: user + system)
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

    @Test(
        """
        Items 2 and 4: a one-shot search against a server dripping a byte every half second ends at its deadline \
        with one line, and waits asleep
        """
    )
    func drip() async throws {
        let server = try HostileServer { _ in
            [
                .drip(
                    HostileServer.head(200, [("Content-Type", "application/json"), ("Content-Length", "100")])
                        + Data(repeating: 0x20, count: 100),
                    every: 0.5)
            ]
        }
        defer { server.stop() }
        let run = try await Self.bok(["search", "thriller"], library: server)
        #expect(run.status != 0)
        #expect(Self.isOneLine(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("did not answer within 10 s"), "\(run.stderr)")
        // The start's 2 s look at the library page, then the search's 10 s: 12 s, checked at three times that.
        #expect(run.seconds < 36, "\(run.seconds) s")
        // Waiting sleeps: 0.04 s of CPU measured for the 12 s (corelibs URLSession used 85-90 % of a CPU).
        #expect(run.cpuSeconds < 2, "\(run.cpuSeconds) s of CPU in \(run.seconds) s")
    }

    /// A library whose product 1 has a sample at `/book.epub`, served by `book`.
    static func sampleLibrary(book: @escaping HostileServer.Handler) throws -> HostileServer {
        try HostileServer { request in
            if request.path.hasSuffix("/products/1") {
                let host = request.headers["host"] ?? ""
                return HostileServer.answer(
                    200,
                    json:
                        #"""
                        {"Product": {"ProductId": "1", "Title": "Boken", "Teaser": {"Url": \#
                        "http://\#(host)/book.epub", "FormatID": "4104"}}}
                        """#
                )
            }
            if request.path == "/book.epub" { return book(request) }
            return HostileServer.answer(404, json: #"{"Reason": "Not here"}"#)
        }
    }

    @Test("Item 1: a book answered with HTTP 416 ends in one line after at most two requests")
    func always416() async throws {
        let server = try Self.sampleLibrary { _ in [.send(HostileServer.head(416, [("Content-Length", "0")]))] }
        defer { server.stop() }
        let run = try await Self.bok(["sample", "id:1"], library: server)
        #expect(run.status != 0)
        #expect(Self.isOneLine(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("The library could not send “Boken” just now. Try again later."), "\(run.stderr)")
        #expect(!run.stderr.contains("HTTP 416"), "\(run.stderr)")
        #expect(server.requests.filter { $0.path == "/book.epub" }.count <= 2)
        #expect(run.seconds < 10 && run.peakMB < 100, "\(run.seconds) s, \(run.peakMB) MB")
    }

    @Test(
        """
        Item 3: an endless book is refused at bok's limit for a book of unknown size; no file is kept, memory \
        stays low
        """
    )
    func endlessBook() async throws {
        let server = try Self.sampleLibrary { _ in
            [.send(HostileServer.head(200, [("Content-Type", "application/epub+zip")])), .stream(total: 1 << 30)]
        }
        defer { server.stop() }
        let run = try await Self.bok(["sample", "id:1"], library: server)
        #expect(run.status != 0)
        #expect(Self.isOneLine(run.stderr), "\(run.stderr)")
        #expect(run.stderr.contains("bok stopped and kept nothing"), "\(run.stderr)")
        #expect(run.peakMB < 100, "peak \(run.peakMB) MB")
        #expect(run.seconds < 60, "\(run.seconds) s")
        #expect(server.bytesSent < (256 + 40) << 20, "\(server.bytesSent) bytes sent")
    }
}
