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
}
