import Catalog
import Foundation
import MockLending
import Testing

@testable import Client

/// The rough edges issue 17 found on the way: each as the patron would meet it.
@Suite("Small rough edges (issue 17)", .serialized)
@MainActor
struct SmallRoughEdgesTests {
    @Test("An unknown command with control bytes in it is echoed with the bytes shown, not sent to the terminal")
    func unknownCommandControls() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("\u{1B}]0;owned\u{07}boom")
        #expect(screen == ["Unknown command \"␛]0;owned␇boom\". Type help to see the commands."], "\(screen)")
        // The message itself is safe, whichever printer writes it (a one-shot writes it to stderr).
        let message = CommandTable().unknown("x\u{9B}2J").message
        #expect(!message.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x1B }, "\(message)")
    }

    @Test("A 100 KB search is refused before sending, with the limit, not as an unexplained HTTP 400")
    func longSearch() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("search " + String(repeating: "a", count: 100_000))
        #expect(
            screen == ["A search can be at most 500 characters long (this one has 100000); shorten it."],
            "\(screen.map { $0.prefix(120) })")
        let fine = await h.run("search " + String(repeating: "x", count: 500))
        #expect(fine.first?.contains("500 characters") != true)
    }

    @Test("A book whose product id is empty is not written as a hidden .epub file")
    func emptyProductID() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        var message = ""
        do {
            _ = try await h.session.bookOnDisk(productID: "", loanID: nil, title: "Nameless") { h.server.baseURL }
        } catch {
            message = ErrorReport.message(for: error)
        }
        #expect(message.contains("no product id") && message.contains("nothing was downloaded"), "\(message)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: h.session.booksDirectory.path)) ?? []
        #expect(
            !files.contains(".epub") && !files.contains(".-sample.epub") && !files.contains("-sample.epub"), "\(files)")
    }

    @Test("read DIR in a one-shot says bok's name once")
    func readDirectoryPrefix() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let capture = CapturingPrinter()
        let code = await Bok.oneShot(["read", h.dataDirectory.path], json: false, session: h.session, printer: capture)
        #expect(code != 0)
        let line = try #require(capture.errors.first)
        #expect(line.hasPrefix("bok: ") && !line.hasPrefix("bok: bok "), "\(line)")
        #expect(ErrorReport.diagnostic("bok could not read x") == "bok: could not read x")
        #expect(ErrorReport.diagnostic("Log in first.") == "bok: Log in first.")
    }

    @Test("--json writes the 8-bit CSI (U+009B) and the other C1 controls as \\u escapes")
    func jsonC1() async throws {
        let line = JSONOutput.encode(["title": "a\u{9B}31mb\u{85}c"])
        #expect(line == #"{"title":"a\u009b31mb\u0085c"}"#, "\(line)")
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        #expect(decoded?["title"] == "a\u{9B}31mb\u{85}c")
    }

    @Test("mock clock past 9999 is refused in one line and the clock stays")
    func clockPast9999() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let before = await h.server.now()
        let screen = await h.run("mock clock 9999-12-31")
        #expect(screen.count == 1 && screen.first?.contains("9999-01-01") == true, "\(screen)")
        #expect(await h.server.now().timeIntervalSince(before) < 60)
    }

    @Test("A mock command the mock cannot answer says so in words, not \"Something went wrong\"")
    func mockControlFailureIsWorded() async throws {
        let h = try await Harness()
        let control = try await h.session.library.mockControl()
        await h.stop()
        let error = await #expect(throws: (any Error).self) { _ = try await control.now() }
        let message = error.map { ErrorReport.message(for: $0) } ?? ""
        #expect(message.hasPrefix("Cannot reach the mock library at 127.0.0.1:"), "\(message)")
    }
}
