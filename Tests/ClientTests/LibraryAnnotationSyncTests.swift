import Catalog
import Foundation
import Logging
import MockLending
import Reader
import ReadingState
import Shelf
import TestSupport
import Testing

@testable import Client

/// Two machines (two bok homes) with one library card at a lending library that keeps its
/// patrons' bookmarks (the mock's OPDS face, Palace's annotation service): what one marks in a
/// loan the other finds, a deletion on one is gone on the other, an edit replaces the library's
/// copy without leaving two, and after many random changes on both, both and the library hold
/// the same set. Nothing is kept before the patron opts in with `sync on`.
@Suite("Annotations of a loan kept at the library, on two machines", .serialized)
@MainActor
struct LibraryAnnotationSyncTests {
    typealias Catalogue = CatalogueLoginTests.Catalogue

    /// One machine: bok in the mock's OPDS face, logged in with card 1001, the loan's file on disk.
    @MainActor
    struct Machine {
        let bok: Catalogue
        let store: ShelfStore
        let book: BookID
        let content: BookContent

        /// The loan's file fetched (`notes 1` fetches it, as `read 1` does) and linked.
        init(_ server: MockLendingServer, home: URL, pin: String, borrow: String?) async throws {
            bok = Catalogue(root: server.opdsURL, home: home, answers: ["1001"], secrets: [pin])
            bok.session.library.clock.timeZone = MockRules.stockholm
            #expect(await bok.text("login").contains("as 1001"))
            if let borrow {
                _ = await bok.text("search \(borrow)")
                let borrowed = await bok.text("borrow 1")
                #expect(borrowed.contains("Borrowed"), "\(borrowed)")
            }
            _ = await bok.text("shelf")
            let notes = await bok.text("notes 1")
            #expect(notes.hasPrefix("# "), "\(notes)")
            store = try bok.session.shelfStore()
            let synced = try #require(try store.syncedBooks().first, "the loan is linked to the library")
            #expect(synced.link == nil, "kept at the library, not a calibre server")
            book = synced.book
            content = BookContent(book: try EPUBBook.open(path: try #require(synced.file)))
        }

        /// `sync now`; what it said.
        @discardableResult
        func syncNow() async -> String { await bok.text("sync now") }

        /// What this machine holds: each live bookmark and highlight, with its note.
        func held() throws -> Set<String> {
            Set(
                try store.localAnnotations(of: book).filter { !$0.removed }.map {
                    "\($0.kind) \($0.key) \($0.note ?? "-")"
                })
        }

        /// A place `fraction` of the way through the book's longest chapter.
        func place(_ fraction: Double) -> Locator {
            let spine = (0..<content.book.spine.count).max { content.length(at: $0) < content.length(at: $1) } ?? 0
            let offset = Int(Double(max(0, content.length(at: spine) - 20)) * fraction)
            return content.locator(spineIndex: spine, offset: offset)
        }
    }

    /// The library's copies, as the other machines see them: kind, bok's name for it (or the
    /// library's id), note.
    static func kept(_ client: LibraryAnnotations, _ service: URL) async throws -> [String] {
        try await client.annotations(at: service).filter { $0.motivation != .readingPlace }.map {
            "\($0.motivation == .bookmarking ? "bookmark" : "highlight") \($0.key ?? $0.id!.absoluteString) "
                + "\($0.note ?? "-")"
        }.sorted()
    }

    @Test("Opt in, highlight on A, seen on B; edited, one copy; deleted on B, gone on A; 50 random rounds end equal")
    func twoMachines() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let pin = try #require(MockLendingServer.seededPIN(card: "1001"))
            let a = try await Machine(server, home: home.appendingPathComponent("a"), pin: pin, borrow: "sommar")
            let link = try #require(try a.store.libraryLink(of: a.book))
            let client = LibraryAnnotations(card: "1001", pin: pin)

            // Before the patron opts in, nothing leaves: sync now says how to choose it.
            let mark = Highlight(
                start: a.place(0.2), end: a.place(0.21), color: .blue, note: "Läs om", text: "ord")
            try a.store.saveHighlight(mark, bookID: a.book)
            let refused = await a.syncNow()
            #expect(
                refused.contains("keeps bookmarks only for patrons who choose it: turn it on with sync on"),
                "\(refused)")
            #expect(try a.store.pendingAnnotationCount(of: a.book) == 1, "the change still waits")
            let on = await a.bok.text("sync on")
            #expect(on.contains("keeps the bookmarks, highlights and place of your loans now"), "\(on)")
            #expect(await a.syncNow().contains("Synced."))
            #expect(try await Self.kept(client, link.service) == ["highlight \(mark.id.uuidString) Läs om"])
            #expect(try a.store.pendingAnnotationCount(of: a.book) == 0)
            let state = await a.bok.text("sync")
            #expect(state.contains("1 loan keeps its bookmarks, highlights and place at its library."), "\(state)")

            // B, the same card on another machine, has it once its file is there.
            let b = try await Machine(server, home: home.appendingPathComponent("b"), pin: pin, borrow: nil)
            await b.syncNow()
            #expect(try b.held() == a.held(), "B has A's highlight")
            let notes = await b.bok.text("notes 1")
            #expect(notes.contains("Läs om"), "\(notes)")

            // An edit on A replaces the library's copy: one copy, the new note, on B too.
            var edited = mark
            edited.note = "Läs om isen"
            try a.store.saveHighlight(edited, bookID: a.book)
            await a.syncNow()
            #expect(try await Self.kept(client, link.service) == ["highlight \(mark.id.uuidString) Läs om isen"])
            await b.syncNow()
            #expect(try b.held() == ["highlight \(mark.id.uuidString) Läs om isen"])

            // Deleted on B: gone from the library, then from A.
            try b.store.removeHighlight(id: mark.id, bookID: b.book)
            await b.syncNow()
            #expect(try await Self.kept(client, link.service).isEmpty)
            await a.syncNow()
            #expect(try a.held().isEmpty)

            // A copy sent just before bok was stopped, its id never written down, is known again by
            // bok's name for it: not made twice, and the extra copy is deleted.
            let twice = Highlight(start: a.place(0.5), end: a.place(0.51), color: .yellow, text: "x")
            try a.store.saveHighlight(twice, bookID: a.book)
            let sync = try #require(await a.bok.session.librarySync(a.book, store: a.store))
            let local = try #require(try a.store.localAnnotations(of: a.book).first { $0.key == twice.id.uuidString })
            let lost = try #require(sync.web(local, in: a.content))
            // Twice: sent, stopped, sent again, stopped again.
            _ = try await client.add(lost, of: link.source, to: link.service)
            _ = try await client.add(lost, of: link.source, to: link.service)
            await a.syncNow()
            #expect(try await Self.kept(client, link.service) == ["highlight \(twice.id.uuidString) -"])

            // A highlight another reading system made (no name of bok's) reaches both; an edit of its
            // note on A goes back in its place.
            let other = try await client.add(
                WebAnnotation(
                    motivation: .highlighting,
                    cfi: try #require(a.content.cfi(for: a.place(0.7), form: .standard)).string,
                    endCFI: try #require(a.content.cfi(for: a.place(0.71), form: .standard)).string,
                    time: Date(), device: "Palace", note: "från appen"),
                of: link.source, to: link.service)
            let otherKey = try #require(other.id).absoluteString
            await a.syncNow()
            await b.syncNow()
            let onA = try a.held()
            #expect(onA.contains("highlight \(otherKey) från appen"), "\(onA)")
            #expect(try b.held() == a.held())
            var fromApp = try #require(try a.store.highlights(bookID: a.book).first { $0.note == "från appen" })
            fromApp.note = "ändrad"
            try a.store.saveHighlight(fromApp, bookID: a.book)
            await a.syncNow()
            await b.syncNow()
            let onB = try b.held()
            #expect(onB.contains("highlight \(otherKey) ändrad"), "\(onB)")
            #expect(try await Self.kept(client, link.service).count == 2, "the app's copy replaced, not doubled")

            // Random rounds of making, editing and deleting on both machines, each syncing now and then.
            var random = SeededRandom(seed: 30)
            for round in 0..<50 {
                let machine = random.next(2) == 0 ? a : b
                let highlights = try machine.store.highlights(bookID: machine.book)
                let bookmarks = try machine.store.bookmarks(bookID: machine.book)
                switch random.next(5) {
                case 0:
                    let from = Double(random.next(900)) / 1000
                    try machine.store.saveHighlight(
                        Highlight(
                            start: machine.place(from), end: machine.place(from + 0.005), color: .green,
                            note: random.next(2) == 0 ? "not \(round)" : nil, text: "t"),
                        bookID: machine.book)
                case 1:
                    _ = try machine.store.addBookmark(
                        machine.place(Double(random.next(1000)) / 1000), bookID: machine.book)
                case 2:
                    if !highlights.isEmpty {
                        var one = highlights[random.next(highlights.count)]
                        one.note = "ändrad \(round)"
                        try machine.store.saveHighlight(one, bookID: machine.book)
                    }
                case 3:
                    if !highlights.isEmpty {
                        let one = highlights[random.next(highlights.count)]
                        try machine.store.removeHighlight(id: one.id, bookID: machine.book)
                    }
                default:
                    if !bookmarks.isEmpty {
                        let one = bookmarks[random.next(bookmarks.count)]
                        try machine.store.removeBookmark(id: one.id, bookID: machine.book)
                    }
                }
                if random.next(3) == 0 { await machine.syncNow() }
            }
            for machine in [a, b, a] { #expect(await machine.syncNow().contains("Synced.")) }
            let library = Set(try await Self.kept(client, link.service))
            #expect(try a.held() == b.held(), "A and B hold the same")
            #expect(try a.held() == library, "and so does the library")
            #expect(try await Self.kept(client, link.service).count == library.count, "no copy twice")
            #expect(!library.isEmpty)
        }
    }

    @Test("Notes outlive the loan: returned, they stay; changed meanwhile, they wait, and go when borrowed again")
    func notesOutliveTheLoan() async throws {
        try await CatalogueLoginTests.atMockLibrary { server, home in
            let pin = try #require(MockLendingServer.seededPIN(card: "1001"))
            let a = try await Machine(server, home: home.appendingPathComponent("a"), pin: pin, borrow: "sommar")
            let link = try #require(try a.store.libraryLink(of: a.book))
            let client = LibraryAnnotations(card: "1001", pin: pin)
            _ = await a.bok.text("sync on")
            let kept = Highlight(start: a.place(0.3), end: a.place(0.31), color: .pink, note: "Spara", text: "x")
            try a.store.saveHighlight(kept, bookID: a.book)
            #expect(await a.syncNow().contains("Synced."))

            _ = await a.bok.text("shelf")
            let returned = await a.bok.text("return 1")
            #expect(returned.contains("Returned"), "\(returned)")
            // A library that forgets an ended loan's annotations (the mock keeps them: here they go
            // as a library might lose them) deletes nothing here.
            for annotation in try await client.annotations(at: link.service) {
                try await client.remove(try #require(annotation.id))
            }
            #expect(await a.syncNow().contains("Synced."))
            #expect(try a.held() == ["highlight \(kept.id.uuidString) Spara"], "still kept here")
            var edited = kept
            edited.note = "Spara, ändrad efter lånet"
            try a.store.saveHighlight(edited, bookID: a.book)
            let quiet = await a.syncNow()
            #expect(quiet.contains("Synced."), "an ended loan's change waits, and that is no failure: \(quiet)")
            #expect(try a.store.pendingAnnotationCount(of: a.book) == 1)
            #expect(try a.held() == ["highlight \(kept.id.uuidString) Spara, ändrad efter lånet"], "kept here")

            let id = String(link.source.split(separator: ":").last ?? "")
            let again = await a.bok.text("borrow id:\(id)")
            #expect(again.contains("Borrowed"), "\(again)")
            #expect(await a.syncNow().contains("Synced."))
            #expect(try a.store.pendingAnnotationCount(of: a.book) == 0)
            #expect(
                try await Self.kept(client, link.service) == [
                    "highlight \(kept.id.uuidString) Spara, ändrad efter lånet"
                ])
        }
    }
}
