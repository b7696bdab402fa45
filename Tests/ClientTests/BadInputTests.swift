import Catalog
import Foundation
import MockLending
import Terminal
import Testing

@testable import Client

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Bad input gets one clear line and the REPL goes on", .serialized)
@MainActor
struct BadInputTests {
    @Test("An unknown command suggests the nearest one")
    func unknownCommand() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("serch thriller")
        #expect(screen == ["Unknown command \"serch\". Did you mean \"search\"?"])
        let far = await h.run("xyzzy")
        #expect(far == ["Unknown command \"xyzzy\". Type help to see the commands."])
    }

    @Test("info 99 after 5 results says there are 5")
    func infoOutOfRange() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        await h.run("top 5")
        let screen = await h.run("info 99")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("No book 99 in the last results (there are 5)") == true)
    }

    @Test("An empty search shows the query syntax")
    func emptySearch() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("search")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("author:Å*") == true)
        #expect(screen.first?.contains("title:") == true)
    }

    @Test("A server that is down gets a one-line error naming it, and the REPL goes on")
    func serverDown() async throws {
        let h = try await Harness()
        let port = h.server.port
        await h.stop()
        let screen = await h.run("search thriller")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("127.0.0.1:\(port)") == true, "\(screen)")
        #expect(screen.first?.contains("Cannot reach") == true)
        let help = await h.run("help")
        #expect(help.count > 5)
    }

    @Test("A slow server hits the deadline with a one-line error")
    func slowServer() async throws {
        let h = try await Harness(timeout: 1)
        defer { Task { await h.stop() } }
        try await setFaults(h, #"{"LatencyMs": 2500}"#)
        let screen = await h.run("search thriller")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("did not answer within 1 s") == true, "\(screen)")
    }

    @Test("A server answering garbage gets a one-line error")
    func garbage() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        try await setFaults(h, #"{"Malformed": true}"#)
        let screen = await h.run("search thriller")
        #expect(screen.count == 1)
        #expect(screen.first?.contains("sent an answer bok cannot read") == true, "\(screen)")
    }

    @Test("Unknown sort keys and filters say what is allowed")
    func badWords() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(await h.text("sort autor").contains("Did you mean \"author\"?"))
        #expect(await h.text("filter colour:red").contains("Unknown filter"))
        #expect(await h.text("view table").contains("view list or view grid"))
        #expect(await h.text("search thriller --bogus").contains("no option --bogus"))
        #expect(await h.text("more").contains("Search first"))
    }

    @Test("Plain output has no escape codes; NO_COLOR turns colour off at a terminal; C locale gets ASCII marks")
    func plainOutput() async throws {
        let noColor = TerminalCapabilities.detect(
            environment: ["NO_COLOR": "1", "TERM": "xterm-256color", "LANG": "sv_SE.UTF-8"], isTTY: true)
        let h = try await Harness(theme: Theme(caps: noColor, width: 100))
        defer { Task { await h.stop() } }
        let text = await h.text("search thriller")
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("✓") || text.contains("✗"))

        let ascii = TerminalCapabilities.detect(environment: ["LANG": "C", "TERM": "xterm"], isTTY: true)
        h.session.theme = Theme(caps: ascii, width: 100)
        let asciiText = await h.text("search thriller")
        #expect(!asciiText.contains("✓") && !asciiText.contains("✗"))
        #expect(asciiText.contains("+ Available") || asciiText.contains("x "))
    }

    func setFaults(_ h: Harness, _ body: String) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(h.server.port)/mock/faults")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode ?? 0 < 300)
    }

    @Test("read FOLDER, read id: and a 1 GB file that is no book each get one line that says what to do")
    func readWhatIsNoBook() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let folder = FileManager.default.temporaryDirectory.path
        #expect(
            await h.run("read \(folder)")
                == ["\(folder) is a folder, not a book. Give the path of an .epub file, e.g. read ~/Books/roman.epub."])
        #expect(await h.run("read id:") == ["id: needs a product id after it, e.g. read id:3947650."])
        #expect(await h.run("tbr rm id:") == ["id: needs a product id after it, e.g. tbr rm id:3947650."])
        // Sparse: a gigabyte of zeros costs no disk, and bok reads eight bytes of it.
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).epub")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: big) }
        #expect(truncate(big.path, 1 << 30) == 0)
        #expect(await h.run("notes \(big.path)") == ["This file is not an EPUB book; open an .epub file."])
    }
}
