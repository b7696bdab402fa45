import Terminal
import Testing

@testable import Reader

/// The reader's one list of `:` commands holds together: a name means one command, and every
/// command is in the `?` panel.
@Suite struct ReaderCommandDefinitionTests {
    @Test("No name or alias stands for two commands")
    func namesAreUnique() {
        let names = ReaderCommandDefinition.all.flatMap(\.names)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.allSatisfy { $0 == $0.lowercased() }, "names are matched in lower case")
    }

    @Test("Every command's name is in the ? panel's list of commands")
    func everyCommandIsListed() {
        let listed = ReaderCommand.summary.flatMap { usage, _ in
            usage.split(whereSeparator: { $0 == " " || $0 == "|" }).map(String.init)
        }
        for definition in ReaderCommandDefinition.all {
            #expect(listed.contains(definition.names[0]), "\(definition.names[0]) is not in the ? panel")
        }
    }

    @Test(
        ":images turns pictures on and off and names the way they are drawn",
        arguments: [
            ("images", ReaderCommand.images(true)), ("images off", .images(false)), ("image on", .images(true)),
            ("images sixel", .pictures(.forced(.sixel))), ("images Kitty", .pictures(.forced(.kitty))),
            ("images iterm2", .pictures(.forced(.iterm))), ("images blocks", .pictures(.forced(.blocks))),
            ("pictures auto", .pictures(.auto)),
        ])
    func imagesWords(typed: String, expected: ReaderCommand) throws {
        #expect(try ReaderCommand.parse(typed).get() == expected)
    }

    @Test func aWrongImagesWordSaysTheWords() {
        guard case .failure(let error) = ReaderCommand.parse("images png") else {
            Issue.record("images png was taken")
            return
        }
        #expect(error.message == "Images are on, off, auto, kitty, iterm, sixel or blocks: :images sixel")
    }
}
