import Catalog
import Foundation
import Terminal
import Testing

@testable import Client

/// The shelf and result lists for a screen reader: a book a line in words, nothing cut, no
/// columns of spaces, arrows or cards.
@Suite("The shelf for a screen reader", .serialized)
@MainActor
struct ScreenReaderShelfTests {
    static let theme = Theme(
        caps: TerminalCapabilities(isTTY: true, colorDepth: .none, unicode: true, screenReader: true), width: 60,
        height: 40)

    @Test("A loan is a line of words: title, author, days left, on disk; grid view is the same list")
    func shelfInWords() async throws {
        let h = try await Harness(theme: Self.theme)
        defer { Task { await h.stop() } }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        await h.run("top 1")
        let product = try #require(h.session.lists.list?.byNumber[1])
        await h.run("borrow 1")
        let screen = await h.run("shelf")
        let author = try #require(product.authors.first?.fullName)
        let row = try #require(screen.first { $0.contains(product.title) }, "\(screen)")
        #expect(row == " 1  \(product.title) - \(author) - 28 days - on disk", "\(row)")
        await h.run("view grid")
        #expect(await h.run("shelf").contains(row), "the grid is a list for a screen reader")
        let top = await h.run("top 1")
        #expect(top.contains { $0.hasPrefix(" 1  on loan to you - \(product.title)") }, "\(top)")
    }
}
