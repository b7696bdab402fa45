import Foundation
import TestSupport
import Testing

/// Runs the real `bok` binary, as a script or a person at a shell would.
@Suite("bok as a one-shot command", .serialized)
struct OneShotProcessTests {
    static let binary: URL = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/bok")
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs bok on a Dispatch thread: waiting for a process must not block Swift's small cooperative pool,
    /// which the in-process mock servers of other tests need.
    func bok(
        _ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]
    ) async throws -> Result {
        try await offPool { try runBok(arguments, stdin: stdin, environment: extra) }
    }

    func runBok(_ arguments: [String], stdin: String?, environment extra: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-test-\(UUID().uuidString)")
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment.removeValue(forKey: "BOK_LIBRARY_URL")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: home)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    @Test("A one-shot that ends while libcurl is still loading ends cleanly, every time")
    func endsWhileCurlLoads() async throws {
        // `search` starts loading libcurl on a thread of its own at once; its completions are printed
        // long before that is done. Ending then crashed one run in two before exit waited for it.
        for _ in 0..<20 {
            let result = try await bok(
                ["---completion", "search", "--", "positional@0", "3", "0", "bok", "search", "--sort", ""],
                environment: ["SAP_SHELL": "fish"])
            #expect(result.status == 0 && result.stdout.contains("popularity"), "\(result.stderr.prefix(300))")
            if result.status != 0 { break }
        }
    }

    @Test("A one-shot shelf --sync after mock clock says when it synced by the library's clock")
    func syncedByTheLibrarysClock() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8", "LANGUAGE": "",
        ]
        // Each one-shot starts the shared mock anew; its clock, weeks ahead, is known once it has started.
        let moved = try await bok(["--mock", "mock", "clock", "+25d"], environment: environment)
        #expect(moved.status == 0, "\(moved.stderr)")
        let login = try await bok(
            ["--mock", "login", "--card", "1001", "--pin-stdin", "--remember"], stdin: "1234\n",
            environment: environment)
        #expect(login.status == 0, "\(login.stderr)")
        let shelf = try await bok(["--mock", "shelf", "--sync"], environment: environment)
        #expect(shelf.stdout.contains("synced today"), "\(shelf.stdout)\(shelf.stderr)")
    }

    @Test("bok --help and bok COMMAND --help speak the locale's language; the man page's source stays English")
    func helpInSwedish() async throws {
        let swedish = ["LANG": "sv_SE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""]
        let top = try await bok(["--help"], environment: swedish)
        #expect(top.status == 0)
        #expect(top.stdout.contains("Hitta, låna och läs bibliotekets e-böcker från skalet."), "\(top.stdout)")
        #expect(top.stdout.contains("Skriv ut ett JSON-objekt per kommando."))
        let search = try await bok(["search", "--help"], environment: swedish)
        #expect(search.stdout.contains("Sök i katalogen på titel, författare"), "\(search.stdout)")
        let english = try await bok(["--help"], environment: ["LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""])
        #expect(english.stdout.contains("Find, borrow and read library e-books from the shell."))
    }

    @Test("search --json prints one object with the documented fields")
    func searchJSON() async throws {
        let result = try await bok(["--mock", "search", "thriller", "--sort", "author", "--order", "desc", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["sort"] as? String == "author")
        #expect(object["order"] as? String == "desc")
        #expect((object["total"] as? Int ?? 0) > 0)
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["number"] as? Int == 1)
        #expect(first["available"] is Bool)
        #expect(first.keys.contains("reason"))
    }

    @Test("Piped output has no escape codes, even with colour available")
    func pipedIsPlain() async throws {
        let result = try await bok(
            ["--mock", "search", "thriller"], environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains("hits for “thriller”"))
    }

    @Test("A usage mistake exits 2 with one line on stderr")
    func usageMistake() async throws {
        let result = try await bok(["--mock", "serch", "thriller"])
        #expect(result.status == 2)
        #expect(result.stderr == "bok: Unknown command \"serch\". Did you mean \"search\"?\n")
        #expect(result.stdout.isEmpty)
        let option = try await bok(["--frobnicate"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("Unknown option --frobnicate"))
    }

    @Test("With no library configured bok uses the mock and says so; piped lines run one by one")
    func bannerAndPipe() async throws {
        let result = try await bok([], stdin: "top 3\ninfo 2\nquit\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("No library is configured, so bok uses its built-in mock library"))
        #expect(result.stdout.contains("Top 3 by popularity"))
        #expect(result.stdout.contains("Product id"))
    }

    @Test("A library that is down: one line naming it, exit 1")
    func libraryDown() async throws {
        let result = try await bok(
            ["--library", "http://127.0.0.1:9/library/v3.0/", "top"],
            environment: ["BOK_SERVICE_ID": "x", "BOK_SERVICE_KEY": "y"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot reach the library at 127.0.0.1:9"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("bok mock-server prints its base URL")
    func mockServer() async throws {
        let line = try await offPool { try firstLineOfMockServer() }
        #expect(line.hasPrefix("http://127.0.0.1:"))
        #expect(line.contains("/library/v3.0/"))
    }

    func firstLineOfMockServer() throws -> String {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["mock-server", "--port", "0", "--catalog-size", "50"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        return String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
    }
}
