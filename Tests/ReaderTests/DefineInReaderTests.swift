import Foundation
import Localization
import Speech
import Terminal
import TestSupport
import Testing

@testable import Reader

/// `:define WORD` and `d` in the reader, against a real dictd on loopback with Debian's FreeDict
/// dictionaries: the entry in a panel over the page, the word kept in the book's vocabulary list.
@Suite("Words looked up in the reader", .serialized)
struct DefineInReaderTests {
    /// A Swedish or English book open in a view whose dictionary is the dictd on `port`.
    static func view(language: String, port: UInt16, store: InMemoryPositionStore) throws -> ReaderView {
        var builder = EPUBBuilder(chapters: [
            .init("one.xhtml", "Ett", "<p>Huset låg vid havet, och hon läste böcker om kvällarna.</p>")
        ])
        builder.language = language
        var session = ReaderSession(book: try builder.open(), store: store, columns: 80, rows: 23)
        session.dictionary = WordLookup(host: "127.0.0.1", port: port, timeout: 2)
        return ReaderView(session: session, capabilities: .plain, badge: nil, columns: 80, rows: 24)
    }

    static func type(_ text: String, into view: inout ReaderView) {
        for character in text { _ = view.handle(.character(character)) }
    }

    /// Runs `body` with a dictd serving the FreeDict Swedish dictionaries on a loopback port.
    static func withDictd(_ body: (UInt16) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-dict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try Dictd.start(in: folder)
        try #require(started != nil, "dictd and dict-freedict-swe-eng/-eng-swe: scripts/install-test-tools.sh")
        defer { started!.stop() }
        try body(started!.port)
    }

    @Test("d then a word shows its Swedish–English entry over the page, and the word is kept with its base form")
    func swedishWord() throws {
        Localization.use("en", environment: [:])
        let store = InMemoryPositionStore()
        try Self.withDictd { port in
            var view = try Self.view(language: "sv", port: port, store: store)
            _ = view.handle(.character("d"))
            #expect(view.textRows().last?.contains(":define ") == true, "d opens the command line with define typed")
            Self.type("huset", into: &view)
            _ = view.handle(.enter)
            let screen = view.textRows().joined(separator: "\n")
            #expect(screen.contains("“huset” is not in the dictionaries; “hus” is:"), "\(screen)")
            #expect(screen.contains("house"), "\(screen)")
            #expect(screen.contains("Swedish-English"), "\(screen)")
            // Any other key closes the panel; the page is back.
            _ = view.handle(.escape)
            #expect(!view.textRows().joined().contains("house"))
            let kept = store.lookedUpWords(bookID: view.session.bookID)
            #expect(kept.map(\.word) == ["huset"] && kept.first?.found == "hus", "\(kept)")
            #expect(kept.first?.meaning.contains("house") == true, "\(kept)")
            #expect(kept.first?.dictionary == "fd-swe-eng")
            // Looked up again: one word, counted twice.
            _ = view.handle(.character(":"))
            Self.type("define huset", into: &view)
            _ = view.handle(.enter)
            #expect(store.lookedUpWords(bookID: view.session.bookID).first?.times == 2)
        }
    }

    @Test("An English word in an English book, with bok in Swedish, gives the English–Swedish entry")
    func englishWordInSwedish() throws {
        Localization.use("sv", environment: [:])
        defer { Localization.use("en", environment: [:]) }
        try Self.withDictd { port in
            var view = try Self.view(language: "en", port: port, store: InMemoryPositionStore())
            _ = view.handle(.character(":"))
            Self.type("define house", into: &view)
            _ = view.handle(.enter)
            let screen = view.textRows().joined(separator: "\n")
            #expect(screen.contains("English-Swedish"), "\(screen)")
            #expect(screen.contains("hus"), "\(screen)")
        }
    }

    @Test("r in the entry's panel reads it aloud, in the language it explains the word in")
    func readEntryAloud() throws {
        Localization.use("en", environment: [:])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bok-spd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try #require(
            try SpeechDispatcherServer.start(in: folder), "speech-dispatcher: scripts/install-test-tools.sh")
        defer { speech.stop() }
        setenv("SPEECHD_ADDRESS", speech.address, 1)
        defer { unsetenv("SPEECHD_ADDRESS") }
        try Self.withDictd { port in
            var view = try Self.view(language: "sv", port: port, store: InMemoryPositionStore())
            view.session.speechChoice = .speechd
            _ = view.handle(.character(":"))
            Self.type("define bil", into: &view)
            _ = view.handle(.enter)
            #expect(view.textRows().joined().contains("r read aloud"))
            _ = view.handle(.character("r"))
            for _ in 0..<100 where speech.messages.isEmpty { usleep(50_000) }
            let said = speech.messages
            #expect(said.count == 1 && said.first?.language == "en", "\(said)")
            #expect(said.first?.text.contains("car") == true, "\(said)")
            #expect(view.textRows().joined().contains("car"), "the panel stays open while it is read")
        }
    }

    @Test("Tab after :define offers the page's words that begin with what is typed, in the page's order")
    func tabCompletesFromThePage() throws {
        var view = try Self.view(language: "sv", port: 9, store: InMemoryPositionStore())
        _ = view.handle(.character("d"))
        Self.type("h", into: &view)
        _ = view.handle(.tab)
        #expect(view.textRows().last?.contains(":define Huset") == true, "\(view.textRows().last ?? "")")
        _ = view.handle(.tab)
        #expect(view.textRows().last?.contains(":define havet") == true, "\(view.textRows().last ?? "")")
        _ = view.handle(.tab)
        #expect(view.textRows().last?.contains(":define hon") == true, "\(view.textRows().last ?? "")")
        _ = view.handle(.tab)
        #expect(view.textRows().last?.contains(":define Huset") == true, "round again")
    }

    @Test("Without a dictionary server, :define says what to install, and the page stays")
    func noServer() throws {
        Localization.use("en", environment: [:])
        var view = try Self.view(language: "sv", port: 9, store: InMemoryPositionStore())
        _ = view.handle(.character(":"))
        Self.type("define hus", into: &view)
        _ = view.handle(.enter)
        #expect(view.session.message?.contains("sudo apt install dictd") == true, "\(view.session.message ?? "")")
        #expect(view.textRows().joined().contains("Huset låg vid havet"))
    }
}
