import Foundation
import Localization
import Terminal
import Testing

@testable import Reader

/// `]` and `[` move by headings, across chapters, and say which heading they reached.
@Suite struct HeadingNavigationTests {
    static func view() throws -> ReaderView {
        let filler = (1...30).map { "<p>Line \($0) of text that fills the page.</p>" }.joined()
        let book = try EPUBBuilder(chapters: [
            .init("one.xhtml", "One", "<h1>Harbour</h1><p>Short.</p><h2>Boats</h2>\(filler)<h2>Nets</h2><p>End.</p>"),
            .init("two.xhtml", "Two", "<h1>Island</h1>\(filler)<aside epub:type=\"footnote\"><h3>Note</h3></aside>"),
        ]).open()
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 60, rows: 11)
        return ReaderView(session: session, capabilities: .plain, badge: nil, columns: 60, rows: 12)
    }

    @Test("] goes from heading to heading, on the same page and over chapters; [ comes back")
    func headings() throws {
        Localization.use("en", environment: [:])
        var view = try Self.view()
        var said: [String] = []
        for _ in 0..<4 {
            _ = view.handle(.character("]"))
            said.append(view.session.message ?? "")
        }
        #expect(
            said == ["Heading: Boats", "Heading: Nets", "Heading: Island", "No heading after this one."], "\(said)")
        #expect(view.textRows().joined(separator: "\n").contains("Island"))
        _ = view.handle(.character("["))
        #expect(view.session.message == "Heading: Nets")
        #expect(view.textRows().joined(separator: "\n").contains("Nets"))
        _ = view.handle(.character("["))
        #expect(view.session.message == "Heading: Boats")
        _ = view.handle(.character("["))
        #expect(view.session.message == "Heading: Harbour")
        _ = view.handle(.character("["))
        #expect(view.session.message == "No heading before this one.")
    }
}

/// `>` and `<` change the reading-aloud speed by 25 words a minute, within eSpeak NG's 80–450.
@Suite struct SpeedKeysTests {
    @Test("> twice from the voice's own 175 gives 225, kept for the book; < stops at 80")
    func speed() throws {
        Localization.use("en", environment: [:])
        var view = try HeadingNavigationTests.view()
        _ = view.handle(.character(">"))
        _ = view.handle(.character(">"))
        #expect(view.session.preferences.speechRate == 225)
        #expect(view.session.message?.contains("225 words a minute") == true, "\(view.session.message ?? "")")
        for _ in 0..<10 { _ = view.handle(.character("<")) }
        #expect(view.session.preferences.speechRate == 80)
    }
}
