import Foundation
import Terminal
import Testing

@testable import Reader

/// The reader in words for a screen reader (``ReaderView/transcript()``), and lists chosen by number.
@Suite struct ReaderTranscriptTests {
    static let screenReader = TerminalCapabilities(isTTY: true, colorDepth: .none, unicode: true, screenReader: true)

    private func view(capabilities: TerminalCapabilities) throws -> ReaderView {
        let book = try ReaderSessionTests.book(chapters: 4, paragraphs: 12)
        let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 80, rows: 23)
        return ReaderView(session: session, capabilities: capabilities, badge: nil, columns: 80, rows: 24)
    }

    @Test("A page is said as lines: where it is, its heading in words, its text without justification")
    func pageInWords() throws {
        let reader = try view(capabilities: Self.screenReader)
        let said = reader.transcript()
        #expect(said.place.hasPrefix("Chapter 1. Page 1 of"), "\(said.place)")
        #expect(said.page.first == "Heading: Chapter 1", "\(said.page)")
        #expect(said.page.contains { $0.hasPrefix("Paragraph 1.1. ") })
        #expect(!said.page.contains { $0.contains("  ") }, "no runs of spaces: \(said.page)")
        // Room for the place line and words beside the page: the page is shorter than the window.
        #expect(said.page.count <= 24 - 4)
        #expect(said.panel == nil && said.prompt == nil)
    }

    @Test("A footnote reference is said with its number, and its note as lines")
    func footnoteLink() throws {
        var reader = try view(capabilities: Self.screenReader)
        _ = reader.handle(.character("n"))
        let said = reader.transcript()
        let line = try #require(said.page.first { $0.contains("See the note") }, "\(said.page)")
        #expect(line.contains("Footnote link 1: 1"), "\(line)")
        // The one link on the page is followed at once: the note is said as lines of its own.
        _ = reader.handle(.character("f"))
        let note = reader.transcript()
        #expect(note.panelLines == ["The note itself, about ferries."], "\(note)")
        #expect(note.panelHelp == "Note. Enter goes to the note; any other key closes it.")
    }

    @Test("The contents are a numbered list with the current chapter said, chosen by a number and Enter")
    func contentsByNumber() throws {
        for capabilities in [TerminalCapabilities.plain, Self.screenReader] {
            var reader = try view(capabilities: capabilities)
            _ = reader.handle(.character("t"))
            let said = reader.transcript()
            #expect(said.panelLines.first == "1. Chapter 1 (you are here)", "\(said.panelLines)")
            #expect(said.panelHelp?.hasPrefix("Contents, 4 entries. Type a number and Enter") == true)
            _ = reader.handle(.character("3"))
            #expect(reader.transcript().panel?.list.selected == 2)
            _ = reader.handle(.enter)
            #expect(reader.session.currentChapterTitle() == "Chapter 3")
            #expect(reader.transcript().panel == nil)
        }
    }

    @Test("Two digits choose the entry of that number; one past the list starts the number again")
    func twoDigits() throws {
        let reader = try view(capabilities: .plain)
        var list = ReaderView.ListState()
        #expect(reader.typeNumber(.character("1"), &list, count: 14))
        #expect(reader.typeNumber(.character("2"), &list, count: 14))
        #expect(list.selected == 11)
        #expect(reader.typeNumber(.character("7"), &list, count: 14))
        #expect(list.selected == 6 && list.typed == "7", "127 is past 14: 7 alone")
        #expect(!reader.typeNumber(.character("j"), &list, count: 14))
        #expect(list.typed.isEmpty)
    }

    @Test("A search hit is said with whole words around it; another message is not")
    func searchHitInWords() throws {
        var reader = try view(capabilities: Self.screenReader)
        for key in "/Paragraph 3.5" { _ = reader.handle(.character(key)) }
        _ = reader.handle(.enter)
        let message = try #require(reader.transcript().message)
        #expect(message.hasPrefix("Match 1 of 1 for \"Paragraph 3.5\": "), "\(message)")
        #expect(message.contains("Paragraph 3.5."), "\(message)")
        #expect(ReaderView.wholeWords("…f day when a lamp burned in the win…") == "…day when a lamp burned in the…")
        _ = reader.handle(.character("m"))
        #expect(reader.transcript().message == "Bookmark added.", "\(reader.transcript().message ?? "")")
    }
}
