import ArgumentParser
import Testing

@testable import Client

/// A one-shot command with no option goes to the command without swift-argument-parser's tree of
/// every command; everything the parser must see still reaches it.
@Suite("The plain one-shot command")
@MainActor
struct PlainCommandTests {
    @Test func plainWordsGoStraightToTheirCommand() {
        #expect(Bok.plainCommand(["read", "/tmp/roman.epub"]) == ["read", "/tmp/roman.epub"])
        #expect(Bok.plainCommand(["läs", "2"]) == ["read", "2"])
        #expect(Bok.plainCommand(["search", "cats", "and", "dogs"]) == ["search", "cats", "and", "dogs"])
    }

    @Test func optionsHelpAndShellCommandsGoThroughTheParser() {
        for argv in [
            [], ["read", "--help"], ["search", "x", "--json"], ["--library", "home", "loans"], ["help"],
            ["help", "read"], ["mock-server"], ["scenario", "run", "a.scenario"], ["READ", "1"], ["nosuch"],
            ["logga in"],
        ] {
            #expect(Bok.plainCommand(argv) == nil, "\(argv)")
        }
    }

    /// With options, the global ones read by their own small parser: the same command and options
    /// as the whole parser gives; what only the parser can answer still goes to it.
    @Test func optionsBeforeAndAfterTheCommandAreReadAsTheParserReadsThem() throws {
        for argv in [
            ["--library", "http://127.0.0.1:8080/library/v3.0/", "search", "thriller", "--sort", "author"],
            ["--library", "search", "search", "x"], ["--json", "loans"], ["search", "x", "--json", "--no-pager"],
            ["--mock", "--seed", "7", "--catalog-size", "2000", "info", "3"], ["--kind", "opds", "sök", "sommar"],
            ["search", "--", "--json"], ["--no-color", "shelf", "--sort", "title", "--library", "hemma"],
        ] {
            let quick = try #require(Bok.commandWithOptions(argv), "\(argv)")
            let parsed = try #require(try BokCommand.parseAsRoot(argv) as? any TableInvocation, "\(argv)")
            let full = try parsed.invocation()
            #expect(quick.0 == full.command && quick.1 == full.options, "\(argv)")
        }
        for argv in [
            ["--library", "x", "search", "--help"], ["--version"], ["--bogus", "search", "x"],
            ["mock-server", "--port", "8080"], ["scenario", "run", "search.scenario"], ["--library"], ["help", "read"],
            ["study", "run", "--library", "x", "search"],
        ] {
            #expect(Bok.commandWithOptions(argv) == nil, "\(argv)")
        }
    }
}
