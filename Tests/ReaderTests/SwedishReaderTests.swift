import Localization
import Terminal
import Testing

@testable import Reader

/// The reader in Swedish: what a patron reads at the `:` prompt and when a book cannot be opened.
@Suite("The reader in Swedish", .serialized)
struct SwedishReaderTests {
    private static func swedish<T>(_ body: () throws -> T) rethrows -> T {
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        return try body()
    }

    @Test("A mistyped : command and a changed setting answer in Swedish")
    func commandMessages() throws {
        try Self.swedish {
            guard case .failure(let error) = ReaderCommand.parse("theme purple") else {
                Issue.record("theme purple parsed")
                return
            }
            #expect(error.message == "Teman är day, night och sepia: :theme night")
            guard case .failure(let unknown) = ReaderCommand.parse("frobnicate") else {
                Issue.record("frobnicate parsed")
                return
            }
            #expect(unknown.message == "Det finns inget kommando :frobnicate; tryck ? för listan.")

            var session = ReaderSession(
                book: try ReaderSessionTests.book(), store: InMemoryPositionStore(), columns: 80, rows: 23)
            session.perform(try ReaderCommand.parse("margin 4").get())
            #expect(session.message == "Marginaler på 4 tecken.")
            session.perform(try ReaderCommand.parse("goto chapter 30").get())
            #expect(session.message == "Boken har 6 kapitel; prova :goto chapter 6.")
        }
    }

    @Test("The keys overlay describes the : commands in Swedish")
    func commandSummary() throws {
        try Self.swedish {
            let book = try ReaderSessionTests.book()
            let session = ReaderSession(book: book, store: InMemoryPositionStore(), columns: 120, rows: 59)
            var view = ReaderView(session: session, capabilities: .plain, badge: nil, columns: 120, rows: 60)
            _ = view.handle(.character("?"))
            let keys = view.textRows().joined(separator: "\n")
            #expect(keys.contains("radavstånd") && keys.contains("sidans färger"), "\(keys)")
        }
    }

    @Test("A damaged or cut-off book file says so in Swedish, without the zip's details")
    func brokenBook() {
        Self.swedish {
            let empty = #expect(throws: ReaderError.self) { try EPUBBook(bytes: []) }
            #expect(empty?.message == "Bokens fil är tom; ladda ner den igen.")
            let truncated = #expect(throws: ReaderError.self) {
                try EPUBBook(bytes: BrokenBookTests.bytes(.truncated))
            }
            #expect(truncated?.message == "Bokens fil är ofullständig; ladda ner den igen.")
            #expect(truncated?.detail != nil)
            let drm = #expect(throws: ReaderError.self) { try EPUBBook(bytes: BrokenBookTests.bytes(.drm)) }
            #expect(drm?.message == "Boken är kopieringsskyddad (DRM); bok kan inte öppna skyddade böcker.")
        }
    }
}
