import Catalog
import Foundation
import Localization
import MockLending
import Testing

@testable import Client

/// The library's and the catalogue's errors, the config file's and the login's, as a Swedish
/// patron reads them: in Swedish, and in words, with no status code or server text.
@Suite("The library in Swedish", .serialized)
@MainActor
struct SwedishLibraryTests {
    /// Runs `body` with bok speaking Swedish.
    func inSwedish<T>(_ body: () async throws -> T) async rethrows -> T {
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        return try await body()
    }

    @Test("A library that fails inside says so in Swedish, without the HTTP status")
    func serverError() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        try await BadInputTests().setFaults(h, #"{"ErrorRate": 1.0}"#)
        let screen = await inSwedish { await h.run("sök thriller") }
        let server = "127.0.0.1:\(h.server.port)"
        #expect(
            screen == ["Det blev fel hos biblioteket på \(server), så det kunde inte svara. Försök igen senare."],
            "\(screen)")
    }

    @Test("An answer that is not the service's is one Swedish line, no JSON or path")
    func garbage() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        try await BadInputTests().setFaults(h, #"{"Malformed": true}"#)
        let screen = await inSwedish { await h.run("sök thriller") }
        #expect(
            screen == [
                "Biblioteket på 127.0.0.1:\(h.server.port) skickade ett svar som bok inte kan läsa. "
                    + "Stämmer bibliotekets adress?"
            ], "\(screen)")
    }

    @Test("A wrong search field: Swedish for the patron, English for the mock server's answer")
    func searchField() async throws {
        let error = await inSwedish { () -> SearchQuery.ParseError? in
            do throws(SearchQuery.ParseError) {
                _ = try SearchQuery.parse("autor:lagerlöf")
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.localizedMessage.hasPrefix("Okänt fält ”autor:”. Fälten är title:, author:") == true)
        #expect(error?.message.hasPrefix("Unknown field \"autor:\". Fields are title:, author:") == true)
        let empty = await inSwedish { () -> String in
            (try? SearchQuery.parse("  ")).map { _ in "" } ?? ErrorReport.message(for: Self.parseError(""))
        }
        #expect(empty.hasPrefix("Sökningen är tom. Skriv ord att söka efter (t.ex. sök thriller)"), "\(empty)")
        #expect(empty.contains("titel:, författare:"), "\(empty)")
    }

    static func parseError(_ text: String) -> any Error {
        do {
            _ = try SearchQuery.parse(text)
            return CancellationError()
        } catch {
            return error
        }
    }

    @Test("A mistake in the config file names the line and says what to write, in Swedish")
    func configFile() async throws {
        let file = "/home/elsa/.config/bok/config"
        let messages = await inSwedish { () -> [String] in
            ["url = https://example.org/\nfärg = blå\n", "[library mock]\n", "kind = gopher\n"].map { text in
                do {
                    _ = try LibraryProfiles.parse(text, fileName: file)
                    return ""
                } catch {
                    return ErrorReport.message(for: error)
                }
            }
        }
        #expect(
            messages == [
                "\(file):2: okänd nyckel ”färg”. Nycklarna är url, service-id, service-key, name, locale, kind, "
                    + "allow-redirects (och use och language överst).",
                "\(file):1: ”mock” är det inbyggda testbiblioteket; ge det här biblioteket ett annat namn.",
                "\(file):1: kind är elib eller opds, inte ”gopher”.",
            ], "\(messages)")
    }

    @Test("Card and PIN refusals in Swedish: no card without a terminal, a card that is not digits")
    func patron() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let (card, notDigits, browse) = await inSwedish {
            (await h.run("lån"), await h.run("logga in --card 12ab"), await h.run("bläddra"))
        }
        #expect(
            card == ["lån behöver ditt lånekort: ange --card NUMMER, eller kör bok login --remember en gång."],
            "\(card)")
        #expect(notDigits == ["”12ab” är inget lånekortsnummer (bara siffror)."], "\(notDigits)")
        #expect(
            browse == [
                "bläddra är till för OPDS-kataloger; \(h.session.library.name) är ett utlåningsbibliotek: använd sök, "
                    + "topp och nya."
            ], "\(browse)")
    }

    @Test("An error bok has no words for shows no type name, in either language")
    func unexpected() async {
        struct Odd: Error {}
        #expect(ErrorReport.message(for: Odd()).hasPrefix("Something went wrong. Try again;"))
        let swedish = await inSwedish { ErrorReport.message(for: Odd()) }
        #expect(swedish.hasPrefix("Något gick fel. Försök igen;") && !swedish.contains("Odd"), "\(swedish)")
    }
}
