import Catalog
import Foundation
import Testing

@testable import MockLending

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mock is a Swedish library: it answers in the language the request asks for
/// (`Accept-Language`), in Swedish when it asks for none the mock speaks.
@Suite("Mock library: its own words in the patron's language")
struct MockLanguageTests {
    /// `POST loans` for `card` with `pin`: the status and the answer's `Reason`.
    static func borrow(
        _ server: TestServer, card: String, pin: String, language: String?
    ) async throws -> (Int, String) {
        let id = Fixtures.catalog.products[Fixtures.byPopularity[0]].id
        let (data, response) = try await server.rawPost(
            "loans", checksumOf: [card, id], form: [("Card", card), ("ProductID", id), ("Pin", pin)],
            language: language)
        let answer = try JSONDecoder().decode(Wire.ErrorAnswer.self, from: data)
        return (response.statusCode, answer.reason)
    }

    @Test("A wrong PIN is told in Swedish to bok in Swedish, and in English to bok in English")
    func wrongPIN() async throws {
        try await TestServer.lending { server in
            let swedish = try await Self.borrow(server, card: "1004", pin: "0000", language: "sv, en;q=0.5")
            #expect(swedish.0 == 401)
            #expect(swedish.1 == "Fel PIN-kod för kort 1004; 4 försök kvar innan kortet spärras i 15 minuter.")
            let english = try await Self.borrow(server, card: "1004", pin: "0000", language: "en")
            #expect(english.1 == "Wrong PIN for card 1004; 3 tries left before the card is locked for 15 minutes.")
        }
    }

    @Test("A language the mock does not speak, or any, is answered in Swedish; quality decides between two")
    func negotiation() async throws {
        try await TestServer.lending { server in
            for asked in ["de-DE, fr;q=0.8", "*", "sv-SE", "en;q=0.2, sv;q=0.9"] {
                let (_, reason) = try await Self.borrow(server, card: "9999", pin: "1", language: asked)
                #expect(reason == "Ingen låntagare har kort 9999; kontrollera numret på ditt lånekort.", "\(asked)")
            }
            for asked in ["en-GB", "sv;q=0.1, en", "de, en;q=0.5"] {
                let (_, reason) = try await Self.borrow(server, card: "9999", pin: "1", language: asked)
                #expect(reason == "No patron has card 9999; check the number on your library card.", "\(asked)")
            }
        }
    }

    @Test("Dates in the mock's words are written as the language writes them")
    func dates() async throws {
        try await TestServer.lending { server in
            let (status, swedish) = try await Self.borrow(server, card: "1002", pin: "2345", language: "sv")
            #expect(status == 409)
            #expect(
                swedish
                    == "Du har gjort 5 lån den här månaden, det mesta biblioteket tillåter; du kan låna igen från "
                    + "1 december 2026.")
            let (_, english) = try await Self.borrow(server, card: "1002", pin: "2345", language: "en")
            #expect(english.hasSuffix("you can borrow again from 1 December 2026."))
        }
    }

    @Test("The OPDS face's login labels, feed titles and problems are in the patron's language")
    func opds() async throws {
        try await TestServer.lending { server in
            func get(_ path: String, _ language: String) async throws -> String {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.server.port)\(path)")!)
                request.setValue(language, forHTTPHeaderField: "Accept-Language")
                return String(decoding: try await server.send(request).0, as: UTF8.self)
            }
            let document = try await get("/opds/authentication", "sv")
            #expect(document.contains(#""login":"Lånekort""#) && document.contains(#""password":"PIN-kod""#))
            #expect(document.contains("Logga in med ditt lånekort och din PIN-kod."))
            #expect(try await get("/opds/authentication", "en").contains(#""login":"Library card""#))
            let root = try await get("/opds/", "sv")
            #expect(root.contains("<title>Populärt</title>") && root.contains("De mest lånade böckerna först."))
            #expect(try await get("/opds/", "en").contains("<title>Popular</title>"))
            let missing = try await get("/opds/books/nothing", "sv")
            #expect(missing.contains("Det finns ingen bok nothing i det här biblioteket."), "\(missing)")
        }
    }
}
