import Foundation
import Localization
import Terminal
import Testing

@testable import Client

@Suite("Help and completion", .serialized)
@MainActor
struct HelpAndCompletionTests {
    @Test("help lists every command with its summary; help COMMAND shows examples")
    func help() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let text = await h.text("help")
        for command in CommandTable().commands {
            #expect(text.contains(command.synopsis), "help lacks \(command.name)")
        }
        let sort = await h.text("help sort")
        #expect(sort.contains("sort [KEY [asc|desc]]"))
        #expect(sort.contains("Examples:"))
        #expect(await h.text("help serch").contains("No help for \"serch\". Did you mean \"search\"?"))
    }

    @Test("help fits 120, 80 and 60 columns without cutting a summary or a word", arguments: [120, 80, 60])
    func helpFits(columns: Int) async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        h.session.theme = Theme(caps: h.session.theme.caps, width: columns)
        let lines = await h.run("help")
        for line in lines { #expect(DisplayWidth.of(Ansi.strip(line)) <= columns, "\(columns): \(line)") }
        let text = lines.map { Ansi.strip($0) }.joined(separator: " ").split(separator: " ").joined(separator: " ")
        for command in CommandTable().commands {
            #expect(text.contains(command.summary), "\(command.name)'s summary at \(columns) columns")
        }
    }

    @Test("In Swedish Tab also offers the Swedish names, sort keys and directions")
    func swedishCompletion() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        Localization.use("sv", environment: ["LANG": "C.UTF-8"])
        defer { Localization.use("en", environment: ["LANG": "C.UTF-8"]) }
        let table = CommandTable()
        #expect(table.completions(line: "sorte", word: "sorte", session: h.session) == ["sortera"])
        #expect(table.completions(line: "sortera förf", word: "förf", session: h.session) == ["författare"])
        #expect(table.completions(line: "sortera författare f", word: "f", session: h.session) == ["fallande"])
        #expect(table.completions(line: "hylla sortera d", word: "d", session: h.session) == ["days", "dagar"])
    }

    @Test("Tab completes command names, sort keys, directions and result numbers")
    func completion() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let table = CommandTable()
        #expect(table.completions(line: "so", word: "so", session: h.session) == ["sort"])
        #expect(table.completions(line: "sort a", word: "a", session: h.session) == ["author"])
        #expect(table.completions(line: "sort author ", word: "", session: h.session) == ["asc", "desc"])
        #expect(table.completions(line: "view g", word: "g", session: h.session) == ["grid"])
        await h.run("top 12")
        #expect(table.completions(line: "info 1", word: "1", session: h.session) == ["1", "10", "11", "12"])
        #expect(table.completions(line: "help se", word: "se", session: h.session) == ["search"])
    }

    @Test("quit ends the REPL; a line with a leading space stays out of the history")
    func quitAndHistory() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        let source = ScriptedSource(["top 3", " info 1", "quit", "help"])
        await h.repl.run(lines: source)
        #expect(source.history == ["top 3", "quit"])
        // `help` after quit never ran: the last thing on screen is info's page, not the command list.
        #expect(!h.printer.screen.contains { $0.hasPrefix("Commands") })
    }

    @Test("A PIN typed at the command prompt by mistake, right or wrong, stays out of the history")
    func secretsStayOutOfTheHistory() async throws {
        let h = try await Harness()
        defer { Task { await h.stop() } }
        // A wrong PIN first, then the right one; the patron then types each at the command prompt.
        h.session.account.prompt = ScriptedPatronPrompt(answers: ["1001", "1001"], secrets: ["9876", "1234"])
        let source = ScriptedSource(["login", "9876", "login", "1234", "top 1", "4321"])
        await h.repl.run(lines: source)
        #expect(source.history == ["login", "login", "top 1", "4321"], "\(source.history)")
    }

    @Test("Every command type of TableEntries is in its list: one left out would silently not exist")
    func everyTableEntryIsListed() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Client/Commands/TableEntries.swift")
        let text = try String(contentsOf: source, encoding: .utf8)
        let declared = text.matches(of: /enum (\w+): TableEntry/).map { String($0.output.1) }
        #expect(declared.count >= 30, "\(declared)")
        let listed = TableEntries.all.map { String(describing: $0) }
        #expect(Set(declared) == Set(listed), "declared but not listed: \(Set(declared).subtracting(listed))")
        #expect(declared.count == listed.count, "a type listed twice")
        // Every command's name is its own.
        let names = TableEntries.commands.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
    }
}
