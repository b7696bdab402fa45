import Catalog
import Foundation
import Localization
import Terminal
import TestSupport
import Testing

@testable import Client

/// A third language is a new catalogue and nothing else (issue 28): with ``PseudoLanguage``'s
/// `qps.po`, made from `po/bok.pot` at test time, bok speaks it, finds its commands, sort keys,
/// search fields and clock words by their names there, lists them in help and completes them —
/// and keeps the English and Swedish names working beside them. (`LayoutTests` lays every
/// screen out in it too.)
@Suite("A third language from its catalogue alone", .serialized)
@MainActor
struct PseudoLanguageTests {
    /// Runs `body` with a session at the mock library, the pseudo-language's catalogue installed and
    /// bok speaking `language`; English again after.
    static func speaking(
        _ language: String = PseudoLanguage.code, _ body: (Harness) async throws -> Void
    ) async throws {
        Localization.use(language, environment: PseudoLanguage.environment)
        defer { Localization.use("en", environment: [:]) }
        let h = try await Harness(theme: Theme(caps: .plain, width: 100, height: 0))
        defer { Task { await h.stop() } }
        h.session.environment.merge(PseudoLanguage.environment) { $1 }
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001"], secrets: ["1234"])
        try await body(h)
    }

    @Test("bok speaks the language a catalogue is for: its messages, its locale and its quotation marks")
    func speaks() async throws {
        try await Self.speaking { h in
            #expect(Localization.language == PseudoLanguage.code)
            #expect(Localization.languages.contains(PseudoLanguage.code) && Localization.languages.contains("sv"))
            #expect(Localization.locale.identifier == "en_GB")
            #expect(LanguageCommand.code(PseudoLanguage.code) == PseudoLanguage.code)
            #expect(Marks(.plain).quoted("x") == "«x»")
            let help = await h.text("help")
            #expect(help.contains("[Commands]"), "\(help)")
        }
    }

    @Test("Every command runs by its names in the catalogue, one word or two, and by its English name")
    func commandsByTheirNames() async throws {
        try await Self.speaking { h in
            let table = CommandTable()
            for command in table.commands {
                let names = PseudoLanguage.names(ofCommand: command.name)
                #expect(command.localNames == names, "\(command.name)")
                for name in names + [command.name] + command.aliases {
                    #expect(table.command(named: name)?.name == command.name, "\(name)")
                }
                // Help for each name is the command's help, with its other names after "Also:".
                let english = await h.text("help \(command.name)")
                #expect(await h.text("help \(names[1])") == english, "\(names[1])")
                let also = ([names[1], command.name] + command.aliases).joined(separator: ", ")
                #expect(english.contains("Also: " + also + "]"), "\(english)")
            }
            #expect(await h.text("qsearch the") == (await h.text("search the")))
            #expect(await h.text("qps info 1") == (await h.text("info 1")))
        }
    }

    @Test("Sort keys, directions, search fields and clock words by their names in the catalogue")
    func wordsAfterTheCommand() async throws {
        try await Self.speaking { h in
            await h.run("qsearch thriller")
            let sorted = await h.text("qsort qauthor qdesc")
            #expect(sorted == (await h.text("sort author desc")), "\(sorted)")
            #expect(sorted.contains("Ö→A"), "\(sorted)")
            let query = try SearchQuery.parse("qauthor:Lindgren")
            #expect(query.terms.first?.field == .author)
            let shelf = await h.text("qshelf qsort qdays qasc")
            #expect(shelf == (await h.text("shelf sort days asc")), "\(shelf)")
            #expect(shelf.contains("[Shelf sorted by"), "\(shelf)")
            let clock = await h.text("mock clock qtomorrow")
            #expect(clock == (await h.text("mock clock tomorrow")), "\(clock)")
            #expect(await h.text("qhelp qborrowing") == (await h.text("help borrowing")))
        }
    }

    @Test("Tab offers the catalogue's names after the English ones")
    func completion() async throws {
        try await Self.speaking { h in
            let table = CommandTable()
            #expect(table.completions(line: "qsea", word: "qsea", session: h.session) == ["qsearch"])
            #expect(table.completions(line: "sor", word: "sor", session: h.session) == ["sort"])
            #expect(table.completions(line: "qsort qau", word: "qau", session: h.session) == ["qauthor"])
            #expect(table.completions(line: "qsort qauthor q", word: "q", session: h.session) == ["qasc", "qdesc"])
            #expect(table.completions(line: "qshelf qsort d", word: "d", session: h.session) == ["days"])
            #expect(table.completions(line: "qshelf q", word: "q", session: h.session) == ["qps sort", "qsort"])
            // No Swedish offered: Tab completes the interface language's names.
            #expect(table.completions(line: "sök", word: "sök", session: h.session).isEmpty)
        }
    }

    @Test("Messages name a command as the language's help does; Swedish names still work")
    func messagesAndOtherLanguages() async throws {
        try await Self.speaking { h in
            #expect(Command.spoken("return") == "qreturn")
            #expect(Command.spoken("tbr add") == "qtbr add")
            #expect(await h.text("sök the") == (await h.text("search the")))
            #expect(await h.text("lämna tillbaka") == (await h.text("return")))
        }
    }

    @Test("language names every language with a catalogue, the new one too, when asked for one it does not have")
    func languageNamesEveryLanguage() async throws {
        try await Self.speaking("en") { h in
            let shown = await h.text("language")
            #expect(shown.contains("language qps, language sv or language en changes it."), "\(shown)")
            let refused = await h.text("language klingon")
            #expect(refused.contains("bok speaks qps ("), "\(refused)")
            #expect(refused.contains("sv (Swedish) and en (English), not \"klingon\""), "\(refused)")
        }
    }

    @Test("In English the catalogue's names run too, and help lists them after the aliases")
    func inEnglish() async throws {
        try await Self.speaking("en") { h in
            #expect(Localization.language == "en")
            let login = await h.text("help login")
            #expect(login.contains("Also: signin, qlogin, qps login, logga in, inloggning"), "\(login)")
            #expect(await h.text("qsearch the") == (await h.text("search the")))
            #expect(await h.text("language qps").contains("bok now speaks"))
            #expect(Localization.language == PseudoLanguage.code)
        }
    }

    @Test("bok started in the language: LANGUAGE=qps with its catalogue, at the prompt and as a one-shot")
    func process() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = PseudoLanguage.environment.merging(["LANG": "C.UTF-8", "LANGUAGE": "qps"]) { $1 }
        let (status, text) = try await BokProcess.run(
            ["--mock"], home: home, stdin: "qhelp\nqsearch thriller\nqsort qauthor\nlanguage\nqquit\n",
            environment: environment)
        #expect(status == 0, "\(text)")
        #expect(text.contains("[Commands]"), "\(text)")
        #expect(text.contains("A→Ö"), "\(text)")
        #expect(text.contains("[bok speaks qps."), "\(text)")
        let (shot, json) = try await BokProcess.run(
            ["--mock", "qsearch", "thriller", "--json"], home: home, stdin: "", environment: environment)
        let english = try await BokProcess.run(
            ["--mock", "search", "thriller", "--json"], home: home, stdin: "", environment: environment)
        #expect(shot == 0 && json == english.output, "\(json)")
    }
}
