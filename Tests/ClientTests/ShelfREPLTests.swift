import Catalog
import Foundation
import MockLending
import Shelf
import Testing

@testable import Client

@Suite("The shelf in the REPL", .serialized)
@MainActor
struct ShelfREPLTests {
    func harness(card: String = "1001", pin: String = "1234") async throws -> Harness {
        let h = try await Harness()
        h.session.account.prompt = ScriptedPatronPrompt(answers: [card], secrets: [pin])
        return h
    }

    /// The shelf line of a title.
    func line(_ screen: [String], _ title: String) -> String? { screen.first { $0.contains(title) } }

    @Test("A borrowed book is on the shelf with its days left, downloaded, and its badge follows the clock to Ended")
    func loanLifecycle() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        let title = try #require(h.session.lists.list?.byNumber[1]?.title)
        let borrowed = await h.run("borrow 1")
        #expect(borrowed.last == "Downloaded to your shelf: read 1 opens it.", "\(borrowed)")
        let books = h.dataDirectory.appendingPathComponent("data/bok/books")
        let files = try FileManager.default.contentsOfDirectory(atPath: books.path)
        #expect(files.count == 1 && files[0].hasSuffix(".epub"), "\(files)")

        var screen = await h.run("shelf")
        #expect(screen.first?.hasPrefix("Shelf · card 1001 · synced today ") == true, "\(screen)")
        #expect(screen.contains("Loans (1)"))
        let row = try #require(line(screen, title))
        #expect(
            row.hasPrefix(" 1  \(title)") && row.range(of: #"↓ +28 days$"#, options: .regularExpression) != nil,
            "\(row)")

        await h.run("mock clock +25d")
        screen = await h.run("shelf")
        #expect(line(screen, title)?.hasSuffix("3 days") == true, "\(screen)")
        await h.run("mock clock +3d")
        screen = await h.run("shelf --sync")
        #expect(line(screen, title)?.hasSuffix("today") == true, "\(screen)")
        await h.run("mock clock +1d")
        screen = await h.run("shelf --sync")
        #expect(screen.contains("Ended (1)") && !screen.contains("Loans (1)"), "\(screen)")
        #expect(line(screen, title)?.hasSuffix("ended") == true)

        let refused = await h.text("read 1")
        #expect(refused.contains("The loan of “\(title)” ended on "), "\(refused)")
        #expect(refused.contains("borrow id:"))
    }

    @Test("sample N puts the sample on the shelf with the Sample badge; remove N takes it off and deletes the file")
    func samples() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("search thriller")
        let list = try #require(h.session.lists.list)
        let number = try #require(list.byNumber.keys.sorted().first { list.byNumber[$0]?.teaser != nil })
        let title = try #require(list.byNumber[number]?.title)
        let answer = await h.text("sample \(number)")
        #expect(
            answer.hasPrefix("The sample of “\(title)” is on your shelf (") && answer.hasSuffix("read 1 opens it."),
            "\(answer)")
        let screen = await h.run("shelf")
        #expect(screen.contains("Samples (1)"))
        #expect(line(screen, title)?.range(of: #"↓ +Sample$"#, options: .regularExpression) != nil, "\(screen)")
        let sample = try #require(try h.session.shelfStore().samples().first)
        let samplePath = try #require(sample.path)
        #expect(FileManager.default.fileExists(atPath: samplePath))

        #expect(await h.text("remove 1") == "Removed the sample of “\(title)”.")
        #expect(!FileManager.default.fileExists(atPath: samplePath))
        #expect(!(await h.run("shelf")).contains("Samples (1)"))
    }

    @Test("tbr add N, tbr lists in the patron's order, tbr rm N")
    func toBeRead() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("search deckare")
        let first = try #require(h.session.lists.list?.byNumber[1]?.title)
        let second = try #require(h.session.lists.list?.byNumber[2]?.title)
        #expect(await h.text("tbr add 2") == "Added “\(second)” to your to-be-read list (1 book).")
        await h.run("tbr add 1")
        await h.run("tbr add 1")  // twice is once
        let listed = await h.run("tbr")
        #expect(listed.first == "To be read (2)")
        #expect(listed[1].hasPrefix(" 1  \(second)") && listed[2].hasPrefix(" 2  \(first)"), "\(listed)")
        #expect(await h.text("tbr rm 1") == "Took “\(second)” off your to-be-read list.")
        #expect(await h.text("tbr rm 5").contains("No book on the to-be-read list 5 (there is 1)"))
        let shelf = await h.run("shelf")
        #expect(shelf.contains("To be read (1)") && line(shelf, first) != nil)
        let refused = await h.text("read \(shelf.firstIndex { $0.contains(first) }.map { _ in 1 } ?? 1)")
        #expect(refused.contains("is on your to-be-read list"), "\(refused)")
    }

    @Test("A reservation shows its place in the queue, and Ready with the last day once it comes due")
    func reservations() async throws {
        let h = try await harness(card: "1003", pin: "3456")
        defer { Task { await h.stop() } }
        await h.run("login")
        var screen = await h.run("shelf")
        #expect(screen.contains("Reserved (2)") && !screen.contains { $0.hasPrefix("Ready") }, "\(screen)")
        #expect(screen.contains { $0.range(of: #"#\d+ in queue"#, options: .regularExpression) != nil })
        await h.run("mock clock +2d")
        screen = await h.run("shelf --sync")
        #expect(screen.contains("Ready to borrow (1)") && screen.contains("Reserved (1)"), "\(screen)")
        #expect(
            screen.contains {
                $0.range(of: #"Ready · borrow by \d{1,2} [A-Z][a-z]{2}$"#, options: .regularExpression) != nil
            })
    }

    @Test("shelf sort author asc puts Å after Z, remembers the order, and flips on repeat")
    func sortByAuthor() async throws {
        let h = try await harness(card: "1002", pin: "2345")
        defer { Task { await h.stop() } }
        await h.run("login")
        let screen = await h.run("shelf sort author asc")
        #expect(screen.first == "Shelf sorted by author, A→Ö.")
        let authors = screen.filter { $0.range(of: #"^ +\d+  "#, options: .regularExpression) != nil }
            .compactMap { $0.components(separatedBy: " · ").dropFirst().first?.components(separatedBy: "  ").first }
        let lastNames = authors.map {
            $0.components(separatedBy: ",")[0].split(separator: " ").last.map(String.init) ?? ""
        }
        #expect(lastNames.count == 5)
        let collation = Collation(.swedish)
        #expect(lastNames == lastNames.sorted { collation.key($0) < collation.key($1) }, "\(lastNames)")
        #expect(lastNames.last?.hasPrefix("Å") == true, "\(lastNames)")
        #expect(try h.session.shelfStore().setting("shelf.sort") == "author asc")
        #expect((await h.run("shelf sort author")).first == "Shelf sorted by author, Ö→A.")
    }

    @Test(
        """
        Offline: the shelf as last synced, and when; a book on disk still opens, a damaged one is refused and \
        fetched again
        """
    )
    func offline() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        await h.run("top 1")
        await h.run("borrow 1")
        let productID = try #require(h.session.lists.list?.byNumber[1]?.id)
        let record = try #require(try h.session.shelfStore().download(productID: productID))
        // Damaged on disk: notes opens the file, so it is checked, refused and downloaded again.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: record.path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0, 1, 2, 3]))
        try handle.close()
        #expect(await h.text("notes 1").hasPrefix("# "))
        #expect(try BookDownloader.sha256(of: URL(fileURLWithPath: record.path)) == record.sha256)

        await h.run("mock fault drop")
        let screen = await h.run("shelf --sync")
        #expect(screen.first?.hasPrefix("Shelf · card 1001 · synced today ") == true, "\(screen)")
        #expect(
            screen.contains { $0.hasPrefix("Offline: ") && $0.contains("as last synced; books on disk still open") },
            "\(screen)")
        #expect(screen.contains("Loans (1)"))
        let notes = await h.text("notes 1")
        #expect(notes.hasPrefix("# ") && notes.contains("No highlights"), "\(notes)")
    }

    @Test("The sync started with the REPL fills the shelf for the remembered card; the first shelf uses it")
    func startupSync() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        try h.session.account.credentialStore.save(.init(card: "1002", pin: "2345"))
        h.session.startSyncInBackground()
        _ = await h.session.shelfState.startupSync?.value
        // The library stops answering: a shelf that synced again now would say Offline.
        await h.run("mock fault drop")
        let screen = await h.run("shelf")
        #expect(screen.first?.hasPrefix("Shelf · card 1002 · synced today ") == true, "\(screen)")
        #expect(screen.contains("Loans (5)") && !screen.contains { $0.hasPrefix("Offline") }, "\(screen)")
    }

    @Test("Grid view shows the shelf as cards with their badges")
    func grid() async throws {
        let h = try await harness(card: "1002", pin: "2345")
        defer { Task { await h.stop() } }
        await h.run("login")
        await h.run("view grid")
        let screen = await h.run("shelf")
        #expect(screen.contains { $0.hasPrefix("1 12 days") }, "\(screen)")
        #expect(screen.contains { $0.contains("5 28 days") }, "\(screen)")
    }

    @Test("A shelf file that is not a database is named, with what to do, and left alone")
    func corruptDatabase() async throws {
        let h = try await harness()
        defer { Task { await h.stop() } }
        let file = try #require(h.session.paths?.shelfDatabase)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("these are my notes, not a database\n".utf8).write(to: file)
        let answer = await h.text("shelf")
        #expect(
            answer == "\(file.path) is not a bok database (not SQLite). Move it aside and bok will start a new one.")
        #expect(try String(contentsOf: file, encoding: .utf8) == "these are my notes, not a database\n")
    }

    @Test("shelf --json lists every entry with its section and badge")
    func json() async throws {
        let h = try await harness(card: "1002", pin: "2345")
        defer { Task { await h.stop() } }
        await h.run("login")
        let object = try await h.json(["shelf"])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == 5)
        #expect(entries.first?["section"] as? String == "loans" && entries.first?["badge"] as? String == "12 days")
        #expect(object["card"] as? String == "1002" && object["offline"] as? Bool == false)
        // After logout the shelf shows nobody's loans.
        await h.run("logout")
        let after = await h.run("shelf")
        #expect(after.first?.hasPrefix("Shelf · not logged in") == true && !after.contains("Loans (5)"), "\(after)")
    }
}
