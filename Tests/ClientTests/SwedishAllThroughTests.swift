import Catalog
import Foundation
import Localization
import TestSupport
import Testing

@testable import Client

/// A patron using bok in Swedish meets Swedish all through (issue 29): the words typed to `filtrera`
/// and `topp`, the command a typo suggests, numbers, dates and language names, `språk --json` and
/// `bok --help`; English stays as it was.
@Suite("Swedish all through", .serialized)
struct SwedishAllThroughTests {
    static let swedish = ["LANG": "sv_SE.UTF-8"]

    @Test("filtrera ledig, kategori:, rensa; topp 3 kategori:Barn; refusals with Swedish examples")
    func filterWords() async throws {
        let (status, text) = try await TranslationTests.bok(
            lines: [
                "filtrera ledig kategori:Deckare", "filtrera rensa kategori", "filtrera rensa", "filtrera tjoho",
                "filtrera färg:blå", "topp 3 kategori:Barn", "topp många", "quit",
            ].joined(separator: "\n") + "\n", environment: Self.swedish)
        #expect(status == 0, "\(text)")
        #expect(text.contains("Filter: bara lediga · kategori Deckare."), "\(text)")
        #expect(text.contains("Filter: bara lediga.\n"), "\(text)")
        #expect(text.contains("Inga filter: sökningar gäller hela katalogen."), "\(text)")
        #expect(
            text.contains("Okänt filter ”tjoho”. Prova filtrera ledig, språk:sv, kategori:Thriller eller förlag:NAMN."),
            "\(text)")
        #expect(text.contains("Okänt filter ”färg:”. Filtren är ledig, språk:, kategori:, förlag:."), "\(text)")
        #expect(text.contains("Topp 3 efter popularitet · kategori Barn"), "\(text)")
        #expect(text.components(separatedBy: " · Barn\n").count == 4, "\(text)")
        #expect(text.contains("t.ex. topp 20 kategori:Thriller."), "\(text)")
        #expect(!text.contains("category:") && !text.contains("available"), "\(text)")
    }

    @Test("The mock library's own words follow the patron's language: a wrong PIN in Swedish, then in English")
    func mockWords() async throws {
        let arguments = ["--mock", "login", "--card", "1004", "--pin-stdin"]
        let swedish = try await TranslationTests.bok(arguments, lines: "0000\n", environment: Self.swedish)
        #expect(swedish.status == 1)
        #expect(
            swedish.output.contains(
                "Biblioteket godtog inte kort 1004: Fel PIN-kod för kort 1004; 4 försök kvar innan kortet spärras i "
                    + "15 minuter."), "\(swedish.output)")
        let english = try await TranslationTests.bok(arguments, lines: "0000\n", environment: ["LANG": "C.UTF-8"])
        #expect(
            english.output.contains(
                "The library did not accept card 1004: Wrong PIN for card 1004; 4 tries left before the card is "
                    + "locked for 15 minutes."), "\(english.output)")
    }

    @Test("English filters as before, and takes the Swedish words too")
    func filterWordsInEnglish() async throws {
        let (status, text) = try await TranslationTests.bok(
            lines: "filter available category:Deckare\nfilter ledig kategori:Barn\nfilter bogus\ntop x\nquit\n",
            environment: ["LANG": "C.UTF-8"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Filters: only available · category Deckare."), "\(text)")
        #expect(text.contains("Filters: only available · category Barn."), "\(text)")
        #expect(
            text.contains(
                "Unknown filter \"bogus\". Try filter available, language:sv, category:Thriller or "
                    + "publisher:NAME."), "\(text)")
        #expect(text.contains("e.g. top 20 category:Thriller."), "\(text)")
    }

    @Test("Did you mean names the command in Swedish, and so does a stray option")
    func commandNames() async throws {
        let (_, text) = try await TranslationTests.bok(
            lines: "serch\nsök --bogus\nquit\n", environment: Self.swedish)
        #expect(text.contains("Okänt kommando ”serch”. Menade du ”sök”?"), "\(text)")
        #expect(text.contains("sök har inget alternativ --bogus."), "\(text)")
    }

    @Test("språk --json answers the language in use: sv from the locale or the config file, en in English")
    func languageJSON() async throws {
        let (_, swedish) = try await TranslationTests.bok(
            ["--mock", "språk", "--json"], lines: "", environment: Self.swedish)
        #expect(swedish == #"{"language":"sv"}"# + "\n", "\(swedish)")
        let (_, configured) = try await TranslationTests.bok(
            ["--mock", "language", "--json"], lines: "", environment: ["LANG": "C.UTF-8"], config: "language = sv\n")
        // (After the notice that bok made the test's new config folder private.)
        #expect(configured.hasSuffix("\n" + #"{"language":"sv"}"# + "\n"), "\(configured)")
        let (_, english) = try await TranslationTests.bok(
            ["--mock", "language", "--json"], lines: "", environment: ["LANG": "C.UTF-8"])
        #expect(english == #"{"language":"en"}"# + "\n", "\(english)")
        // Other output for scripts stays English.
        let (_, error) = try await TranslationTests.bok(
            ["--mock", "serch", "--json"], lines: "", environment: Self.swedish)
        #expect(error.contains(#"{"error":"Unknown command \"serch\". Did you mean \"search\"?"}"#), "\(error)")
    }

    @Test(
        "bok --help in Swedish: the parser's headings and its own options too; English as before",
        arguments: [
            (["LANG": "sv_SE.UTF-8"], nil), (["LANG": "C.UTF-8"], "language = sv\n"),
        ] as [([String: String], String?)])
    func help(environment: [String: String], config: String?) async throws {
        let (status, text) = try await TranslationTests.bok(
            ["--help"], lines: "", environment: environment, config: config)
        #expect(status == 0, "\(text)")
        #expect(text.hasPrefix("ÖVERSIKT: Hitta, låna och läs bibliotekets e-böcker från skalet."), "\(text)")
        #expect(text.contains("\nANVÄNDNING: bok [FLAGGOR]    "), "\(text)")
        #expect(text.contains("\n            bok [FLAGGOR] KOMMANDO [ARGUMENT…] [--json]  kör ett kommando"), "\(text)")
        #expect(text.contains("\nFLAGGOR:\n") && text.contains("\nKOMMANDON:\n"), "\(text)")
        #expect(text.contains("  -h, --help              Visa hjälpen."), "\(text)")
        #expect(text.contains("--record <FIL>") && text.contains("(värden: elib,"), "\(text)")
        #expect(text.contains("Se ”bok help KOMMANDO” för hjälp om ett kommando."), "\(text)")
        for english in ["OVERVIEW", "USAGE", "OPTIONS", "SUBCOMMANDS", "Show help", "values:", "detailed help"] {
            #expect(!text.contains(english), "\(english): \(text)")
        }
        let (_, server) = try await TranslationTests.bok(
            ["mock-server", "--help"], lines: "", environment: environment, config: config)
        #expect(server.contains("ANVÄNDNING: bok mock-server [--port P]") && server.contains("FLAGGOR:"), "\(server)")
    }

    @Test("bok --help in English is the parser's, unchanged")
    func helpInEnglish() async throws {
        let (status, text) = try await TranslationTests.bok(["--help"], lines: "", environment: ["LANG": "C.UTF-8"])
        #expect(status == 0, "\(text)")
        #expect(text.hasPrefix("OVERVIEW: Find, borrow and read library e-books from the shell."), "\(text)")
        #expect(
            text.contains(
                "USAGE: bok [OPTIONS]                           start the interactive prompt\n"
                    + "       bok [OPTIONS] COMMAND [ARGS…] [--json]  run one command and exit"), "\(text)")
        #expect(text.contains("  -h, --help              Show help information."), "\(text)")
        #expect(text.contains("See 'bok help <subcommand>' for detailed help."), "\(text)")
    }

    @Test("A catalogue's book in Swedish: its size, issue date and language in Swedish words")
    @MainActor
    func catalogueEntry() async throws {
        let feed = #"""
            {"metadata": {"title": "Bokbytet"}, "publications": [{"metadata": {"title": "Sandens röst", \#
            "author": "Layla Haddad", "language": "ar", "published": "2026-11-27"}, "links": [{"rel": \#
            "http://opds-spec.org/acquisition/open-access", "type": "application/epub+zip", "href": "/a.epub", \#
            "properties": {"size": 1677722}}]}]}
            """#
        let server = try HostileServer.start { _ in
            let body = Data(feed.utf8)
            return [
                .send(
                    HostileServer.head(
                        200, [("Content-Type", "application/opds+json"), ("Content-Length", String(body.count))])
                        + body)
            ]
        }
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let catalogue = CatalogueLoginTests.Catalogue(
            root: server.baseURL.appendingPathComponent("root.json"), home: home)
        _ = await catalogue.text("browse")
        #expect(server.requests.last?.headers["accept-language"] == "en")
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        // The catalogue is asked for Swedish first, for titles of its own in it.
        _ = await catalogue.text("bläddra")
        #expect(server.requests.last?.headers["accept-language"] == "sv, en;q=0.5")
        let info = await catalogue.text("info 1")
        #expect(info.contains(/Utgiven +27 november 2026\n/), "\(info)")
        #expect(info.contains(/Språk +arabiska\n/), "\(info)")
        #expect(info.contains(/Storlek +1,6 MB/), "\(info)")
        Localization.use("en", environment: ["LANG": "C.UTF-8"])
        let english = await catalogue.text("info 1")
        #expect(english.contains(/Issued +27 November 2026\n/), "\(english)")
        #expect(english.contains(/Language +Arabic\n/), "\(english)")
        #expect(english.contains(/Size +1.6 MB/), "\(english)")
    }

    @Test("Tab completes filtrera's field, kategori:, with no space before the value")
    func completesAField() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let script =
            patronScript(environment: ["LANG": "sv_SE.UTF-8", "LANGUAGE": "sv"]) + """

                until("> ")
                os.write(fd, "filtrera ka\t".encode()); time.sleep(0.5)
                type("Barn"); until("Filter:", 5)
                type("avsluta"); until("\\x00", 3)
                sys.stdout.buffer.write(out[0])
                """
        let screen = try await runPatronScript(script, binary: PINSafetyTests.binary, home: home)
        #expect(screen.contains("Filter: kategori Barn."), "\(screen.suffix(800))")
    }

    @Test("A catalogue that labels its login Library card and PIN: --card, --pin-file; a PIN is called a PIN")
    @MainActor
    func catalogueCardAndPIN() async throws {
        let server = try AuthenticatingCatalogue.start(user: "12345", password: "4321")
        defer { server.stop() }
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let root = server.baseURL.appendingPathComponent("root.json")
        let pinFile = home.appendingPathComponent("pin")
        try "4321\n".write(to: pinFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pinFile.path)
        let server127 = "127.0.0.1:\(server.port)"

        // With no terminal to ask on, what to give is said in the catalogue's words and the card's options.
        let catalogue = Self.noTerminal(root: root, home: home)
        let noCard = await catalogue.text("login")
        #expect(
            noCard == "login to \(server127) needs your Library card: give --card NUMBER with --pin-file FILE "
                + "(mode 600) or --pin-stdin.", "\(noCard)")
        let noPIN = await catalogue.text("login --card 12345")
        #expect(noPIN.contains("needs your PIN, and there is no terminal to ask on: give --pin-file FILE"), "\(noPIN)")
        let shown = await catalogue.text("login --card 12345 --pin-file \(pinFile.path)")
        #expect(
            shown.contains("Logged in to \(server127) as 12345. The PIN is kept for this session only."), "\(shown)")
        #expect(!shown.lowercased().contains("password") && !shown.contains("4321"), "\(shown)")
        #expect(await catalogue.text("browse").contains("Ödemarken"))

        // In Swedish, the same; and typed at the questions, as before.
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let swedish = Self.noTerminal(root: root, home: home)
        let refused = await swedish.text("logga in")
        #expect(
            refused == "Inloggning på \(server127) kräver Library card: ange --card NUMMER med --pin-file FIL "
                + "(läge 600) eller --pin-stdin.", "\(refused)")
        let typed = CatalogueLoginTests.Catalogue(root: root, home: home, answers: ["12345"], secrets: ["4321"])
        let loggedIn = await typed.text("logga in")
        #expect(typed.prompt.asked == ["Library card: ", "PIN: "], "\(typed.prompt.asked)")
        #expect(
            loggedIn.contains("Inloggad på \(server127) som 12345. PIN sparas bara under den här sessionen."),
            "\(loggedIn)")
        #expect(!loggedIn.contains("Lösenord"), "\(loggedIn)")
    }

    /// The catalogue at `root` with no terminal to ask the patron on, as a one-shot command has.
    @MainActor
    static func noTerminal(root: URL, home: URL) -> CatalogueLoginTests.Catalogue {
        let catalogue = CatalogueLoginTests.Catalogue(root: root, home: home)
        catalogue.session.account.prompt = nil
        return catalogue
    }
}
