import Catalog
import Foundation
import Logging
import MockLending
import Terminal
import Testing

@testable import Client

/// A library whose titles, names, categories, descriptions and messages carry terminal control
/// sequences (the mock's `hostile` fault): bok shows them as visible, inert characters wherever it
/// draws them, and gives them back exactly in `--json`.
@Suite("Hostile text from a library", .serialized)
struct HostileServerTests {
    /// No control a terminal would act on: only bok's own colour codes, tab and newline.
    static func actionable(_ text: String) -> [String] {
        var found: [String] = []
        let plain = Ansi.strip(text)  // bok's own colour codes; whatever else is left must be inert
        for sequence in HostileText.sequences where text.contains(sequence) { found.append(sequence.debugDescription) }
        for scalar in plain.unicodeScalars
        where (scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r")
            || (0x7F...0x9F).contains(scalar.value)
        {
            found.append(scalar.escaped(asASCII: true))
        }
        return found
    }

    /// Whether every bidirectional opener on the line is closed on the same line.
    static func bidiBalanced(_ line: String) -> Bool {
        var depth = 0
        for scalar in line.unicodeScalars {
            switch scalar.value {
            case 0x202A...0x202B, 0x202D...0x202E, 0x2066...0x2068: depth += 1
            case 0x202C, 0x2069:
                depth -= 1
                if depth < 0 { return false }
            default: break
            }
        }
        return depth == 0
    }

    @Test("Every screen of a patron's session shows the codes as characters and keeps bok's own words in order")
    @MainActor func everyScreen() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        _ = await harness.run("mock fault hostile")
        var screens: [String: [String]] = [:]
        for line in ["library", "top 3", "new 3", "info 1", "view grid", "search thriller", "view list"] {
            screens[line] = await harness.run(line)
        }
        screens["search (list)"] = await harness.run("search thriller")
        let available = try #require(
            hitLines(screens["search (list)"] ?? []).first { $0.line.contains("Available") }?.number)
        harness.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        screens["borrow"] = await harness.run("borrow \(available)")
        for line in ["loans", "reservations", "shelf", "whoami"] { screens[line] = await harness.run(line) }

        for (command, screen) in screens {
            let text = screen.joined(separator: "\n")
            #expect(Self.actionable(text).isEmpty, "\(command): \(Self.actionable(text))")
            for line in screen { #expect(Self.bidiBalanced(line), "\(command): \(line.debugDescription)") }
        }
        #expect(screens["search (list)"]?.joined().contains("␛]0;PWNED␇␛]52;c;cHduZWQ=␇␛[2J") == true)
        #expect(screens["info 1"]?.joined().contains("␛[5m") == true)
        #expect(
            screens["loans"]?.joined().contains("␛]52;") == true, "\(screens["borrow"] ?? []) \(screens["loans"] ?? [])"
        )
    }

    @Test("A one-shot at a pipe shows the replacements; --json gives the server's words back exactly")
    func oneShots() async throws {
        let configuration = MockConfiguration(seed: 1, catalogSize: 300, clockRuns: false)
        let server = try await MockLendingServer.start(
            configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        defer { Task { await server.stop() } }
        let environment = ["BOK_SERVICE_ID": configuration.serviceID, "BOK_SERVICE_KEY": configuration.serviceKey]
        let library = ["--library", server.baseURL.absoluteString]
        let bok = OneShotProcessTests()

        let clean = try await bok.bok(library + ["search", "thriller", "--json"], environment: environment)
        try #require(clean.status == 0, "\(clean.stderr)")
        try await MockControl(libraryBase: server.baseURL).setFaults(["Hostile": true])

        let json = try await bok.bok(library + ["search", "thriller", "--json"], environment: environment)
        try #require(json.status == 0, "\(json.stderr)")
        // The line itself holds no raw control: the codes are \u escapes.
        #expect(Self.actionable(json.stdout).isEmpty, "\(Self.actionable(json.stdout))")
        func results(_ stdout: String) throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
            return try #require(object?["results"] as? [[String: Any]])
        }
        let before = try results(clean.stdout)
        let after = try results(json.stdout)
        try #require(!after.isEmpty && before.count == after.count)
        for (plain, hostile) in zip(before, after) {
            #expect(hostile["title"] as? String == (plain["title"] as? String ?? "") + HostileText.title)
            #expect(
                hostile["categories"] as? [String]
                    == (plain["categories"] as? [String] ?? []).map { $0 + HostileText.category })
        }

        let text = try await bok.bok(library + ["search", "thriller"], environment: environment)
        try #require(text.status == 0, "\(text.stderr)")
        #expect(Self.actionable(text.stdout + text.stderr).isEmpty, "\(Self.actionable(text.stdout))")
        #expect(text.stdout.contains("␛]0;PWNED␇"))
        let id = try #require(after.first?["id"] as? String)
        let info = try await bok.bok(library + ["info", "id:\(id)"], environment: environment)
        #expect(Self.actionable(info.stdout + info.stderr).isEmpty, "\(Self.actionable(info.stdout))")
        #expect(info.stdout.contains("␛]8;;http://evil.invalid/␇"))
    }

    @Test("At a real terminal, the bytes bok writes hold none of the injected sequences")
    func atATerminal() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            patronScriptPrelude + """
                until("> ")
                type("mock fault hostile"); until("inert")
                type("search thriller"); until("Showing")
                type("info 1"); until("Product id")
                type("library"); until("> ", 5); time.sleep(1)
                type("quit"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let output = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        #expect(output.contains("Product id"), "\(output.suffix(1500))")
        #expect(output.contains("␛]52;c;cHduZWQ=␇"))
        for sequence in HostileText.sequences {
            #expect(!output.contains(sequence), "\(sequence.debugDescription) reached the terminal")
        }
    }
}

/// Text a patron or a scenario file brings: echoed back, it is inert too.
@Suite("Hostile text from the patron's side")
struct HostileInputTests {
    @Test("An unknown command with control bytes is echoed with visible stand-ins")
    @MainActor func unknownCommand() async throws {
        let harness = try await Harness(catalogSize: 50)
        defer { Task { await harness.stop() } }
        let screen = await harness.text("\u{1B}]0;PWNED\u{07}x")
        #expect(!screen.contains("\u{1B}") && !screen.contains("\u{07}"), "\(screen.debugDescription)")
        #expect(screen.contains("␛]0;PWNED␇x"), "\(screen)")
    }

    @Test("A file name with escape codes in an error is shown with visible stand-ins")
    func fileNames() async throws {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bok-\u{1B}]0;PWNED\u{07}\u{1B}[2J.epub"
        ).path
        let result = try await OneShotProcessTests().bok(["read", name, "--aloud", "--to", "/tmp/x.wav"])
        #expect(result.status != 0)
        #expect(
            !result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("␛]0;PWNED␇␛[2J"), "\(result.stderr)")
    }

    @Test("A scenario report keeps its table when names hold pipes, line breaks and escape codes")
    func reportCells() {
        let cell = ScenarioReport.cell("a|b\nc\u{1B}[2J")
        #expect(cell == "a\\|b c␛[2J")
        #expect(ScenarioReport.xml("x\u{1B}<y>\u{FFFE}") == "x&lt;y&gt;")
    }
}
