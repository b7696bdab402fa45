import Foundation
import TestSupport
import Testing

@testable import Catalog

/// Bookmarks, highlights and notes through calibre's content server (calibre 6.13 from Debian),
/// as calibre's own readers keep them: what one device sends, another reads; the newer change
/// wins, a deletion travels as a tombstone, and each user has their own.
@Suite("Annotations through calibre", .serialized, .enabled(if: CalibreServer.isInstalled, "needs calibre"))
struct CalibreAnnotationSyncTests {
    @Test func sentReadNewerWinsDeletedAndPerUser() async throws {
        let server = try await CalibreServer.start(
            books: [.init(title: "Vintern 1953", author: "Anna Åberg", language: "sv")],
            users: [("elsa", "hemligt"), ("nils", "losen")])
        defer { server.stop() }
        let link = try await CalibreSyncTests.link(server, user: "elsa", password: "hemligt")
        let elsa = CalibreSync(user: "elsa", password: "hemligt")
        #expect(try await elsa.annotations(of: link).isEmpty)

        let made = Date(timeIntervalSince1970: 1_795_000_000.123)
        let highlight = SyncedAnnotation(
            kind: .highlight, key: "5F0D6A38-8C39-4D0B-9C1E-6C8E3B1D2A01", time: made,
            start: "epubcfi(/2/2/4/4/1:3)", end: "epubcfi(/2/2/4/4/1:10)", text: "bok av", note: "Läs igen\nsenare",
            color: "red", spineIndex: 0)
        let bookmark = SyncedAnnotation(
            kind: .bookmark, key: "En bok av Anna", time: made, start: "epubcfi(/2/2/4/4/1:0)",
            uuid: "0A6C1E2B-7D3F-4E5A-9B8C-1D2E3F4A5B6C")
        try await elsa.send([highlight, bookmark], of: link)
        let read = try await elsa.annotations(of: link)
        #expect(Set(read) == [highlight, bookmark], "\(read)")

        // An older change does not replace a newer one; a newer one does.
        var older = highlight
        older.note = "gammal"
        older.time = made.addingTimeInterval(-60)
        try await elsa.send([older], of: link)
        #expect(try await elsa.annotations(of: link).first { $0.kind == .highlight }?.note == "Läs igen\nsenare")
        var newer = highlight
        newer.note = "ny"
        newer.time = made.addingTimeInterval(60)
        try await elsa.send([newer], of: link)
        #expect(try await elsa.annotations(of: link).first { $0.kind == .highlight }?.note == "ny")

        // A deletion is a tombstone the other devices read.
        let gone = SyncedAnnotation(
            kind: .highlight, key: highlight.key, time: made.addingTimeInterval(120), removed: true)
        try await elsa.send([gone], of: link)
        let after = try await elsa.annotations(of: link)
        #expect(after.contains(gone) && after.contains(bookmark) && after.count == 2, "\(after)")

        // Another user of the same server sees none of it.
        let nils = CalibreSync(user: "nils", password: "losen")
        #expect(try await nils.annotations(of: link).isEmpty)
    }

    @Test(arguments: [
        ("2026-11-29T09:10:11.123Z", 1_795_943_411.123),
        ("2026-11-29T09:10:11.123456+00:00", 1_795_943_411.123),
        ("2026-11-29T10:10:11+01:00", 1_795_943_411.0),
        ("2026-11-29T09:10:11", 1_795_943_411.0),
    ])
    func timestampsAsCalibreWritesThem(text: String, seconds: Double) throws {
        let time = try #require(CalibreSync.time(iso: text))
        #expect(abs(time.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test func bokWritesTheWebReadersForm() {
        #expect(CalibreSync.iso(Date(timeIntervalSince1970: 1_795_943_411.123)) == "2026-11-29T09:10:11.123Z")
        #expect(CalibreSync.time(iso: "yesterday") == nil && CalibreSync.time(iso: "2026-13-01T00:00:00Z") == nil)
    }
}

/// A sync server whose annotations are hostile: controls in notes are made visible, huge fields
/// cut or skipped, entries calibre would not write skipped.
struct HostileAnnotationTests {
    @Test func cleanedAndBounded() async throws {
        let long = String(repeating: "a", count: 50_000)
        let json = """
            {"1:EPUB": {"annotations_map": {"highlight": [
              {"type": "highlight", "uuid": "x1", "timestamp": "2026-11-29T09:10:11.000Z",
               "start_cfi": "epubcfi(/2/2)", "end_cfi": "epubcfi(/2/4)",
               "highlighted_text": "\\u001b]0;pwned\\u0007text", "notes": "\\u001b[2Jnote\\n\(long)"},
              {"type": "highlight", "uuid": "x2", "timestamp": "never", "start_cfi": "epubcfi(/2/2)",
               "end_cfi": "epubcfi(/2/4)"},
              {"type": "highlight", "uuid": "\(long)", "timestamp": "2026-11-29T09:10:11Z",
               "start_cfi": "epubcfi(/2/2)", "end_cfi": "epubcfi(/2/4)"},
              "not an object"],
             "bookmark": [{"type": "bookmark", "title": "t", "timestamp": "2026-11-29T09:10:11Z", "pos_type": "epubcfi",
               "pos": "epubcfi(/2/\(long))"}]}}}
            """
        let server = try HostileServer.start { _ in HostileServer.answer(200, json: json) }
        defer { server.stop() }
        let link = CalibreBookLink(
            server: URL(string: "http://127.0.0.1:\(server.port)")!, library: "lib", bookID: 1, format: "EPUB")
        let found = try await CalibreSync(user: "elsa", password: "hemligt", deadline: 2).annotations(of: link)
        #expect(found.map(\.key) == ["x1"], "only the one calibre could have written")
        let first = try #require(found.first)
        for text in [first.text, first.note ?? ""] {
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text.prefix(40))")
        }
        #expect((first.note?.count ?? 0) <= SyncedAnnotation.Limits.note)
    }
}
