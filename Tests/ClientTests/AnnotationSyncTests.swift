#if canImport(Glibc)
import Catalog
import Foundation
import Reader
import ReadingState
import Shelf
import Terminal
import TestSupport
import Testing

/// Two machines (two bok homes) and one calibre content server with two users: what one machine
/// marks in a book the other finds there, a deletion on one is gone on the other, and after many
/// random changes on both, both and the server hold the same bookmarks, highlights and notes.
/// One server for the whole scenario: calibre takes seconds to start.
@Suite(
    "Annotations on two machines through calibre", .serialized,
    .enabled(if: CalibreServer.isInstalled && access("/dev/ptmx", R_OK | W_OK) == 0, "needs calibre and /dev/ptmx"))
struct AnnotationSyncTests {
    /// One machine: bok at a terminal, logged in, the book got and opened once (so it is linked).
    struct Machine {
        let laptop: Laptop
        let store: ShelfStore
        let book: BookID
        let file: String

        init(_ server: CalibreServer) async throws {
            laptop = try await Laptop(server)
            // The first page, past the download's progress bar.
            _ = await laptop.command("read 1") { Ansi.strip($0).contains("Stycke") }
            laptop.tty.type("q")
            _ = await laptop.tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
            store = ShelfStore(
                database: try ShelfDatabase.open(at: laptop.home.appendingPathComponent("data/bok/shelf.sqlite")))
            let synced = try #require(try store.syncedBooks().first, "the book got from calibre syncs")
            book = synced.book
            file = try #require(synced.file)
        }

        /// `sync now` at the prompt; what it said.
        @discardableResult
        func syncNow() async -> String {
            await laptop.command("sync now") { ($0.contains("Synced.") || $0.contains("answer")) && $0.hasSuffix("> ") }
        }

        /// What this machine holds: each live bookmark and highlight by its id on the server, with
        /// its note and colour.
        func held() throws -> Set<String> {
            Set(
                try store.localAnnotations(of: book).filter { !$0.removed }.map {
                    "\($0.kind) \($0.key) \($0.note ?? "-") \($0.color?.rawValue ?? "-")"
                })
        }
    }

    @Test("Highlight on B is seen on A; deleted on A, gone on B; 50 random rounds on both end equal")
    func twoMachines() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Sjön", author: "Eva Öst", language: "sv", paragraphs: 30)],
            users: [("elsa", "hemligt"), ("nils", "losen")])
        defer { server.stop() }
        let a = try await Machine(server)
        defer { a.laptop.close() }
        let b = try await Machine(server)
        defer { b.laptop.close() }
        let link = try await calibreLink(server)
        let calibre = CalibreSync(user: "elsa", password: "hemligt")

        // B marks "Stycke 3" with a note; A opens the book and has it.
        let start = Locator(spineIndex: 0, offset: try offset(of: "Stycke 3", in: b), snippet: "Stycke 3")
        let end = Locator(spineIndex: 0, offset: start.offset + 8)
        let marked = Highlight(start: start, end: end, color: .blue, note: "Läs om isen", text: "Stycke 3")
        try b.store.saveHighlight(marked, bookID: b.book)
        let said = await b.syncNow()
        #expect(said.contains("Synced."), "\(said.suffix(400))")
        let sent = try await calibre.annotations(of: link)
        #expect(sent.map(\.key) == [marked.id.uuidString], "calibre has B's highlight: \(sent) \(said.suffix(300))")
        _ = await a.laptop.command("read 1") { Ansi.strip($0).contains("Stycke") }
        a.laptop.tty.type("q")
        _ = await a.laptop.tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        let notes = await a.laptop.command("notes \(a.file)") { $0.contains("Stycke") && $0.hasSuffix("> ") }
        #expect(notes.contains("Stycke 3") && notes.contains("Läs om isen"), "\(notes.suffix(600))")
        let onA = try #require(try a.store.highlights(bookID: a.book).first)
        #expect(onA.id == marked.id && onA.color == .blue && onA.start.offset == start.offset, "\(onA)")

        // A deletes it; B syncs and it is gone there too.
        try a.store.removeHighlight(id: marked.id, bookID: a.book)
        await a.syncNow()
        await b.syncNow()
        #expect(try b.store.highlights(bookID: b.book).isEmpty)
        let afterDelete = await b.laptop.command("notes \(b.file)") { $0.hasSuffix("> ") }
        #expect(!afterDelete.contains("Läs om isen"), "\(afterDelete.suffix(600))")

        // While the book is open, a bookmark made in it reaches calibre without sync now.
        _ = await a.laptop.command("read 1") { Ansi.strip($0).contains("Stycke") }
        let mark = try a.store.addBookmark(
            Locator(spineIndex: 0, offset: try offset(of: "Stycke 5", in: a), snippet: "Stycke 5 av Eva Öst"),
            bookID: a.book)
        var heard = false
        for _ in 0..<40 where !heard {
            try await Task.sleep(for: .milliseconds(250))
            heard = try await calibre.annotations(of: link).contains { $0.key == "Stycke 5 av Eva Öst" }
        }
        #expect(heard, "calibre heard of the bookmark while the book was open")
        a.laptop.tty.type("q")
        _ = await a.laptop.tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        try a.store.removeBookmark(id: mark.id, bookID: a.book)
        let waiting = await a.laptop.command("sync") { $0.contains("Sync is on") && $0.hasSuffix("> ") }
        #expect(
            waiting.contains("1 change to bookmarks, highlights or notes waits to be sent"), "\(waiting.suffix(400))")

        // A highlight calibre's web reader made (its own kind of id) reaches A, and A's edit of its
        // note goes back under that id; one whose place is not in this book stays on the server, told.
        let web = SyncedAnnotation(
            kind: .highlight, key: "wr_3xQ9z", time: Date(), start: "epubcfi(/2/2/4/4/1:3)",
            end: "epubcfi(/2/2/4/4/1:9)", text: "bok av", color: "yellow")
        let elsewhere = SyncedAnnotation(
            kind: .highlight, key: "wr_elsewhere", time: Date(), start: "epubcfi(/40/2/4/2/1:0)",
            end: "epubcfi(/40/2/4/2/1:5)", text: "?", color: "yellow")
        try await calibre.send([web, elsewhere], of: link)
        let told = await a.laptop.command("read 1") { Ansi.strip($0).contains("Stycke") }
        #expect(
            told.contains("1 bookmark or highlight on the server does not fit this copy of the book"),
            "\(told.prefix(600))")
        a.laptop.tty.type("q")
        _ = await a.laptop.tty.read(until: { $0.hasSuffix("> ") }, seconds: 20)
        var fromWeb = try #require(try a.store.highlights(bookID: a.book).first { $0.text == "bok av" })
        fromWeb.note = "från telefonen"
        try a.store.saveHighlight(fromWeb, bookID: a.book)
        await a.syncNow()
        let back = try await calibre.annotations(of: link).first { $0.key == "wr_3xQ9z" }
        #expect(back?.note == "från telefonen" && back?.start == web.start, "\(String(describing: back))")

        // 50 rounds of random changes on both machines, each syncing after its change.
        var random = SeededRandom(seed: 30)
        let length = try a.length()
        for round in 0..<50 {
            for machine in [a, b] {
                try machine.change(&random, round: round, length: length)
                await machine.syncNow()
            }
        }
        await a.syncNow()
        await b.syncNow()
        await a.syncNow()
        // The highlight whose place is not in this book is on the server only, as it should be.
        let onServer = Set(
            try await calibre.annotations(of: link).filter { !$0.removed && $0.key != elsewhere.key }.map {
                "\($0.kind) \($0.key) \($0.note ?? "-") \($0.kind == .highlight ? color($0.color) : "-")"
            })
        let (onAEnd, onBEnd) = (try a.held(), try b.held())
        #expect(onAEnd.count > 5, "the rounds left something to compare: \(onAEnd.count)")
        #expect(onAEnd == onBEnd, "A \(onAEnd.subtracting(onBEnd)) B \(onBEnd.subtracting(onAEnd))")
        #expect(onAEnd == onServer, "A \(onAEnd.subtracting(onServer)) server \(onServer.subtracting(onAEnd))")
        #expect(try a.store.pendingAnnotationCount() == 0 && b.store.pendingAnnotationCount() == 0)

        // The other user of the server sees none of elsa's notes.
        #expect(try await CalibreSync(user: "nils", password: "losen").annotations(of: link).isEmpty)
    }

    /// calibre's colour name as bok's.
    func color(_ name: String?) -> String { name == "red" ? "pink" : name ?? "yellow" }

    func offset(of words: String, in machine: Machine) throws -> Int {
        let text = try machine.text()
        let range = try #require(text.range(of: words))
        return text.utf16.distance(from: text.startIndex, to: range.lowerBound)
    }
}

extension AnnotationSyncTests.Machine {
    /// The book's one chapter as bok lays it out.
    func text() throws -> String {
        let book = try EPUBBook.open(path: file)
        return BookContent(book: book).plainText(at: 0)
    }

    func length() throws -> Int { try text().utf16.count }

    /// One random change, as the reader makes them: a new highlight or bookmark, a changed note or
    /// colour, a deletion.
    func change(_ random: inout SeededRandom, round: Int, length: Int) throws {
        let highlights = try store.highlights(bookID: book)
        let bookmarks = try store.bookmarks(bookID: book)
        switch random.next(6) {
        case 0, 1:
            try store.saveHighlight(random.highlight(round: round, length: length), bookID: book)
        case 2 where !highlights.isEmpty:
            var highlight = highlights[random.next(highlights.count)]
            highlight.note = "ändrad \(round)"
            highlight.color = HighlightColor.allCases[random.next(HighlightColor.allCases.count)]
            try store.saveHighlight(highlight, bookID: book)
        case 3 where !highlights.isEmpty:
            try store.removeHighlight(id: highlights[random.next(highlights.count)].id, bookID: book)
        case 4:
            let place = random.next(length - 1)
            try store.addBookmark(Locator(spineIndex: 0, offset: place, snippet: "plats \(place)"), bookID: book)
        case 5 where !bookmarks.isEmpty:
            try store.removeBookmark(id: bookmarks[random.next(bookmarks.count)].id, bookID: book)
        default:
            try store.addBookmark(Locator(spineIndex: 0, offset: round, snippet: "runda \(round)"), bookID: book)
        }
    }
}

extension SeededRandom {
    /// A new highlight in a chapter of `length` characters: a random colour, a note half the time.
    mutating func highlight(round: Int, length: Int) -> Highlight {
        let from = next(length - 20)
        return Highlight(
            start: Locator(spineIndex: 0, offset: from, snippet: "h\(round)"),
            end: Locator(spineIndex: 0, offset: from + 1 + next(15)),
            color: HighlightColor.allCases[next(HighlightColor.allCases.count)],
            note: next(2) == 0 ? nil : "not \(round)", text: "t\(round)")
    }
}

/// SplitMix64: the same rounds every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(1, bound)))
    }
}
#endif
