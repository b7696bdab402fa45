import Foundation
import TestSupport
import Testing

@testable import Client

/// What the shell side gives a user (issue 15): `--help` on every command, completion scripts that
/// load and complete in bash, zsh and fish, a man page that renders, and `make install`'s layout.
@Suite("The shell: --help, completions, man page, install", .serialized)
struct ShellIntegrationTests {
    static let root = ScenarioTests.root
    static let manPage = root.appendingPathComponent(".build/man/bok.1")

    /// Runs a program with `PATH` leading to the built bok; returns its status and output.
    static func run(
        _ program: String, _ arguments: [String], environment extra: [String: String] = [:]
    ) async throws -> (Int32, String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("bok-shell-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = OneShotProcessTests.binary.deletingLastPathComponent().path
        let environment = BokProcess.environment(home: home, ["PATH": "\(bin):/usr/bin:/bin", "LANG": "C.UTF-8"])
            .merging(extra) { _, new in new }
        return try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
    }

    static func has(_ program: String) -> Bool {
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
    }

    @Test("Every command of the table answers bok COMMAND --help with its synopsis, exit 0")
    @MainActor
    func everyCommandHelp() async throws {
        for command in TableEntries.commands {
            let (status, text) = try await Self.run("bok", ["--mock", command.name, "--help"])
            #expect(status == 0, "\(command.name): \(text)")
            #expect(text.contains(command.synopsis), "\(command.name): \(text)")
        }
    }

    @Test(
        "The shell-only commands answer --help and bok help NAME with their usage, exit 0",
        arguments: [
            (["completions", "--help"], "bok completions <shell>"),
            (["help", "completions"], "bok completions <shell>"),
            (["help", "mock-server"], "bok mock-server [--port P]"),
            (["scenario", "--help"], "bok scenario run FILE"),
            (["scenario", "check", "--help"], "bok scenario check FILE"),
            (["scenario", "report", "-h"], "bok scenario report RECORDING"),
            (["--help"], "bok [OPTIONS] COMMAND [ARGS…]"),
        ])
    func shellOnlyHelp(arguments: [String], usage: String) async throws {
        let (status, text) = try await Self.run("bok", arguments)
        #expect(status == 0, "\(text)")
        #expect(text.contains(usage), "\(text)")
    }

    @Test(
        "Options are checked before anything runs: a bad value is one line, exit 2",
        arguments: [
            (["--seed", "x", "top"], "--seed takes a whole number"),
            (["--catalog-size", "0"], "--catalog-size takes a number from 1 to 1000000"),
            (["--kind", "gopher", "top"], "--kind"),
            (["mock-server", "--port", "70000"], "--port takes a number from 0 to 65535"),
            (["completions", "tcsh"], "tcsh"),
        ])
    func badOptionValues(arguments: [String], words: String) async throws {
        let (status, text) = try await Self.run("bok", arguments)
        #expect(status == 2, "\(text)")
        #expect(text.hasPrefix("bok: ") && text.contains(words), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "\(text)")
    }

    @Test("bash: the script loads and completes commands, sort keys and a command's options")
    func bash() async throws {
        try #require(Self.has("bash"))
        func complete(_ line: String) async throws -> [String] {
            let script = """
                source <(bok completions bash) || exit 3
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "$COMP_LINE"; [[ "$COMP_LINE" == *' ' ]] && COMP_WORDS+=('')
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _bok; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let (status, text) = try await Self.run("bash", ["-c", script])
            #expect(status == 0, "\(text)")
            return text.split(separator: "\n").map(String.init)
        }
        #expect(try await complete("bok sort ").contains("author"))
        #expect(try await complete("bok sort author ") == ["asc", "desc"])
        #expect(try await complete("bok search x --sort ").contains("popularity"))
        #expect(try await complete("bok filter ").contains("available"))
        #expect(try await complete("bok completions ") == ["bash", "zsh", "fish"])
        #expect(try await complete("bok library use ").contains("mock"))
        #expect(try await complete("bok ").contains("borrow"))
    }

    @Test("zsh: the script loads under compinit and defines the completion function")
    func zsh() async throws {
        try #require(Self.has("zsh"), "zsh is installed by scripts/install-test-tools.sh")
        let (status, text) = try await Self.run(
            "zsh",
            [
                "-f", "-c",
                """
                autoload -U compinit && compinit -u -D && source <(bok completions zsh) && whence -w _bok && print \
                ${_comps[bok]}
                """,
            ])
        #expect(status == 0, "\(text)")
        #expect(text.contains("_bok: function"), "\(text)")
    }

    @Test("fish: the script loads and completes commands and their words")
    func fish() async throws {
        try #require(Self.has("fish"), "fish is installed by scripts/install-test-tools.sh")
        // fish 3 cannot run the library-name and sort-key callbacks outside an interactive
        // session (commandline -o); the callback itself is checked below with SAP_SHELL=fish.
        let (status, text) = try await Self.run(
            "fish",
            [
                "--no-config", "-c",
                """
                bok completions fish | source; complete -C 'bok sor'; echo ---; complete -C 'bok completions '
                """,
            ])
        #expect(status == 0, "\(text)")
        let parts = text.components(separatedBy: "---\n")
        #expect(parts.first?.hasPrefix("sort\tOrder results") == true, "\(text)")
        #expect(parts.last == "bash\nzsh\nfish\n", "\(text)")
    }

    @Test(
        "The shells' callback: bok ---completion answers sort keys, orders and library names",
        arguments: [
            (
                ["---completion", "sort", "--", "positional@0", "2", "0", "bok", "sort", ""],
                ["relevance", "title", "author"]
            ),
            (
                ["---completion", "search", "--", "positional@0", "3", "0", "bok", "search", "--sort", ""],
                ["popularity"]
            ),
            (["---completion", "library", "--", "positional@0", "3", "0", "bok", "library", "use", ""], ["mock"]),
            (["---completion", "--", "--library", "2", "1", "bok", "--library", "m"], ["mock"]),
        ])
    func callback(arguments: [String], expected: [String]) async throws {
        let (status, text) = try await Self.run("bok", arguments, environment: ["SAP_SHELL": "fish"])
        #expect(status == 0, "\(text)")
        let words = text.split(separator: "\n").map(String.init)
        for word in expected { #expect(words.contains(word), "\(arguments): \(text)") }
    }

    @Test("The man page renders with man -l and documents the options and every command")
    @MainActor
    func manPage() async throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.manPage.path),
            "make test (or make man) writes \(Self.manPage.path)")
        try #require(Self.has("man"), "man-db is installed by scripts/install-test-tools.sh")
        let (status, text) = try await Self.run(
            "man", ["-l", Self.manPage.path], environment: ["MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("--catalog-size"), "\(text.prefix(500))")
        for name in TableEntries.commands.map(\.name) + BokCommand.shellOnlyNames {
            #expect(text.contains(name), "\(name) is not in the man page")
        }
        // Characters outside ASCII survive: the Swedish names and the marks the text shows.
        for word in ["search, s, find, sök", ", låna", "↓", "·"] {
            #expect(text.contains(word), "\(word) is not in the man page")
        }
    }

    @Test("install puts the binary, translations, man page and completions where bok, bash, zsh, fish and man look")
    func install() async throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.manPage.path),
            "make test (or make man) writes \(Self.manPage.path)")
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("bok-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let script = Self.root.appendingPathComponent("scripts/install.sh").path
        let locale = Self.root.appendingPathComponent(".build/share/locale")
        let (status, text) = try await Self.run(
            "bash", [script, prefix.path, OneShotProcessTests.binary.path, Self.manPage.path, locale.path])
        #expect(status == 0, "\(text)")
        for path in [
            "bin/bok", "share/man/man1/bok.1", "share/bash-completion/completions/bok",
            "share/zsh/site-functions/_bok", "share/fish/vendor_completions.d/bok.fish",
            "share/locale/sv/LC_MESSAGES/bok.mo",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path)")
        }
        let (version, said) = try await Self.run(prefix.appendingPathComponent("bin/bok").path, ["--version"])
        #expect(version == 0 && said.hasPrefix("bok "), "\(said)")
        // The installed bok finds its translations beside it.
        let (_, swedish) = try await Self.run(
            prefix.appendingPathComponent("bin/bok").path, ["--mock", "help"], environment: ["LANGUAGE": "sv"])
        #expect(swedish.contains("Kommandon"), "\(swedish)")
        if Self.has("man") {
            let (found, where_) = try await Self.run(
                "man", ["-w", "bok"], environment: ["MANPATH": prefix.appendingPathComponent("share/man").path])
            #expect(found == 0 && where_.contains("bok.1"), "\(where_)")
        }
        let completions = prefix.appendingPathComponent("share/bash-completion/completions/bok").path
        let (loads, output) = try await Self.run("bash", ["-c", "source \(completions) && complete -p bok"])
        #expect(loads == 0 && output.contains("_bok"), "\(output)")
    }
}
