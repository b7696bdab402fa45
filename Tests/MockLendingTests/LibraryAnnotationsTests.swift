import Foundation
import Testing

@testable import Catalog
@testable import MockLending

/// A lending library's own annotation service (Palace's), on the mock's OPDS face, through bok's
/// client: the opt-in, bookmarks and highlights of a loan kept, listed and removed, the reading
/// place replaced, and what the server refuses.
@Suite("Mock lending: the OPDS face's annotation service")
struct LibraryAnnotationsTests {
    static let cfi = "epubcfi(/6/4!/4/2/1:10)"

    /// A loan of card 1001 through the face, and the links a client follows: the book's annotation
    /// service (from the loans feed), the profile (from the authentication document).
    static func loan(_ face: OPDSFace) async throws -> (id: String, service: URL, profile: URL) {
        let id = LendingFixtures.accessTitle()
        let (status, _, _) = try await face.post("/opds/books/\(id)/borrow", as: "1001")
        #expect(status == 201)
        let root = try await face.client("1001").feed()
        let shelf = try await face.client("1001").feed(try #require(root.link("http://opds-spec.org/shelf")).href)
        let entry = try #require(shelf.entries.first { $0.productID == id })
        let service = try #require(
            entry.links.first { $0.relations.contains("http://www.w3.org/ns/oa#annotationService") })
        #expect(service.type?.hasPrefix("application/ld+json") == true)
        let (data, _) = try await face.call("GET", "/opds/authentication")
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let links = try #require(document["links"] as? [[String: Any]])
        let profile = try #require(
            links.first { $0["rel"] as? String == "http://librarysimplified.org/terms/rel/user-profile" }?["href"]
                as? String)
        return (id, service.href, URL(string: profile, relativeTo: face.root)!.absoluteURL)
    }

    @Test("Nothing is kept until the patron opts in; then bookmarks and highlights come back and go")
    func keepAndRemove() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let (id, service, profile) = try await Self.loan(face)
            let client = LibraryAnnotations(card: "1001", pin: LendingFixtures.pins["1001"]!)
            let source = "urn:bok:product:" + id
            let bookmark = WebAnnotation(
                motivation: .bookmarking, cfi: Self.cfi, time: Date(timeIntervalSince1970: 1_800_000_000),
                device: "laptop")
            #expect(try await client.isOptedIn(profile: profile) == false)
            await #expect(
                throws: LibraryAnnotations.Failure(kind: .notOptedIn, server: "127.0.0.1:\(server.server.port)")
            ) {
                try await client.add(bookmark, of: source, to: service)
            }

            try await client.setOptIn(true, profile: profile)
            #expect(try await client.isOptedIn(profile: profile))
            let kept = try await client.add(bookmark, of: source, to: service)
            #expect(kept.id != nil && kept.cfi == Self.cfi && kept.device == "laptop" && kept.time == bookmark.time)
            let highlight = WebAnnotation(
                motivation: .highlighting, cfi: "epubcfi(/6/4!/4/2/1:0)", endCFI: "epubcfi(/6/4!/4/2/1:40)",
                note: "Remember this", quote: "the words marked")
            _ = try await client.add(highlight, of: source, to: service)

            // Another device of the same patron reads both back from the loan's link.
            let listed = try await client.annotations(at: service)
            #expect(listed.count == 2)
            let back = try #require(listed.first { $0.motivation == .highlighting })
            #expect(back.cfi == highlight.cfi && back.endCFI == highlight.endCFI)
            #expect(back.note == "Remember this" && back.quote == "the words marked")

            try await client.remove(try #require(kept.id))
            #expect(try await client.annotations(at: service).map(\.motivation) == [.highlighting])
            // Removing again is no failure: it is gone, as asked.
            try await client.remove(try #require(kept.id))

            // Another patron sees none of them.
            let other = LibraryAnnotations(card: "1002", pin: LendingFixtures.pins["1002"]!)
            try await other.setOptIn(true, profile: profile)
            #expect(try await other.annotations(at: service).isEmpty)
        }
    }

    @Test("The reading place is one a book; a book not on loan and a wrong PIN are refused")
    func placeAndRefusals() async throws {
        try await TestServer.lending { server in
            let face = OPDSFace(server: server)
            let (id, service, profile) = try await Self.loan(face)
            let client = LibraryAnnotations(card: "1001", pin: LendingFixtures.pins["1001"]!)
            try await client.setOptIn(true, profile: profile)
            let source = "urn:bok:product:" + id
            for offset in [10, 200, 3000] {
                _ = try await client.add(
                    WebAnnotation(motivation: .readingPlace, cfi: "epubcfi(/6/8!/4/2/1:\(offset))"), of: source,
                    to: service)
            }
            let places = try await client.annotations(at: service).filter { $0.motivation == .readingPlace }
            #expect(places.map(\.cfi) == ["epubcfi(/6/8!/4/2/1:3000)"])

            let notLent = "urn:bok:product:" + LendingFixtures.accessTitle(3)
            await #expect(throws: LibraryAnnotations.Failure.self) {
                try await client.add(WebAnnotation(motivation: .bookmarking, cfi: Self.cfi), of: notLent, to: service)
            }
            let wrong = LibraryAnnotations(card: "1001", pin: "0000")
            await #expect(
                throws: LibraryAnnotations.Failure(kind: .loginRefused, server: "127.0.0.1:\(server.server.port)")
            ) {
                try await wrong.annotations(at: service)
            }
        }
    }

    @Test("Another client's places bok cannot read are left out, and what is read is cleaned")
    func foreignAnnotations() throws {
        let base = URL(string: "http://127.0.0.1:1/opds/annotations/")!
        let palace: [String: Any] = [
            "id": "1", "motivation": "http://www.w3.org/ns/oa#bookmarking",
            "target": [
                "source": "urn:x", "selector": ["type": "oa:FragmentSelector", "value": "{\"idref\":\"c1\"}"],
            ],
        ]
        #expect(LibraryAnnotations.annotation(palace, base: base) == nil)
        let hostile: [String: Any] = [
            "id": "7", "motivation": "http://www.w3.org/ns/oa#bookmarking",
            "target": ["source": "urn:x", "selector": ["type": "FragmentSelector", "value": Self.cfi]],
            "body": [
                "http://librarysimplified.org/terms/device": "phone\u{1B}[2J" + String(repeating: "x", count: 500)
            ],
        ]
        let read = try #require(LibraryAnnotations.annotation(hostile, base: base))
        #expect(read.id?.absoluteString == "http://127.0.0.1:1/opds/annotations/7")
        let device = try #require(read.device)
        #expect(!device.contains("\u{1B}") && device.count <= 60)
    }
}
