import Foundation
import TestSupport
import Testing

/// bok pointed at calibre's content server, a real OPDS catalogue nobody here wrote: the kind is
/// found from what the URL answers, and a patron browses, searches, reads details and downloads.
@Suite("An OPDS catalogue (calibre)", .serialized, .enabled(if: CalibreServer.isInstalled, "needs calibre"))
struct CatalogueTests {
    static let books = [
        CalibreServer.Book(title: "Vintern 1953", author: "Anna Åberg", language: "sv"),
        CalibreServer.Book(title: "The Lake", author: "John Smith", language: "en"),
        CalibreServer.Book(title: "Sjön", author: "Eva Öst", language: "sv"),
    ]

    @Test("browse, search and --json one-shots, and a session that browses a section and downloads a book")
    func browseSearchAndGet() async throws {
        let server = try await CalibreServer.start(books: Self.books)
        defer { server.stop() }
        let bok = OneShotProcessTests()
        let library = ["--library", server.root.absoluteString]

        let top = try await bok.bok(library + ["browse"])
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stdout.contains("▸ By Title") && top.stdout.contains("browse N opens a section"), "\(top.stdout)")

        let found = try await bok.bok(library + ["search", "Sjön"])
        #expect(
            found.stdout.contains("1 hit for “Sjön”") && found.stdout.contains("Sjön · Eva Öst · EPUB"),
            "\(found.stdout)")

        // calibre answers a search without hits with 404; the patron hears that nothing matched.
        let none = try await bok.bok(library + ["search", "Zyxwvutsrq"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.stdout.contains("No book in this catalogue matches “Zyxwvutsrq”."), "\(none.stdout)")

        let json = try await bok.bok(library + ["search", "vintern", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let entries = try #require(object?["entries"] as? [[String: Any]])
        #expect(
            entries.first?["title"] as? String == "Vintern 1953"
                && entries.first?["authors"] as? [String] == ["Anna Åberg"])

        // A session on a pipe: into the section by title, details of a book, download it.
        let session = try await bok.bok(library, stdin: "browse\nbrowse 2\ninfo 3\nget 3\nborrow 9\nquit\n")
        #expect(session.stdout.contains("3 books"), "\(session.stdout)")
        #expect(session.stdout.contains("Formats      EPUB"), "\(session.stdout)")
        #expect(
            session.stdout.range(
                of: #"Downloaded to .*opds-[0-9a-f]+\.epub: read 3 opens it\."#, options: .regularExpression) != nil,
            "\(session.stdout)\n\(session.stderr)")
        #expect(session.stderr.contains("There is no entry 9 on this page: pick 1–3."), "\(session.stderr)")
    }

    @Test("A lending-library command in a catalogue says what works there")
    func lendingCommandsSayWhatWorks() async throws {
        let server = try await CalibreServer.start(books: Array(Self.books.prefix(1)))
        defer { server.stop() }
        let result = try await OneShotProcessTests().bok([
            "--library", server.root.absoluteString, "--kind", "opds", "top", "3",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is an OPDS catalogue: browse shows its sections"), "\(result.stderr)")
    }

    @Test(
        """
        A catalogue with a password: login asks for it (here on stdin), then browse and get work, and a wrong one \
        is said in words
        """
    )
    func loginAndDownloadWithAPassword() async throws {
        let server = try await CalibreServer.start(books: Self.books, user: ("elsa", "hemligt"))
        defer { server.stop() }
        let bok = OneShotProcessTests()
        let library = ["--library", server.root.absoluteString, "--kind", "opds"]
        let session = try await bok.bok(
            library, stdin: "browse\nlogin --user elsa --password-stdin\nhemligt\nbrowse 2\nget 1\nquit\n")
        #expect(session.stderr.contains("asks for a user name and password: log in with login"), "\(session.stderr)")
        #expect(
            session.stdout.contains("Logged in to 127.0.0.1:\(server.root.port ?? 0) as elsa."),
            "\(session.stdout)\n\(session.stderr)")
        #expect(session.stdout.contains("3 books"), "\(session.stdout)")
        #expect(
            session.stdout.range(
                of: #"Downloaded to .*opds-[0-9a-f]+\.epub: read 1 opens it\."#, options: .regularExpression) != nil,
            "\(session.stdout)\n\(session.stderr)")
        #expect(!session.stdout.contains("hemligt") && !session.stderr.contains("hemligt"), "the password was shown")

        let wrong = try await bok.bok(library, stdin: "login --user elsa --password-stdin\nfel\nquit\n")
        #expect(wrong.stderr.contains("did not accept that user name and password"), "\(wrong.stderr)")
    }
}
