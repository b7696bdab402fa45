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
}
