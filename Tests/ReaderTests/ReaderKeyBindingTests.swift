import Foundation
import Terminal
import Testing

@testable import Reader

/// The reader's one table of keys holds together: every action has a key, no key does two things,
/// the keys a row shows are the ones it binds, and docs/commands.md lists the table as `?` does.
@Suite struct ReaderKeyBindingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private var bound: [(key: Key, action: ReaderKeyBinding.Action)] {
        ReaderKeyBinding.all.flatMap { row in row.actions.flatMap { pair in pair.keys.map { ($0, pair.action) } } }
    }

    @Test("Every action on the page has a key, and no key does two things")
    func everyActionHasOneKey() {
        for action in ReaderKeyBinding.Action.allCases {
            #expect(bound.contains { $0.action == action }, "no key for \(action)")
        }
        var seen: [Key: ReaderKeyBinding.Action] = [:]
        for (key, action) in bound {
            #expect(seen[key] == nil, "\(key) is bound to \(seen[key].map { "\($0)" } ?? "") and \(action)")
            seen[key] = action
            #expect(ReaderKeyBinding.action(for: key) == action)
        }
    }

    @Test("The keys a row of the ? panel shows are keys the table binds")
    func shownKeysAreBound() {
        let named: [String: Key] = [
            "space": .character(" "), "PgDn": .pageDown, "PgUp": .pageUp, "→": .right, "←": .left, "Home": .home,
            "End": .end, "Esc": .escape, "Enter": .enter, "Backspace": .backspace,
        ]
        for row in ReaderKeyBinding.all {
            // "/" between keys separates them ("g Home / G End"); alone it is the key.
            let words = row.keys == "/" ? ["/"] : row.keys.split(separator: " ").map(String.init).filter { $0 != "/" }
            for word in words {
                let key = named[word] ?? (word.count == 1 ? Key.character(word.first!) : nil)
                #expect(key.map { key in bound.contains { $0.key == key } } == true, "\(row.keys): \(word)")
            }
        }
    }

    @Test("docs/commands.md lists the reader's keys and : commands as the ? panel does")
    func documented() throws {
        let document = try String(
            contentsOf: Self.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let cell = { (text: String) in text.replacingOccurrences(of: "|", with: "\\|") }
        let table =
            (["| Keys | What they do |", "|---|---|"]
            + ReaderKeyBinding.panelLines.map { "| `\(cell($0.0))` | \(cell($0.1)) |" })
            .joined(separator: "\n")
        #expect(document.contains(table + "\n"), "docs/commands.md should have this table of keys:\n\(table)")
    }
}
