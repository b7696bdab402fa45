import Foundation
import Testing

@testable import Client

@Suite("read and notes at the prompt", .serialized)
@MainActor
struct ReadCommandTests {
    nonisolated static let manual = "/usr/share/doc/live-manual/epub/live-manual.en.epub"

    @Test("A missing file, and read without a terminal, get one clear line")
    func badInput() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        #expect(await h.run("read /no/such/book.epub") == ["There is no file /no/such/book.epub. Check the path."])
        #expect(await h.run("read") == ["Usage: read N (a number from shelf) or read FILE.epub"])
        #expect(await h.run("read 3") == ["Your shelf is empty. borrow N or sample N puts books on it."])
        if FileManager.default.fileExists(atPath: Self.manual), isatty(0) == 0 {
            #expect(await h.text("read \(Self.manual)").contains("read needs a terminal"))
        }
    }

    @Test(
        "notes prints a book's notes as Markdown, headed by its title",
        .enabled(
            if: FileManager.default.fileExists(atPath: manual), "needs live-manual-epub (scripts/install-test-epubs.sh)"
        ))
    func notes() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let screen = await h.run("notes \(Self.manual)")
        #expect(h.errors.isEmpty, "\(screen)")
        #expect(screen.first?.hasPrefix("# ") == true, "\(screen.prefix(3))")
    }
}
