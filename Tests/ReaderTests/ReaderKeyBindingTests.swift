import Foundation
import Terminal
import Testing

@testable import Reader

/// The reader's tables of keys hold together: every action has a key, no key does two things,
/// the keys a row shows are the ones it binds, and docs/commands.md lists the tables as `?` does.
@Suite struct ReaderKeyBindingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The keys a row of the `?` panel names, by the words it shows them with.
    static let named: [String: Key] = [
        "space": .character(" "), "PgDn": .pageDown, "PgUp": .pageUp, "→": .right, "←": .left, "↓": .down,
        "↑": .up, "Home": .home, "End": .end, "Esc": .escape, "Enter": .enter, "Backspace": .backspace,
        "Tab": .tab, "Delete": .delete,
    ]

    /// Checks one table: each action has a key, no key two actions, and every key a row shows is bound.
    func check<Action: Hashable & Sendable & CaseIterable>(_ table: KeyTable<Action>) {
        for action in Action.allCases {
            #expect(table.bound.contains { $0.action == action }, "no key for \(action)")
        }
        var seen: [Key: Action] = [:]
        for (key, action) in table.bound {
            #expect(seen[key] == nil, "\(key) is bound to \(seen[key].map { "\($0)" } ?? "") and \(action)")
            seen[key] = action
            #expect(table.action(for: key) == action)
        }
        for row in table.rows {
            // "/" between keys separates them ("g Home / G End"); alone it is the key.
            let words = row.keys == "/" ? ["/"] : row.keys.split(separator: " ").map(String.init).filter { $0 != "/" }
            for word in words {
                let key = Self.named[word] ?? (word.count == 1 ? Key.character(word.first!) : nil)
                #expect(key.map { key in table.bound.contains { $0.key == key } } == true, "\(row.keys): \(word)")
            }
        }
    }

    @Test("Every action on the page has a key, no key does two things, and the keys shown are bound")
    func pageKeys() {
        check(ReaderKeys.page)
    }

    @Test("Every action inside a panel has a key, no key does two things, and the keys shown are bound")
    func panelKeys() {
        check(ReaderKeys.panel)
    }

    @Test("docs/commands.md lists the reader's keys and : commands as the ? panel does")
    func documented() throws {
        let document = try String(
            contentsOf: Self.root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let cell = { (text: String) in text.replacingOccurrences(of: "|", with: "\\|") }
        let table =
            (["| Keys | What they do |", "|---|---|"]
            + ReaderKeys.helpLines.map { "| `\(cell($0.0))` | \(cell($0.1)) |" })
            .joined(separator: "\n")
        #expect(document.contains(table + "\n"), "docs/commands.md should have this table of keys:\n\(table)")
    }
}
