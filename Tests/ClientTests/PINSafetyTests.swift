import Foundation
import TestSupport
import Testing

/// The PIN is never echoed, never in the history, a file, or an error — tested on the real binary.
@Suite("The PIN stays secret", .serialized)
struct PINSafetyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/bok")

    /// Every byte of every file under `directory`.
    func contentsOfAllFiles(under directory: URL) -> [(String, Data)] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var result: [(String, Data)] = []
        while let url = enumerator?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { result.append((url.path, data)) }
        }
        return result
    }

    @Test("A session at a terminal that logs in and borrows leaves the PIN on no screen and in no file")
    func interactiveSession() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        // Card 1004's PIN is 4567. A Python pty plays the patron: it waits for each prompt before typing.
        let script =
            patronScriptPrelude + """
                until("> ")
                type("top 3"); until("Top 3")
                type("borrow 1"); until("card number: ")
                type("1004"); until("PIN for card 1004: ")
                time.sleep(0.3)
                type("4567"); until("Due ")
                type("whoami"); until("loans used this month")
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let screen = try await runPatronScript(script, binary: Self.binary, home: home)
        #expect(screen.contains("Borrowed"), "\(screen)")
        #expect(screen.contains("5 of 5 loans used this month"))
        #expect(!screen.contains("4567"), "the PIN was shown on screen")
        let files = contentsOfAllFiles(under: home).filter { !$0.0.hasSuffix("patron.py") }
        #expect(files.contains { $0.0.hasSuffix("history") }, "the history file should exist")
        for (path, data) in files {
            #expect(!String(decoding: data, as: UTF8.self).contains("4567"), "the PIN is in \(path)")
        }
    }

    @Test("--pin-file must be private; without a PIN or a terminal bok fails at once with what to do")
    func pinFileRules() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let pinFile = home.appendingPathComponent("pin")
        try "1234\n".write(to: pinFile, atomically: true, encoding: .utf8)
        func run(_ arguments: [String]) async throws -> (Int32, String) {
            let binary = Self.binary
            return try await offPool {
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments
                process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
                let err = Pipe()
                process.standardError = err
                process.standardOutput = Pipe()
                process.standardInput = Pipe()
                try process.run()
                let data = err.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: data, as: UTF8.self))
            }
        }
        chmod(pinFile.path, 0o644)
        let open = try await run(["--mock", "whoami", "--card", "1001", "--pin-file", pinFile.path])
        #expect(open.0 == 1)
        #expect(open.1.contains("can be read by others"))
        #expect(open.1.contains("chmod 600 \(pinFile.path)"))

        chmod(pinFile.path, 0o600)
        let ok = try await run(["--mock", "whoami", "--card", "1001", "--pin-file", pinFile.path])
        #expect(ok.0 == 0, "\(ok.1)")

        let noPIN = try await run(["--mock", "whoami", "--card", "1001"])
        #expect(noPIN.0 == 1)
        #expect(noPIN.1.contains("--pin-file FILE (mode 600) or --pin-stdin"))
    }
}
